package runtime

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gocccl/gocccl/internal/arch"
	"github.com/gocccl/gocccl/internal/registry"

	"github.com/gocccl/gocccl/internal/cuda"
)

// subscription is how many waves of resident blocks a grid of independent
// blocks launches at most (CUB's CUB_SUBSCRIPTION_FACTOR).
const subscription = 5

// loadedModule is one part of a Module's image (one instance's kernels)
// loaded on one device.
type loadedModule struct {
	module *registry.Module
	handle cuda.Module
	target Target
	reason string
}

// modulePart names a part of a module's images.
type modulePart struct {
	module *registry.Module
	part   int
}

// boundKernels are an instance's functions resolved on one device, with the
// policy of the loaded image and the grids occupancy allows. The first
// kernel is resolved when the instance is bound (its occupancy sets
// resident); every other one at its first launch or wave query, so a first
// call pays for the kernels it runs, not for every kernel of its
// description (each cuModuleGetFunction loads a function under the
// driver's lazy loading).
type boundKernels struct {
	policy arch.Policy
	// resident is one wave: the blocks of the first kernel all SMs hold at
	// once. A single-pass reduction's grid (Reduce, TransformReduce,
	// Histogram) is at most this: its blocks then each take a few tiles and
	// none waits for a second wave (0.92–0.96× CUB's time at 2^24 on the
	// H200, against 1.01–1.16× with five waves of one-tile blocks).
	resident int
	// maxBlocks is subscription waves, for grids of independent work.
	maxBlocks int
	// fns are the kernels in the description's order.
	fns []lazyKernel

	// What resolving a kernel needs.
	mu     sync.Mutex
	ctx    *cuda.Context
	handle cuda.Module
	names  []string
	pkg    string
	sms    int
}

// lazyKernel is one kernel of a boundKernels, resolved once.
type lazyKernel struct {
	ready atomic.Bool
	fn    cuda.Function
	// wave is one wave of the kernel's blocks at the policy's block size,
	// for a dispatch that depends on a later kernel's own occupancy
	// (MergeSort's merge passes); 0 where a block of that size does not
	// fit the kernel.
	wave int
	err  error
}

// kernel returns kernel i, resolving it the first time: an atomic load
// once resolved. The caller has entered the device, so Close cannot run
// meanwhile.
func (bk *boundKernels) kernel(i int) *lazyKernel {
	l := &bk.fns[i]
	if !l.ready.Load() {
		bk.resolve(i)
	}
	return l
}

// resolve looks kernel i up in the loaded part and queries its occupancy.
func (bk *boundKernels) resolve(i int) {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	l := &bk.fns[i]
	if l.ready.Load() {
		return
	}
	f, err := bk.ctx.ModuleGetFunction(bk.handle, bk.names[i])
	if err != nil {
		l.err = fmt.Errorf("gocccl: %s: kernel %s: %w", bk.pkg, bk.names[i], err)
	} else {
		// A kernel whose block cannot hold BlockThreads threads has
		// occupancy 0 and falls back to the first kernel's wave (wave).
		occ, err := bk.ctx.OccupancyMaxActiveBlocksPerMultiprocessor(f, bk.policy.BlockThreads, 0)
		if err != nil {
			l.err = fmt.Errorf("gocccl: %s: occupancy of %s: %w", bk.pkg, bk.names[i], err)
		}
		l.fn, l.wave = f, occ*bk.sms
	}
	l.ready.Store(true)
}

// wave returns one wave of kernel i's blocks: the blocks all SMs hold at
// once at the policy's block size, resident where none fits (or the
// kernel cannot be resolved: its launch reports why).
func (bk *boundKernels) wave(i int) int {
	if i >= 0 && i < len(bk.fns) {
		if l := bk.kernel(i); l.err == nil && l.wave > 0 {
			return l.wave
		}
	}
	return bk.resident
}

