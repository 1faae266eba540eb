package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Interop: memory, streams and contexts shared with other GPU libraries
// (cuBLAS, cuDNN, a Go ML runtime, anything speaking DLPack). Who owns
// what, and for how long, is in docs/INTEROP.md.

// errForeign is returned by Free and FreeAfter of a Slice that wraps memory
// gocccl does not own.
var errForeign = errors.New("the slice wraps memory gocccl does not own (Wrap, WrapHost): its owner frees it")

// Wrap returns a Slice of n elements of T over device memory at addr that
// another library allocated on d. gocccl never frees it (Free returns an
// error; Device.Close leaves it): the owner keeps it allocated while the
// Slice, its views and the work using them live. Wrap checks what the
// driver knows: the address is device memory of d, aligned for T, and the n
// elements lie inside one allocation.
func Wrap[T any](d *Device, addr uintptr, n int) (*Slice[T], error) {
	const op = "Wrap"
	if err := checkPinnedLen[T](op, n); err != nil {
		return nil, err
	}
	t := reflect.TypeFor[T]()
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer d.exit()
	if d.ctx == nil {
		return nil, fmt.Errorf("gocccl: %s: %s has no device memory: wrap host memory with WrapHost", op, d.shortName())
	}
	if align := reflect.TypeFor[T]().Align(); addr%uintptr(align) != 0 {
		return nil, fmt.Errorf("gocccl: %s: address %#x is not aligned for %s (%d bytes)", op, addr, t, align)
	}
	s := &Slice[T]{dev: d, n: n, foreign: true}
	if n == 0 {
		return s, nil
	}
	info, err := d.ctx.PointerGetInfo(cuda.DevicePtr(addr))
	if err != nil {
		return nil, fmt.Errorf("gocccl: %s: address %#x is not memory CUDA allocated: %w", op, addr, err)
	}
	if info.Type != cuda.MemoryDevice {
		return nil, fmt.Errorf("gocccl: %s: address %#x is host memory, not device memory", op, addr)
	}
	if info.Ordinal != d.info.Ordinal {
		return nil, fmt.Errorf("gocccl: %s: address %#x is memory of GPU %d, not of %s", op, addr, info.Ordinal, d.shortName())
	}
	bytes := uint64(n) * uint64(elemSize[T]())
	if end := uint64(info.RangeStart) + info.RangeSize; uint64(addr)+bytes > end {
		return nil, fmt.Errorf("gocccl: %s: %d elements of %s (%d bytes) from %#x run past the end of their allocation (%d bytes from %#x)",
			op, n, t, bytes, addr, info.RangeSize, uint64(info.RangeStart))
	}
	s.ptr = cuda.DevicePtr(addr)
	return s, nil
}

// WrapHost returns a Slice of the CPU backend d over buf, sharing its
// memory: what algorithms write to the Slice appears in buf. gocccl never
// frees it. A GPU cannot use host memory as a Slice: copy it (FromHost) or
// pin it (RegisterPinned) and copy asynchronously.
func WrapHost[T any](d *Device, buf []T) (*Slice[T], error) {
	const op = "WrapHost"
	if err := checkPinnedLen[T](op, len(buf)); err != nil {
		return nil, err
	}
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer d.exit()
	if d.ctx != nil {
		return nil, fmt.Errorf("gocccl: %s: %s cannot use host memory as a Slice: copy it with FromHost, or pin it with RegisterPinned and copy asynchronously", op, d.shortName())
	}
	return &Slice[T]{dev: d, n: len(buf), host: buf[:len(buf):len(buf)], foreign: true}, nil
}

// Address returns the address of s's first element for another library:
// a device address on a GPU, a host address on the CPU backend, 0 for an
// empty Slice. It stays valid while s's allocation is not freed; work
// another library enqueues on it must be ordered with gocccl's (the same
// stream, or Events).
func (s *Slice[T]) Address() (uintptr, error) {
	if err := s.usable("Address"); err != nil {
		return 0, err
	}
	if s.n == 0 {
		return 0, nil
	}
	if s.host != nil {
		return uintptr(unsafe.Pointer(unsafe.SliceData(s.host))), nil
	}
	return uintptr(s.ptr), nil
}

// Foreign reports whether s wraps memory gocccl does not own (Wrap,
// WrapHost), which gocccl never frees.
func (s *Slice[T]) Foreign() bool { return s != nil && s.foreign }

// Handle returns the stream's CUstream for another library (0 is CUDA's
// legacy default stream, which DefaultStream is; 0 on the CPU backend).
func (s *Stream) Handle() uintptr { return uintptr(s.handle) }

// WrapStream returns a Stream of d over a CUstream another library created
// on d's context, so that gocccl's work queues in order with that library's.
// gocccl never destroys it: Close does nothing, and the owner destroys it
// after the Stream's last use. Handle 0 is the legacy default stream.
func (d *Device) WrapStream(handle uintptr) (*Stream, error) {
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: WrapStream: %w", err)
	}
	defer d.exit()
	if d.ctx == nil && handle != 0 {
		return nil, fmt.Errorf("gocccl: WrapStream: %s has no CUDA streams", d.shortName())
	}
	if handle == 0 {
		return d.DefaultStream(), nil
	}
	return &Stream{dev: d, handle: cuda.Stream(handle)}, nil
}

// ContextHandle returns the CUcontext gocccl runs d's work in (the
// device's primary context, or the one OpenGPUContext was given), for
// another library; 0 on the CPU backend.
func (d *Device) ContextHandle() uintptr {
	if d == nil || d.ctx == nil {
		return 0
	}
	return d.ctx.Handle()
}
