package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/registry"
)

// Backend says where a Device runs algorithms.
type Backend int

// Backends. Auto picks GPU when a CUDA driver and a device are present, CPU
// otherwise; the environment variable GOCCCL_BACKEND ("gpu" or "cpu")
// overrides that choice.
const (
	Auto Backend = iota
	CPU
	GPU
)

// String returns "auto", "cpu" or "gpu".
func (b Backend) String() string {
	switch b {
	case Auto:
		return "auto"
	case CPU:
		return "cpu"
	case GPU:
		return "gpu"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// ErrDeviceClosed is returned by every use of a Device, or of a stream or
// buffer on it, after Device.Close.
var ErrDeviceClosed = errors.New("device is closed")

// DeviceInfo describes a Device.
type DeviceInfo struct {
	Backend Backend
	Name    string // e.g. "NVIDIA H200", or "CPU #1 (16 goroutines)"
	Ordinal int    // CUDA device ordinal; 0 on the CPU backend

	// GPU only.
	Major, Minor       int    // compute capability
	Multiprocessors    int    // SM count
	SharedMemPerBlock  int    // bytes
	TotalMemory        uint64 // bytes
	DriverVersion      int    // e.g. 12080
	MemoryPoolsSupport bool   // stream-ordered allocation available

	// CPU only: how many goroutines an algorithm uses.
	Workers int

	// Fallback says why Auto chose the CPU backend; empty otherwise. String
	// leaves it out: a CPU device is not an error.
	Fallback string

	// Ungenerated is set on a CPU device opened with GOCCCL_UNGENERATED=1
	// in the environment: it runs the Go operators of instances that
	// gocccl-gen generated no kernels for, where a GPU (and any other CPU
	// device) returns ErrNotGenerated. String says so. It suits tests of
	// code that is never generated, such as this module's own.
	Ungenerated bool
}

// EnvUngenerated is the environment variable that, set to 1 (or true) when
// a CPU device is opened, lets it run instances without generated kernels.
const EnvUngenerated = "GOCCCL_UNGENERATED"

// String summarises the device in one line.
func (i DeviceInfo) String() string {
	if i.Backend == GPU {
		return fmt.Sprintf("GPU %d: %s (compute capability %d.%d, %d SMs)", i.Ordinal, i.Name, i.Major, i.Minor, i.Multiprocessors)
	}
	if i.Ungenerated {
		return i.Name + ", running operators without generated kernels (" + EnvUngenerated + "=1)"
	}
	return i.Name
}

// shortName names the device in messages about several devices: "GPU 0
// (NVIDIA H200)", "CPU #2 (16 goroutines)".
func (d *Device) shortName() string {
	if d.info.Backend == GPU {
		return fmt.Sprintf("GPU %d (%s)", d.info.Ordinal, d.info.Name)
	}
	return d.info.Name
}

// Device is a GPU or the CPU backend. Its methods and the algorithms that run
// on it are safe for concurrent use by several goroutines; Close waits for
// the calls in flight.
type Device struct {
	info DeviceInfo
	ctx  *cuda.Context // GPU only
	// pool serves the scratch memory of algorithm calls in stream order and
	// keeps up to retain bytes of it between calls; 0 when the device has
	// no memory pools (then scratch uses plain allocations).
	pool   cuda.MemPool
	retain atomic.Int64
	// poolAbove is set when a call took more scratch from the pool than it
	// keeps (tempRetain): the next synchronization returns the excess
	// to the driver (trimPool).
	poolAbove atomic.Bool
	// freesPending counts the FreeAfter frees still waiting for their
	// stream: an allocation that finds the device full waits for them.
	freesPending atomic.Int64
	// streamOwned counts the allocations of d.allocs that are streams'
	// scratch and epoch regions (StreamAllocations).
	streamOwned atomic.Int64

	// lastLaunch is the instance whose kernel was launched last, named when
	// a kernel fault surfaces; fault is the first fault seen (noteFault),
	// after which every enter fails.
	lastLaunch atomic.Pointer[instance]
	fault      atomic.Pointer[FaultError]

	defaultStream Stream

	// life is read-held by every operation that uses the device and
	// write-held by Close, so Close waits for the calls in flight and no
	// call starts after it.
	life   sync.RWMutex
	closed bool

	mu      sync.Mutex                               // guards the maps below
	modules map[modulePart]*loadedModule             // one per instance part that ran: bounded
	kernels map[*registry.Registration]*boundKernels // one per registered instance: bounded
	allocs  map[cuda.DevicePtr]int                   // live Slice memory, freed by Close (see track)
	streams map[cuda.Stream]int                      // live streams of NewStream, destroyed by Close
	frees   freeQueue                                // FreeAfter's memory waiting for its streams
	pinned  map[*pinnedMem]struct{}                  // live page-locked host memory, released by Close
	events  map[cuda.Event]int                       // live events of NewEvent, destroyed by Close
}

// Open returns a device of the given backend. Auto consults GOCCCL_BACKEND,
// then uses GPU 0 when a CUDA driver and device are present, else the CPU.
// A CPU device runs only instances whose kernels were generated, as a GPU
// does, unless GOCCCL_UNGENERATED=1 (see DeviceInfo.Ungenerated).
func Open(b Backend) (*Device, error) {
	ungenerated, err := envUngenerated()
	if err != nil {
		return nil, err
	}
	if b == Auto {
		switch env := strings.ToLower(os.Getenv("GOCCCL_BACKEND")); env {
		case "", "auto":
		case "cpu":
			b = CPU
		case "gpu":
			b = GPU
		default:
			return nil, fmt.Errorf("gocccl: GOCCCL_BACKEND=%q: want gpu, cpu or auto", env)
		}
	}
	switch b {
	case CPU:
		return openCPU("", ungenerated), nil
	case GPU:
		return OpenGPU(0)
	case Auto:
		d, err := OpenGPU(0)
		if err != nil {
			return openCPU(err.Error(), ungenerated), nil
		}
		return d, nil
	}
	return nil, fmt.Errorf("gocccl: unknown backend %v", b)
}

// envUngenerated reads GOCCCL_UNGENERATED: unset, empty, 0 or false mean
// off; 1 or true on.
func envUngenerated() (bool, error) {
	env := os.Getenv(EnvUngenerated)
	if env == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(env)
	if err != nil {
		return false, fmt.Errorf("gocccl: %s=%q: want 1 (run operators without generated kernels on the CPU backend) or 0", EnvUngenerated, env)
	}
	return on, nil
}

// cpuDevices numbers the CPU devices a program opens, so that messages
// about two of them can tell which is which.
var cpuDevices atomic.Int64

func openCPU(fallback string, ungenerated bool) *Device {
	w := goruntime.GOMAXPROCS(0)
	return newDevice(DeviceInfo{
		Backend:     CPU,
		Name:        fmt.Sprintf("CPU #%d (%d goroutines)", cpuDevices.Add(1), w),
		Workers:     w,
		Fallback:    fallback,
		Ungenerated: ungenerated,
	}, nil)
}

func newDevice(info DeviceInfo, ctx *cuda.Context) *Device {
	d := &Device{info: info, ctx: ctx}
	d.defaultStream.dev = d
	return d
}

// verifiedAhead holds the compute capabilities (major×10+minor) whose images
// registry.VerifyAhead has been started for, once per process each.
var verifiedAhead sync.Map

// OpenGPU opens the CUDA device with the given ordinal and retains its
// primary context. It fails, with the CUDA error, when there is no driver or
// no such device.
func OpenGPU(ordinal int) (*Device, error) {
	return openGPU(ordinal, func(dev cuda.Device) (*cuda.Context, error) { return cuda.PrimaryContext(dev) })
}

// OpenGPUContext opens a Device over a CUDA context another library made
// or retained (its CUcontext handle), instead of retaining the device's
// primary context itself: gocccl's work and the other library's then share
// one context. The owner keeps the context alive until this Device is
// closed; Close leaves it to its owner.
func OpenGPUContext(handle uintptr) (*Device, error) {
	if err := cuda.Init(); err != nil {
		return nil, fmt.Errorf("gocccl: no CUDA device: %w", err)
	}
	ctx, err := cuda.ForeignContext(handle)
	if err != nil {
		return nil, fmt.Errorf("gocccl: OpenGPUContext(%#x): %w", handle, err)
	}
	return openGPU(int(ctx.Device()), func(cuda.Device) (*cuda.Context, error) { return ctx, nil })
}

// openGPU opens the device with the given ordinal over the context that
// context returns for it.
func openGPU(ordinal int, context func(cuda.Device) (*cuda.Context, error)) (*Device, error) {
	if err := cuda.Init(); err != nil {
		return nil, fmt.Errorf("gocccl: no CUDA device: %w", err)
	}
	count, err := cuda.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("gocccl: no CUDA device: %w", err)
	}
	if ordinal < 0 || ordinal >= count {
		return nil, fmt.Errorf("gocccl: GPU %d does not exist (%d found)", ordinal, count)
	}
	dev, err := cuda.DeviceGet(ordinal)
	if err != nil {
		return nil, fmt.Errorf("gocccl: GPU %d: %w", ordinal, err)
	}
	info, err := gpuInfo(dev, ordinal)
	if err != nil {
		return nil, err
	}
	// Check the hashes of the images this device will load while the
	// context is created (tens of milliseconds), not in the first call.
	if _, started := verifiedAhead.LoadOrStore(info.Major*10+info.Minor, true); !started {
		go registry.VerifyAhead(info.Major, info.Minor)
	}
	ctx, err := context(dev)
	if err != nil {
		return nil, fmt.Errorf("gocccl: GPU %d: %w", ordinal, err)
	}
	d := newDevice(info, ctx)
	if info.MemoryPoolsSupport {
		d.retain.Store(defaultScratchRetain(int64(info.TotalMemory)))
		d.pool, err = ctx.MemPoolCreate(uint64(d.retain.Load()))
		var cerr *cuda.Error
		switch {
		case errors.As(err, &cerr) && cerr.Code == cuda.ErrorNotSupported:
			// An old driver: scratch falls back to plain allocations.
			d.info.MemoryPoolsSupport = false
		case err != nil:
			ctx.Release()
			return nil, fmt.Errorf("gocccl: GPU %d: scratch memory pool: %w", ordinal, err)
		}
	}
	return d, nil
}

func gpuInfo(dev cuda.Device, ordinal int) (DeviceInfo, error) {
	info := DeviceInfo{Backend: GPU, Ordinal: ordinal}
	var err error
	wrap := func(e error) error { return fmt.Errorf("gocccl: GPU %d: %w", ordinal, e) }
	if info.Name, err = dev.Name(); err != nil {
		return info, wrap(err)
	}
	if info.Major, info.Minor, err = dev.ComputeCapability(); err != nil {
		return info, wrap(err)
	}
	if info.Multiprocessors, err = dev.Attribute(cuda.AttrMultiprocessorCount); err != nil {
		return info, wrap(err)
	}
	if info.SharedMemPerBlock, err = dev.Attribute(cuda.AttrMaxSharedMemoryPerBlock); err != nil {
		return info, wrap(err)
	}
	// Drivers older than CUDA 11.2 do not know the attribute: no pools.
	pools, err := dev.Attribute(cuda.AttrMemoryPoolsSupported)
	info.MemoryPoolsSupport = err == nil && pools != 0
	if info.TotalMemory, err = dev.TotalMem(); err != nil {
		return info, wrap(err)
	}
	if info.DriverVersion, err = cuda.DriverVersion(); err != nil {
		return info, wrap(err)
	}
	return info, nil
}

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// Backend returns CPU or GPU.
func (d *Device) Backend() Backend { return d.info.Backend }

// String describes the device in one line.
func (d *Device) String() string { return d.info.String() }

// Close waits for the work enqueued on the device, then frees every Slice
// and Pinned buffer and destroys every Stream still open on it, unloads its modules and
// releases its context. Later uses of the device, its streams and its slices
// return ErrDeviceClosed; closing twice is an error. After a kernel fault
// (ErrDeviceFaulted) it only releases the context, which took the rest with
// it, and returns the fault.
func (d *Device) Close() error {
	if d == nil || d.info.Backend == Auto {
		return fmt.Errorf("gocccl: Close: %w", errUninitializedDevice)
	}
	d.life.Lock()
	defer d.life.Unlock()
	if d.closed {
		return fmt.Errorf("gocccl: Close: %w", ErrDeviceClosed)
	}
	d.closed = true
	if d.ctx == nil {
		return nil
	}
	var errs []error
	// Kernels still running must finish before their memory and modules go.
	if err := d.noteFault(d.ctx.Synchronize()); err != nil {
		errs = append(errs, fmt.Errorf("gocccl: Close: waiting for the device: %w", err))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.fault.Load(); f != nil {
		// A kernel fault lost the context, and its memory, streams and
		// modules with it: every call on them would fail the same way.
		// Releasing the context is all that is left.
		if len(errs) == 0 {
			errs = append(errs, fmt.Errorf("gocccl: Close: %w", f))
		}
		d.streams, d.allocs, d.modules, d.kernels, d.pool, d.pinned, d.events = nil, nil, nil, nil, 0, nil, nil
		d.streamOwned.Store(0)
		d.ctx.Release()
		return errors.Join(errs...)
	}
	for _, s := range sortedKeys(d.streams) {
		if err := d.ctx.StreamDestroy(s); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: destroying stream: %w", err))
		}
	}
	for _, p := range sortedKeys(d.allocs) {
		if err := d.ctx.MemFree(p); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: freeing slice memory: %w", err))
		}
	}
	for _, e := range sortedKeys(d.events) {
		if err := d.ctx.EventDestroy(e); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: destroying event: %w", err))
		}
	}
	for m := range d.pinned {
		if err := m.releaseLocked(false); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: releasing pinned memory: %w", err))
		}
	}
	for _, lm := range d.modules {
		if err := d.ctx.ModuleUnload(lm.handle); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: unloading module of %s: %w", lm.module.Package(), err))
		}
	}
	d.streams, d.allocs, d.modules, d.kernels, d.pinned, d.events = nil, nil, nil, nil, nil, nil
	d.streamOwned.Store(0)
	if d.pool != 0 {
		if err := d.ctx.MemPoolDestroy(d.pool); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: destroying scratch pool: %w", err))
		}
		d.pool = 0
	}
	if err := d.ctx.Release(); err != nil {
		errs = append(errs, fmt.Errorf("gocccl: releasing context: %w", err))
	}
	return errors.Join(errs...)
}