// bind resolves a registration's kernels on d, loading the part of its
// module's image that holds them the first time: a program loads the
// instances it runs, not their packages (a module load costs about a
// millisecond a megabyte). Both the loaded parts and the bound kernels are
// bounded by what generated code registered, and are released by Close.
// The caller has entered d, so Close cannot run meanwhile.
func (d *Device) bind(r *registry.Registration) (*boundKernels, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if bk := d.kernels[r]; bk != nil {
		return bk, nil
	}
	lm, err := d.loadLocked(r.Module, r.Part)
	if err != nil {
		return nil, err
	}
	bk := &boundKernels{ctx: d.ctx, handle: lm.handle, names: r.Kernels, pkg: r.Module.Package(), sms: d.info.Multiprocessors}
	found := false
	for _, p := range r.Policies {
		if p.Arch == lm.target.Arch {
			bk.policy, found = p, true
			break
		}
	}
	if !found || bk.policy.BlockThreads <= 0 || bk.policy.ItemsPerThread <= 0 {
		return nil, fmt.Errorf("gocccl: %s: no launch policy for %s; regenerate the package", r.Module.Package(), lm.target)
	}
	if len(r.Kernels) == 0 {
		return nil, fmt.Errorf("gocccl: %s: an instance without kernels; regenerate the package", r.Module.Package())
	}
	bk.fns = make([]lazyKernel, len(r.Kernels))
	first := bk.kernel(0)
	if first.err != nil {
		return nil, first.err
	}
	bk.resident = max(1, first.wave)
	bk.maxBlocks = bk.resident * subscription
	if d.kernels == nil {
		d.kernels = make(map[*registry.Registration]*boundKernels)
	}
	d.kernels[r] = bk
	return bk, nil
}

func (d *Device) loadLocked(m *registry.Module, part int) (*loadedModule, error) {
	key := modulePart{m, part}
	if lm := d.modules[key]; lm != nil {
		return lm, nil
	}
	i, reason, err := m.SelectImage(d.info.Major, d.info.Minor)
	var im registry.Image
	if err == nil {
		err = checkPTXDriver(m.Images()[i], d.info.DriverVersion, d.info.Major, d.info.Minor)
	}
	if err == nil {
		im, err = m.PartImage(i, part) // usually checked already: OpenGPU starts VerifyAhead
	}
	if err != nil {
		return nil, fmt.Errorf("gocccl: %s on %s: %w", m.Package(), d.info.Name, err)
	}
	h, err := d.ctx.ModuleLoadData(aligned(im.Data))
	if err != nil {
		return nil, fmt.Errorf("gocccl: loading %s (%s, part %d): %w", m.Package(), im.Target, part, err)
	}
	lm := &loadedModule{module: m, handle: h, target: im.Target, reason: reason}
	if d.modules == nil {
		d.modules = make(map[modulePart]*loadedModule)
	}
	d.modules[key] = lm
	return lm, nil
}

// aligned returns data, or a copy of it at an address the driver reads an
// ELF image from without faulting (8 bytes), should the embedded data lie
// elsewhere: parts lie 16 bytes apart from the start of their image.
func aligned(data []byte) []byte {
	if len(data) == 0 || uintptr(unsafe.Pointer(&data[0]))%8 == 0 {
		return data
	}
	return slices.Clone(data)
}

// LoadedImage reports which image of the generated package pkg is loaded on
// the device and why it was chosen; ok is false when none is loaded yet.
func (d *Device) LoadedImage(pkg string) (target Target, reason string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for key, lm := range d.modules {
		if key.module.Package() == pkg {
			return lm.target, lm.reason, true
		}
	}
	return Target{}, "", false
}

