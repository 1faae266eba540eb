package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"sync/atomic"
	"time"

	"github.com/gocccl/gocccl/internal/cuda"
)

// What gocccl keeps, and for how long:
//
//   - A Slice's device memory is the caller's until Free, or until the Slice
//     becomes unreachable: then a cleanup (runtime.AddCleanup) frees it, so
//     a program that drops buffers loses no device memory. Free is still the
//     way to release memory promptly; the garbage collector runs for Go heap
//     pressure, not device memory. A view made by Range keeps its
//     allocation alive.
//   - FreeAfter frees a Slice once the work already enqueued on a stream has
//     completed, without waiting: a buffer can be dropped right after the
//     asynchronous call that reads it.
//   - An allocation that fails for lack of device memory runs the garbage
//     collector, waits for the cleanups it queued and for pending FreeAfter
//     frees, and tries once more.
//   - A call (Run) binds the buffers it is given for the work it enqueues and
//     keeps no reference to them, to its operators' arguments or to the
//     stream once it returns: not in the instance, not in the registry, not
//     in any cache. The caller must keep the buffers (and not Free them)
//     until the stream work that uses them has completed.
//   - A Device keeps one loaded module per generated package, the bound
//     kernels of the instances that ran on it, a scratch buffer per stream
//     that ran a single-pass reduction, and a scratch pool that keeps freed
//     scratch for the next calls up to ScratchRetain bytes (a sixteenth of
//     the device's memory, at most 8 GiB, by default); an allocation that
//     finds the device full and MemInfo give that back, and Close releases
//     all of it.

// collected counts the device allocations freed by cleanups, on every
// device: allocations poll it to wait for the cleanups a collection queued.
var collected atomic.Int64

// deviceAlloc is what the cleanup of a Slice's device memory needs: never the
// Slice itself, which would keep it reachable.
type deviceAlloc struct {
	dev *Device
	ptr cuda.DevicePtr
}

// release frees memory whose Slice was collected without Free. It runs on
// the cleanup goroutine; a closed device has freed it already.
func (a deviceAlloc) release() {
	d := a.dev
	if d.enter() != nil {
		return
	}
	defer d.exit()
	d.mu.Lock()
	_, live := d.allocs[a.ptr]
	d.mu.Unlock()
	if live {
		// cuMemFree waits for work still using the memory. The allocation
		// stays counted until it returns, so that once LiveAllocations has
		// dropped, MemInfo no longer counts the memory as in use.
		_ = d.ctx.MemFree(a.ptr)
		untrack(d, &d.allocs, a.ptr)
		collected.Add(1)
	}
}

// allocate allocates bytes of device memory for a Slice. When the device is
// out of memory it runs the garbage collector, waits for the cleanups of
// collected Slices to free theirs, and tries once more; the error then says
// how much was asked for and how much is free. The caller has entered d.
func (d *Device) allocate(bytes int) (cuda.DevicePtr, error) {
	p, err := d.ctx.MemAlloc(bytes)
	if !isOutOfMemory(err) {
		return p, d.noteFault(err)
	}
	if err := d.releaseMemory(); err != nil {
		return 0, err
	}
	p, err = d.ctx.MemAlloc(bytes)
	if err != nil {
		if free, total, ierr := d.ctx.MemGetInfo(); ierr == nil {
			return 0, fmt.Errorf("out of device memory: asked for %s, %s free of %s after collecting dropped slices and returning freed scratch: %w",
				byteSize(int64(bytes)), byteSize(int64(free)), byteSize(int64(total)), err)
		}
	}
	return p, err
}

// isOutOfMemory reports whether err is the driver's out-of-memory error.
func isOutOfMemory(err error) bool {
	if err == nil { // before ce, which escapes: no allocation on success
		return false
	}
	var ce *cuda.Error
	return errors.As(err, &ce) && ce.Code == cuda.ErrorOutOfMemory
}

// collectDropped runs the garbage collector and waits, at most 250 ms, until
// the cleanups it queued have stopped freeing device memory.
func collectDropped() {
	goruntime.GC()
	deadline := time.Now().Add(250 * time.Millisecond)
	last, still := collected.Load(), 0
	for still < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		if n := collected.Load(); n != last {
			last, still = n, 0
			continue
		}
		still++
	}
}

