package runtime

import (
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"unsafe"

	"github.com/gocccl/gocccl/internal/cuda"
)

// ErrFreed is returned by every use of a Slice after Free.
var ErrFreed = errors.New("slice was freed")

// Slice is a typed buffer of n elements in a device's memory (host memory on
// the CPU backend). T must be plain data: numbers (complex64 and complex128
// too), bools, and arrays and structs of them; a Slice[T] filled from a host
// []T holds the same bytes.
//
// A Slice is not safe for concurrent use with its own Free.
type Slice[T any] struct {
	dev   *Device
	n     int
	ptr   cuda.DevicePtr // GPU
	host  []T            // CPU backend
	freed bool

	// root is the allocation a view made by Range shares; nil for an
	// allocation. A view is usable while its root is.
	root *Slice[T]
	// err is a bad Range's error, returned by every use of the view.
	err error
	// cleanup frees the device memory of an allocation that becomes
	// unreachable without Free.
	cleanup goruntime.Cleanup
	// foreign marks memory gocccl does not own (Wrap, WrapHost): never
	// freed by gocccl; Free and FreeAfter refuse it.
	foreign bool
}

// Range returns a view of the elements lo through hi-1 of s that shares
// its memory, as s[lo:hi] would: any algorithm may read or write part of a
// Slice through it without a copy. A view is valid until its allocation is
// freed; it cannot be freed itself. A range outside [0, Len] or with lo > hi
// gives a view whose every use returns an error naming the range, so that
// calls can be chained without checks in between.
func (s *Slice[T]) Range(lo, hi int) *Slice[T] {
	if err := s.unusable(); err != nil {
		return &Slice[T]{dev: deviceOf(s), err: err, root: s}
	}
	root := s
	if s.root != nil {
		root = s.root
	}
	if lo < 0 || hi < lo || hi > s.n {
		return &Slice[T]{dev: s.dev, root: root, err: fmt.Errorf("Range(%d, %d) of a slice of %d elements is out of bounds", lo, hi, s.n)}
	}
	v := &Slice[T]{dev: s.dev, n: hi - lo, root: root, foreign: s.foreign}
	if s.host != nil {
		v.host = s.host[lo:hi:hi]
	} else if s.ptr != 0 {
		v.ptr = s.ptr + cuda.DevicePtr(lo*elemSize[T]())
	}
	return v
}

// deviceOf returns s's device, or nil for a nil Slice.
func deviceOf[T any](s *Slice[T]) *Device {
	if s == nil {
		return nil
	}
	return s.dev
}

// maxAllocBytes bounds one Slice: far beyond any device, and small enough
// that no size computation on it can overflow.
const maxAllocBytes = 1 << 50

// Alloc allocates n elements of T on d. The contents are unspecified.
func Alloc[T any](d *Device, n int) (*Slice[T], error) {
	t := reflect.TypeFor[T]()
	if n < 0 {
		return nil, fmt.Errorf("gocccl: Alloc: negative length %d", n)
	}
	if err := checkPlain(t); err != nil {
		return nil, fmt.Errorf("gocccl: Alloc: %w", err)
	}
	size := elemSize[T]()
	if size == 0 {
		return nil, fmt.Errorf("gocccl: Alloc: element type %s has size 0", t)
	}
	if n > maxAllocBytes/size {
		return nil, fmt.Errorf("gocccl: Alloc: %d elements of %s (%d bytes each) exceed the %d-byte limit of one slice", n, t, size, maxAllocBytes)
	}
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: Alloc: %w", err)
	}
	defer d.exit()
	s := &Slice[T]{dev: d, n: n}
	if d.ctx == nil {
		s.host = make([]T, n)
		return s, nil
	}
	if n == 0 {
		return s, nil
	}
	p, err := d.allocate(n * size)
	if err != nil {
		return nil, fmt.Errorf("gocccl: Alloc(%d × %s): %w", n, t, err)
	}
	s.ptr = p
	track(d, &d.allocs, p)
	s.cleanup = goruntime.AddCleanup(s, deviceAlloc.release, deviceAlloc{dev: d, ptr: p})
	return s, nil
}

// FromHost allocates a Slice on d holding a copy of src.
func FromHost[T any](d *Device, src []T) (*Slice[T], error) {
	s, err := Alloc[T](d, len(src))
	if err != nil {
		return nil, err
	}
	if err := s.CopyFromHost(src); err != nil {
		s.Free()
		return nil, err
	}
	return s, nil
}

// Len returns the number of elements.
func (s *Slice[T]) Len() int { return s.n }

// Device returns the device that holds the slice.
func (s *Slice[T]) Device() *Device { return s.dev }

// CopyFromHost copies src, which must have exactly Len elements, into the
// slice. It waits for the copy, which is ordered after earlier work on the
// default stream and on every stream made by NewStream.
func (s *Slice[T]) CopyFromHost(src []T) error {
	if err := s.usable("CopyFromHost"); err != nil {
		return err
	}
	if len(src) != s.n {
		return fmt.Errorf("gocccl: CopyFromHost: source has %d elements, slice has %d", len(src), s.n)
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: CopyFromHost: %w", s.dev.noteFault(err))
	}
	defer s.dev.exit()
	if s.n == 0 {
		return nil
	}
	if s.host != nil {
		copy(s.host, src)
		return nil
	}
	if err := s.dev.ctx.MemcpyHtoD(s.ptr, unsafe.Pointer(&src[0]), s.bytes()); err != nil {
		return fmt.Errorf("gocccl: CopyFromHost: %w", err)
	}
	return nil
}