// LoadedModules returns the import paths of the generated packages whose
// module is loaded on the device, sorted: one per package, however many of
// its instances ran (each loads the part of the image that holds its
// kernels: LoadedParts), until Close unloads them. A CPU device loads none.
// Modules lists every package registered in the program.
func (d *Device) LoadedModules() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	pkgs := make([]string, 0, len(d.modules))
	for key := range d.modules {
		pkgs = append(pkgs, key.module.Package())
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

// LoadedParts returns how many parts of the generated package pkg's image
// are loaded on the device: one per instance that ran (instances that
// share kernels share a part).
func (d *Device) LoadedParts(pkg string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for key := range d.modules {
		if key.module.Package() == pkg {
			n++
		}
	}
	return n
}

// launch enqueues f on s with a 1-D grid.
func (d *Device) launch(f cuda.Function, grid, block int, s *Stream, args *cuda.Args) error {
	return d.ctx.LaunchKernel(f, cuda.Dim3{X: uint32(grid), Y: 1, Z: 1}, cuda.Dim3{X: uint32(block), Y: 1, Z: 1}, 0, s.handle, args)
}

// tempRetain is how much freed scratch memory a device's pool keeps when
// MemInfo reports memory in use. A Reduce needs at most SMs × occupancy ×
// subscription elements of scratch: tens of KiB.
const tempRetain = 32 << 20

// defaultScratchRetain is how much freed scratch memory a device's pool keeps
// between calls by default (SetScratchRetain): a sixteenth of the device's
// memory, between 32 MiB and 8 GiB. A sort of 2^28 uint32 keys takes 1 GiB of
// scratch; when the pool returns it to the driver at every synchronization,
// the next call maps it again, which cost 1.5 ms a GiB on the H200 (a sort
// of 2^28 keys took 7.3 ms instead of 5.8).
func defaultScratchRetain(total int64) int64 {
	return min(max(total/16, tempRetain), 8<<30)
}

// tempAlloc allocates stream-ordered scratch memory for one call.
// A call that takes more than the pool keeps marks the pool for trimming at
// the next synchronization, so that a large sort's scratch does not stay
// reserved after the call. When the device is out of memory, it collects
// dropped slices, returns the pool's freed memory and tries once more.
func (d *Device) tempAlloc(bytes int, s *Stream) (cuda.DevicePtr, error) {
	if d.pool == 0 {
		return d.allocate(bytes)
	}
	if bytes > tempRetain {
		d.poolAbove.Store(true)
	}
	p, err := d.ctx.MemAllocFromPoolAsync(bytes, d.pool, s.handle)
	if !isOutOfMemory(err) {
		return p, err
	}
	if err := d.releaseMemory(); err != nil {
		return 0, err
	}
	return d.ctx.MemAllocFromPoolAsync(bytes, d.pool, s.handle)
}

// trimPool returns the memory the scratch pool holds beyond tempRetain to
// the driver, when a call took more than that since the last trim (MemInfo).
// The caller has synchronized with the work that freed it, and entered the
// device. Its error has no gocccl: prefix: the caller's message gives it.
func (d *Device) trimPool() error {
	if d.pool == 0 || !d.poolAbove.Swap(false) {
		return nil
	}
	if err := d.ctx.MemPoolTrimTo(d.pool, tempRetain); err != nil {
		return fmt.Errorf("returning scratch memory to the driver: %w", err)
	}
	return nil
}

// releaseMemory frees what the device holds and does not need, for an
// allocation that failed for want of memory: dropped slices (collected),
// and all freed memory of the scratch pool once the device's work is done.
// The caller has entered the device. Its error has no gocccl: prefix: it
// reaches users through allocate and tempAlloc, whose callers prefix it
// (Alloc, MemInfo, an algorithm's wrap, Capture).
func (d *Device) releaseMemory() error {
	collectDropped()
	d.awaitFrees()
	if d.pool == 0 {
		return nil
	}
	if err := d.ctx.Synchronize(); err != nil {
		return fmt.Errorf("waiting for the device before returning scratch memory: %w", err)
	}
	d.poolAbove.Store(false)
	if err := d.ctx.MemPoolTrimTo(d.pool, 0); err != nil {
		return fmt.Errorf("returning scratch memory to the driver: %w", err)
	}
	return nil
}

// awaitFrees waits, at most 10 s, for the FreeAfter frees still waiting
// for their streams.
func (d *Device) awaitFrees() {
	deadline := time.Now().Add(10 * time.Second)
	for d.freesPending.Load() > 0 && d.fault.Load() == nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Microsecond)
	}
}

// tempFree releases scratch memory after the work enqueued on s has used it.
func (d *Device) tempFree(p cuda.DevicePtr, s *Stream) error {
	if d.pool != 0 {
		return d.ctx.MemFreeAsync(p, s.handle)
	}
	if err := d.ctx.StreamSynchronize(s.handle); err != nil {
		return err
	}
	return d.ctx.MemFree(p)
}
