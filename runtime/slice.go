package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/runtime/cuda"
)

// ErrFreed is returned by every use of a Slice after Free.
var ErrFreed = errors.New("gocccl: slice was freed")

// Slice is a typed buffer of n elements in a device's memory (host memory on
// the CPU backend). T must be plain data: numbers, bools, and arrays and
// structs of them; a Slice[T] filled from a host []T holds the same bytes.
//
// A Slice is not safe for concurrent use with its own Free.
type Slice[T any] struct {
	dev   *Device
	n     int
	ptr   cuda.DevicePtr // GPU
	host  []T            // CPU backend
	freed bool
}

// Alloc allocates n elements of T on d. The contents are unspecified.
func Alloc[T any](d *Device, n int) (*Slice[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("gocccl: Alloc: negative length %d", n)
	}
	if err := checkPlain(reflect.TypeFor[T]()); err != nil {
		return nil, fmt.Errorf("gocccl: Alloc: %w", err)
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	s := &Slice[T]{dev: d, n: n}
	if d.ctx == nil {
		s.host = make([]T, n)
		return s, nil
	}
	if n == 0 {
		return s, nil
	}
	bytes := uint64(n) * uint64(elemSize[T]())
	if bytes > 1<<62 {
		return nil, fmt.Errorf("gocccl: Alloc: %d elements of %s is too large", n, reflect.TypeFor[T]())
	}
	p, err := d.ctx.MemAlloc(int(bytes))
	if err != nil {
		return nil, fmt.Errorf("gocccl: Alloc(%d × %s): %w", n, reflect.TypeFor[T](), err)
	}
	s.ptr = p
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
	if s.n == 0 {
		return nil
	}
	if s.host != nil {
		copy(dst, s.host)
		return nil
	}
	if err := s.dev.ctx.MemcpyDtoH(unsafe.Pointer(&dst[0]), s.ptr, s.bytes()); err != nil {
		return fmt.Errorf("gocccl: CopyToHost: %w", err)
	}
	return nil
}

// ToHost returns a new host slice holding a copy of s.
func (s *Slice[T]) ToHost() ([]T, error) {
	dst := make([]T, s.n)
	if err := s.CopyToHost(dst); err != nil {
		return nil, err
	}
	return dst, nil
}

// Free releases the slice's memory. Any later use, Free included, returns
// ErrFreed.
func (s *Slice[T]) Free() error {
	if err := s.usable("Free"); err != nil {
		return err
	}
	s.freed = true
	s.host = nil
	if s.ptr == 0 {
		return nil
	}
	p := s.ptr
	s.ptr = 0
	if err := s.dev.ctx.MemFree(p); err != nil {
		return fmt.Errorf("gocccl: Free: %w", err)
	}
	return nil
}

func (s *Slice[T]) bytes() int { return s.n * elemSize[T]() }

func (s *Slice[T]) usable(op string) error {
	if s == nil {
		return fmt.Errorf("gocccl: %s: nil slice", op)
	}
	if s.freed {
		return fmt.Errorf("gocccl: %s: %w", op, ErrFreed)
	}
	if err := s.dev.check(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
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
		reflect.Float32, reflect.Float64:
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
	return fmt.Errorf("element type %s is not plain data (numbers, bools, and arrays and structs of them)", t)
}