// CopyToHost copies the slice into dst, which must have exactly Len elements.
// It waits for earlier work on the default stream and on every stream made by
// NewStream, then for the copy.
func (s *Slice[T]) CopyToHost(dst []T) error {
	if err := s.usable("CopyToHost"); err != nil {
		return err
	}
	if len(dst) != s.n {
		return fmt.Errorf("gocccl: CopyToHost: destination has %d elements, slice has %d", len(dst), s.n)
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: CopyToHost: %w", err)
	}
	defer s.dev.exit()
	if s.n == 0 {
		return nil
	}
	if s.host != nil {
		copy(dst, s.host)
		return nil
	}
	if err := s.dev.ctx.MemcpyDtoH(unsafe.Pointer(&dst[0]), s.ptr, s.bytes()); err != nil {
		return fmt.Errorf("gocccl: CopyToHost: %w", s.dev.noteFault(err))
	}
	return nil
}

// ToHost returns a new host slice holding a copy of s.
func (s *Slice[T]) ToHost() ([]T, error) {
	if err := s.usable("ToHost"); err != nil {
		return nil, err
	}
	dst := make([]T, s.n)
	if err := s.CopyToHost(dst); err != nil {
		return nil, err
	}
	return dst, nil
}

// Free releases the slice's memory. Any later use, Free included, returns
// ErrFreed, also through views of it. Device.Close frees the slices still
// allocated. A view made by Range cannot be freed: free its allocation.
func (s *Slice[T]) Free() error {
	if err := s.usable("Free"); err != nil {
		return err
	}
	if s.foreign && s.root == nil {
		return fmt.Errorf("gocccl: Free: %w", errForeign)
	}
	if s.root != nil {
		return fmt.Errorf("gocccl: Free: the slice is a view made by Range; free the slice it was made from")
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: Free: %w", err)
	}
	defer s.dev.exit()
	s.freed = true
	s.host = nil
	if s.ptr == 0 {
		return nil
	}
	p := s.ptr
	s.ptr = 0
	s.cleanup.Stop()
	untrack(s.dev, &s.dev.allocs, p)
	if err := s.dev.ctx.MemFree(p); err != nil {
		return fmt.Errorf("gocccl: Free: %w", s.dev.noteFault(err))
	}
	return nil
}

// FreeAfter releases the slice's memory once the work enqueued on st so far
// has completed, without waiting for it: a buffer can be dropped right after
// the asynchronous call that used it. The slice is unusable from the moment
// FreeAfter returns, as after Free; its memory stays counted by
// LiveAllocations and MemInfo until it is freed, and Device.Close waits for
// it. A nil st means the device's default stream. On the CPU backend, whose
// calls complete before returning, FreeAfter is Free.
func (s *Slice[T]) FreeAfter(st *Stream) error {
	if err := s.usable("FreeAfter"); err != nil {
		return err
	}
	if s.foreign && s.root == nil {
		return fmt.Errorf("gocccl: FreeAfter: %w", errForeign)
	}
	if s.root != nil {
		return fmt.Errorf("gocccl: FreeAfter: the slice is a view made by Range; free the slice it was made from")
	}
	st, err := streamFor("FreeAfter", st, s.dev)
	if err != nil {
		return err
	}
	if s.ptr == 0 || s.dev.ctx == nil {
		return s.Free()
	}
	d := s.dev
	if err := d.enter(); err != nil {
		return fmt.Errorf("gocccl: FreeAfter: %w", err)
	}
	ev, err := d.ctx.EventCreateFlags(cuda.EventBlockingSync | cuda.EventDisableTiming)
	if err == nil {
		if err = d.ctx.EventRecord(ev, st.handle); err != nil {
			_ = d.ctx.EventDestroy(ev)
		}
	}
	if err != nil {
		d.exit()
		return fmt.Errorf("gocccl: FreeAfter: %w", d.noteFault(err))
	}
	s.freed = true
	s.host = nil
	p := s.ptr
	s.ptr = 0
	s.cleanup.Stop()
	d.queueFree(pendingFree{event: ev, ptr: p})
	return nil
}

func (s *Slice[T]) bytes() int { return s.n * elemSize[T]() }

// unusable returns why s cannot be used, without the "gocccl: " prefix
// that usableAs adds, or nil when it can. A view made from an unusable
// slice keeps this error, so that its uses name the first problem once.
func (s *Slice[T]) unusable() error {
	switch {
	case s == nil:
		return errors.New("nil slice")
	case s.dev == nil:
		return errors.New("uninitialized Slice: use runtime.Alloc or runtime.FromHost")
	case s.err != nil:
		return s.err
	case s.freed || s.root != nil && s.root.freed:
		return ErrFreed
	}
	return nil
}

func elemSize[T any]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// checkPlain reports an error unless t is plain data that can be copied to a
// device byte for byte: no pointers, slices, maps, strings or interfaces.
func checkPlain(t reflect.Type) error {
	switch t.Kind() {
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return nil
	case reflect.Array:
		return checkPlain(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if err := checkPlain(t.Field(i).Type); err != nil {
				return fmt.Errorf("field %s of %s: %w", t.Field(i).Name, t, err)
			}
		}
		return nil
	}
	return fmt.Errorf("element type %s is not plain data (numbers, complex numbers, bools, and arrays and structs of them)", t)
}
