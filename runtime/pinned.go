package runtime

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"unsafe"
)

// Pinned is a typed buffer of host memory that the GPU reads and writes
// directly (page-locked): copies between it and a Slice run asynchronously
// on a stream at the link's full speed, while the host goes on. Its
// elements are an ordinary Go slice (Host). On the CPU backend it is plain
// host memory and its copies complete before returning.
//
// Make one with AllocPinned (memory the driver allocates) or RegisterPinned
// (page-locks a Go slice the caller already has). Free it when done; one
// that becomes unreachable is freed by a cleanup, and Device.Close frees
// those still live. A Pinned is not safe for concurrent use with its own
// Free.
type Pinned[T any] struct {
	dev  *Device
	data []T
	mem  *pinnedMem // shared by the views of one allocation; nil on the CPU backend
	root *Pinned[T] // the allocation a view made by Range shares; nil for an allocation
	err  error      // a bad Range's error

	freed   bool
	cleanup goruntime.Cleanup
}

// pinnedMem is one page-locked range: what Free, the cleanup and
// Device.Close need, never the Pinned itself, which would keep it reachable.
type pinnedMem struct {
	dev        *Device
	ptr        unsafe.Pointer
	registered bool // RegisterPinned's: unregistered, not freed; the Go memory is the caller's
	keep       any  // RegisterPinned's Go slice, kept reachable while registered
}

// AllocPinned allocates n elements of page-locked host memory on d
// (cuMemHostAlloc, usable from every device). The contents are unspecified.
func AllocPinned[T any](d *Device, n int) (*Pinned[T], error) {
	if err := checkPinnedLen[T]("AllocPinned", n); err != nil {
		return nil, err
	}
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: AllocPinned: %w", err)
	}
	defer d.exit()
	p := &Pinned[T]{dev: d}
	if d.ctx == nil || n == 0 {
		p.data = make([]T, n)
		return p, nil
	}
	ptr, err := d.ctx.MemHostAlloc(n * elemSize[T]())
	if err != nil {
		return nil, fmt.Errorf("gocccl: AllocPinned(%d × %s): %w", n, reflect.TypeFor[T](), err)
	}
	p.data = unsafe.Slice((*T)(ptr), n)
	p.attach(&pinnedMem{dev: d, ptr: ptr})
	return p, nil
}

// RegisterPinned page-locks buf's memory on d (cuMemHostRegister) and
// returns a Pinned whose Host is buf: copies to and from it run
// asynchronously. buf stays registered, and reachable, until Free; write to
// it through Host or buf alike, but not while a copy that reads or writes it
// is in flight.
func RegisterPinned[T any](d *Device, buf []T) (*Pinned[T], error) {
	if err := checkPinnedLen[T]("RegisterPinned", len(buf)); err != nil {
		return nil, err
	}
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: RegisterPinned: %w", err)
	}
	defer d.exit()
	p := &Pinned[T]{dev: d, data: buf[:len(buf):len(buf)]}
	if d.ctx == nil || len(buf) == 0 {
		return p, nil
	}
	ptr := unsafe.Pointer(unsafe.SliceData(buf))
	if err := d.ctx.MemHostRegister(ptr, len(buf)*elemSize[T]()); err != nil {
		return nil, fmt.Errorf("gocccl: RegisterPinned(%d × %s): %w", len(buf), reflect.TypeFor[T](), err)
	}
	p.attach(&pinnedMem{dev: d, ptr: ptr, registered: true, keep: buf})
	return p, nil
}

func checkPinnedLen[T any](op string, n int) error {
	t := reflect.TypeFor[T]()
	if n < 0 {
		return fmt.Errorf("gocccl: %s: negative length %d", op, n)
	}
	if err := checkPlain(t); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	size := elemSize[T]()
	if size == 0 {
		return fmt.Errorf("gocccl: %s: element type %s has size 0", op, t)
	}
	if n > maxAllocBytes/size {
		return fmt.Errorf("gocccl: %s: %d elements of %s exceed the %d-byte limit of one buffer", op, n, t, maxAllocBytes)
	}
	return nil
}