// MemInfo returns the device's free and total memory in bytes, as the
// driver reports them (cuMemGetInfo): memory in use is total − free, by
// this process and others. When a call since the last report took more
// than 32 MiB of scratch memory, MemInfo first waits for the device's work
// and returns the freed scratch the pool keeps beyond 32 MiB to the driver,
// so that memory in use counts what is allocated, not what is cached. The CPU backend has no device memory and returns an error.
func (d *Device) MemInfo() (free, total int64, err error) {
	if err := d.enter(); err != nil {
		return 0, 0, fmt.Errorf("gocccl: MemInfo: %w", err)
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, 0, errors.New("gocccl: MemInfo: the CPU backend has no device memory")
	}
	if d.poolAbove.Load() {
		if err := d.ctx.Synchronize(); err != nil {
			return 0, 0, fmt.Errorf("gocccl: MemInfo: %w", err)
		}
		if err := d.trimPool(); err != nil {
			return 0, 0, fmt.Errorf("gocccl: MemInfo: %w", err)
		}
	}
	f, t, err := d.ctx.MemGetInfo()
	if err != nil {
		return 0, 0, fmt.Errorf("gocccl: MemInfo: %w", err)
	}
	return int64(f), int64(t), nil
}

// LiveAllocations returns how many allocations the device holds, Slices not
// yet freed (explicitly, by FreeAfter or by a cleanup) and the streams' own
// (StreamAllocations: the scratch of each stream that ran a single-pass
// reduction, and the epoch region of each that ran a scan, a compaction or
// a reduce-by-key, until the stream closes), and how many modules it has loaded: one per instance that ran
// (the part of its package's image that holds its kernels).
func (d *Device) LiveAllocations() (slices, modules int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.allocs), len(d.modules)
}

// StreamAllocations returns how many of LiveAllocations' allocations are
// the streams' own: the scratch and the epoch tile-state region a stream
// keeps, once an algorithm needed them, until it closes (the default
// stream's until Device.Close). LiveAllocations minus StreamAllocations is
// the Slices and Pinned-free device memory a program holds.
func (d *Device) StreamAllocations() int { return int(d.streamOwned.Load()) }

// trackStreamOwned records a stream's scratch or epoch region, for Close
// and StreamAllocations.
func trackStreamOwned(d *Device, p cuda.DevicePtr) {
	track(d, &d.allocs, p)
	d.streamOwned.Add(1)
}

// untrackStreamOwned forgets a record of trackStreamOwned.
func untrackStreamOwned(d *Device, p cuda.DevicePtr) {
	untrack(d, &d.allocs, p)
	d.streamOwned.Add(-1)
}

// byteSize prints a byte count in binary units: "64 MiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// ScratchRetain returns how many bytes of freed scratch memory the device's
// pool keeps between calls (SetScratchRetain); 0 on the CPU backend and on a
// GPU without memory pools.
func (d *Device) ScratchRetain() int64 {
	if d.enter() != nil {
		return 0
	}
	defer d.exit()
	if d.pool == 0 {
		return 0
	}
	return d.retain.Load()
}

// SetScratchRetain sets how many bytes of freed scratch memory the device's
// pool keeps for the next calls instead of returning them to the driver at
// each synchronization. The default is a sixteenth of the device's memory,
// between 32 MiB and 8 GiB: calls that need less scratch than that (a sort
// of n 4-byte keys needs about 4n bytes) reuse it in stream order without
// asking the driver to map memory again. Larger values keep more memory
// from other users of the GPU; 0 returns all of it at each synchronization.
// Memory kept this way is given back when an allocation finds the device
// full, when MemInfo is called, and by Close. On the CPU backend, and on a
// GPU without memory pools, it does nothing.
func (d *Device) SetScratchRetain(bytes int64) error {
	if bytes < 0 {
		return fmt.Errorf("gocccl: SetScratchRetain: negative size %d", bytes)
	}
	if err := d.enter(); err != nil {
		return fmt.Errorf("gocccl: SetScratchRetain: %w", err)
	}
	defer d.exit()
	if d.pool == 0 {
		return nil
	}
	if err := d.ctx.MemPoolSetReleaseThreshold(d.pool, uint64(bytes)); err != nil {
		return fmt.Errorf("gocccl: SetScratchRetain: %w", err)
	}
	d.retain.Store(bytes)
	return nil
}