// errUninitializedDevice is returned for a nil or zero Device.
var errUninitializedDevice = errors.New("uninitialized Device: use runtime.Open or runtime.OpenGPU")

// enter starts an operation on the device: it fails once the device is
// closed, and otherwise holds Close off until the matching exit.
func (d *Device) enter() error {
	if d == nil || d.info.Backend == Auto {
		return errUninitializedDevice
	}
	d.life.RLock()
	if d.closed {
		d.life.RUnlock()
		return ErrDeviceClosed
	}
	if f := d.fault.Load(); f != nil {
		d.life.RUnlock()
		return f
	}
	return nil
}

// exit ends an operation begun by a successful enter.
func (d *Device) exit() { d.life.RUnlock() }

// track records live memory or a live stream, for Close. It counts: a
// handle the driver has just released can be handed out again before the
// goroutine that released it has untracked it (a FreeAfter, a cleanup), and
// the new owner's record must outlive the old one's untrack.
func track[K comparable](d *Device, set *map[K]int, k K) {
	d.mu.Lock()
	if *set == nil {
		*set = make(map[K]int)
	}
	(*set)[k]++
	d.mu.Unlock()
}

// untrack forgets one record of track.
func untrack[K comparable](d *Device, set *map[K]int, k K) {
	d.mu.Lock()
	if (*set)[k] > 1 {
		(*set)[k]--
	} else {
		delete(*set, k)
	}
	d.mu.Unlock()
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