// attach records m on its device, for Close, and arranges for a cleanup to
// release it if p becomes unreachable without Free.
func (p *Pinned[T]) attach(m *pinnedMem) {
	p.mem = m
	d := m.dev
	d.mu.Lock()
	if d.pinned == nil {
		d.pinned = make(map[*pinnedMem]struct{})
	}
	d.pinned[m] = struct{}{}
	d.mu.Unlock()
	p.cleanup = goruntime.AddCleanup(p, (*pinnedMem).collect, m)
}

// Host returns the elements as a Go slice over the pinned memory. It is
// valid until Free; do not change it while a copy that reads it is in
// flight, nor read what a copy in flight writes, until its stream has
// passed the copy (Stream.Synchronize, an Event).
func (p *Pinned[T]) Host() []T {
	if p.unusable() != nil {
		return nil
	}
	return p.data
}

// Len returns the number of elements.
func (p *Pinned[T]) Len() int { return len(p.data) }

// Device returns the device p was made for.
func (p *Pinned[T]) Device() *Device { return p.dev }

// Range returns a view of elements lo through hi-1 of p sharing its
// memory, for copying part of it; like Slice.Range, a bad range gives a view
// whose every use returns an error naming it.
func (p *Pinned[T]) Range(lo, hi int) *Pinned[T] {
	if err := p.unusable(); err != nil {
		return &Pinned[T]{err: err, root: p}
	}
	root := p
	if p.root != nil {
		root = p.root
	}
	if lo < 0 || hi < lo || hi > len(p.data) {
		return &Pinned[T]{dev: p.dev, root: root, err: fmt.Errorf("Range(%d, %d) of a pinned buffer of %d elements is out of bounds", lo, hi, len(p.data))}
	}
	return &Pinned[T]{dev: p.dev, data: p.data[lo:hi:hi], mem: p.mem, root: root}
}

// Free waits until no work queued on the device can still be copying to or
// from the memory (the device's streams pass their queued work), then
// releases it: freed if AllocPinned made it, unregistered (and left to the
// garbage collector) if RegisterPinned did. A buffer freed right after an
// asynchronous copy is therefore kept until the copy is done. Later uses
// return ErrFreed, also through views; a view cannot be freed.
func (p *Pinned[T]) Free() error {
	if err := p.unusable(); err != nil {
		return fmt.Errorf("gocccl: Pinned.Free: %w", err)
	}
	if p.root != nil {
		return fmt.Errorf("gocccl: Pinned.Free: the buffer is a view made by Range; free the buffer it was made from")
	}
	p.freed = true
	p.data = nil
	if p.mem == nil {
		return nil
	}
	p.cleanup.Stop()
	m := p.mem
	p.mem = nil
	if err := m.release(true); err != nil {
		return fmt.Errorf("gocccl: Pinned.Free: %w", err)
	}
	return nil
}

// unusable returns why p cannot be used, or nil.
func (p *Pinned[T]) unusable() error {
	switch {
	case p == nil:
		return fmt.Errorf("nil pinned buffer")
	case p.err != nil:
		return p.err
	case p.dev == nil:
		return fmt.Errorf("uninitialized Pinned: use runtime.AllocPinned or runtime.RegisterPinned")
	case p.freed || p.root != nil && p.root.freed:
		return ErrFreed
	}
	return nil
}

// release waits for the device's queued work, then frees or unregisters
// m and forgets it. A closed device has released it already.
func (m *pinnedMem) release(wait bool) error {
	d := m.dev
	if err := d.enter(); err != nil {
		return err
	}
	defer d.exit()
	d.mu.Lock()
	_, live := d.pinned[m]
	delete(d.pinned, m)
	d.mu.Unlock()
	if !live {
		return nil
	}
	return m.releaseLocked(wait)
}

// releaseLocked is release for a caller that has forgotten m (Close).
func (m *pinnedMem) releaseLocked(wait bool) error {
	ctx := m.dev.ctx
	var err error
	if wait {
		// Copies to or from m may be queued on any stream.
		err = m.dev.noteFault(ctx.Synchronize())
	}
	if m.registered {
		err = firstErr(err, ctx.MemHostUnregister(m.ptr))
		m.keep = nil
	} else {
		err = firstErr(err, ctx.MemFreeHost(m.ptr))
	}
	return err
}

// collect is the cleanup of a Pinned dropped without Free.
func (m *pinnedMem) collect() { _ = m.release(true) }

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
