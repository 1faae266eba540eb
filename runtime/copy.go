package runtime

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Asynchronous copies and fills, in stream order: a copy enqueued on a
// stream runs after the work enqueued on it before, and work enqueued after
// it sees its result. A nil stream means the device's default stream. On the
// CPU backend each completes before it returns.
//
// With Pinned host memory the copies return at once; with an ordinary Go
// slice (pageable memory) CopyFromHostAsync returns once the source has been
// staged by the driver and may be reused, and CopyToHostAsync once the copy
// is done. None of them keeps anything once its work has completed, and none
// allocates Go memory.

// CopyFromPinned enqueues a copy of src, which must have exactly Len
// elements, into s on st. It returns at once: src must not change until st
// has passed the copy.
func (s *Slice[T]) CopyFromPinned(st *Stream, src *Pinned[T]) error {
	const op = "CopyFromPinned"
	st, err := s.hostCopyArgs(op, st, src)
	if err != nil || s.n == 0 {
		return err
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.host != nil {
		copy(s.host, src.data)
		return nil
	}
	return s.copyErr(op, s.dev.ctx.MemcpyHtoDAsync(s.ptr, unsafe.Pointer(unsafe.SliceData(src.data)), s.bytes(), st.handle))
}

// CopyToPinned enqueues a copy of s into dst, which must have exactly Len
// elements, on st. It returns at once: read dst once st has passed the copy
// (Stream.Synchronize, Event.Synchronize).
func (s *Slice[T]) CopyToPinned(st *Stream, dst *Pinned[T]) error {
	const op = "CopyToPinned"
	st, err := s.hostCopyArgs(op, st, dst)
	if err != nil || s.n == 0 {
		return err
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.host != nil {
		copy(dst.data, s.host)
		return nil
	}
	return s.copyErr(op, s.dev.ctx.MemcpyDtoHAsync(unsafe.Pointer(unsafe.SliceData(dst.data)), s.ptr, s.bytes(), st.handle))
}

// CopyFromHostAsync enqueues a copy of src, which must have exactly Len
// elements, into s on st. src is ordinary (pageable) memory: the call
// returns once the driver has staged it, so src may be reused at once, but
// the copy overlaps no other host work. Use CopyFromPinned for that.
func (s *Slice[T]) CopyFromHostAsync(st *Stream, src []T) error {
	const op = "CopyFromHostAsync"
	st, err := s.copyArgs(op, st, len(src), "source")
	if err != nil || s.n == 0 {
		return err
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.host != nil {
		copy(s.host, src)
		return nil
	}
	return s.copyErr(op, s.dev.ctx.MemcpyHtoDAsync(s.ptr, unsafe.Pointer(unsafe.SliceData(src)), s.bytes(), st.handle))
}

// CopyToHostAsync copies s into dst, which must have exactly Len elements,
// in st's order. dst is ordinary (pageable) memory, so the call returns
// once the copy is done, as the driver does for pageable memory: it is
// synchronous. Use CopyToPinned for a copy that returns at once.
func (s *Slice[T]) CopyToHostAsync(st *Stream, dst []T) error {
	const op = "CopyToHostAsync"
	st, err := s.copyArgs(op, st, len(dst), "destination")
	if err != nil || s.n == 0 {
		return err
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.host != nil {
		copy(dst, s.host)
		return nil
	}
	return s.copyErr(op, s.dev.ctx.MemcpyDtoHAsync(unsafe.Pointer(unsafe.SliceData(dst)), s.ptr, s.bytes(), st.handle))
}

// CopyFrom enqueues a copy of src, a Slice (or a Range of one) of exactly
// Len elements on the same device, into s on st. src and s may be the same
// elements (nothing to do) but must not otherwise overlap.
func (s *Slice[T]) CopyFrom(st *Stream, src *Slice[T]) error {
	const op = "CopyFrom"
	if err := src.usableAs(op, "source"); err != nil {
		return err
	}
	if err := s.usableAs(op, "destination"); err != nil {
		return err
	}
	if src.n != s.n {
		return fmt.Errorf("gocccl: %s: source has %d elements, destination %d", op, src.n, s.n)
	}
	st, err := streamFor(op, st, s.dev, src.dev)
	if err != nil {
		return err
	}
	if overlapsPartially(s, src) {
		return fmt.Errorf("gocccl: %s: source and destination overlap without being the same elements", op)
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.n == 0 || overlaps(s, src) { // nothing, or the same elements
		return nil
	}
	if s.host != nil {
		copy(s.host, src.host)
		return nil
	}
	return s.copyErr(op, s.dev.ctx.MemcpyDtoDAsync(s.ptr, src.ptr, s.bytes(), st.handle))
}

// Fill enqueues, on st, the setting of every element of s to v: a memset
// when v's bytes repeat every 1, 2 or 4 bytes (any value of a 1-, 2- or
// 4-byte type, zero of any type), else one copy of v and copies doubling
// the filled part (log2 Len of them).
func (s *Slice[T]) Fill(st *Stream, v T) error {
	const op = "Fill"
	if err := s.usable(op); err != nil {
		return err
	}
	st, err := streamFor(op, st, s.dev)
	if err != nil {
		return err
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	defer s.dev.exit()
	if s.n == 0 {
		return nil
	}
	if s.host != nil {
		for i := range s.host {
			s.host[i] = v
		}
		return nil
	}
	ctx, size := s.dev.ctx, elemSize[T]()
	b := unsafe.Slice((*byte)(unsafe.Pointer(&v)), size)
	if width, word, ok := memsetWord(b); ok {
		return s.copyErr(op, ctx.MemsetAsync(s.ptr, word, width, s.bytes()/width, st.handle))
	}
	if err := ctx.MemcpyHtoDAsync(s.ptr, unsafe.Pointer(&v), size, st.handle); err != nil {
		return s.copyErr(op, err)
	}
	for done := 1; done < s.n; done *= 2 {
		k := min(done, s.n-done)
		off := s.ptr + cuda.DevicePtr(done*size)
		if err := ctx.MemcpyDtoDAsync(off, s.ptr, k*size, st.handle); err != nil {
			return s.copyErr(op, err)
		}
	}
	return nil
}

// memsetWord reports whether b (one element's bytes) repeats with a period
// of 1, 2 or 4 bytes that divides its length, and the memset width and
// value (little-endian) that write it.
func memsetWord(b []byte) (width int, word uint32, ok bool) {
	for _, w := range [...]int{1, 2, 4} {
		if len(b)%w != 0 {
			continue
		}
		periodic := true
		for i := w; i < len(b) && periodic; i++ {
			periodic = b[i] == b[i-w]
		}
		if periodic {
			for i := w - 1; i >= 0; i-- {
				word = word<<8 | uint32(b[i])
			}
			return w, word, true
		}
	}
	return 0, 0, false
}

// hostCopyArgs checks a copy between s and a pinned buffer and resolves
// its stream.
func (s *Slice[T]) hostCopyArgs(op string, st *Stream, p *Pinned[T]) (*Stream, error) {
	if err := s.usable(op); err != nil {
		return nil, err
	}
	if err := p.unusable(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: pinned buffer: %w", op, err)
	}
	if (p.dev.ctx == nil) != (s.dev.ctx == nil) {
		return nil, fmt.Errorf("gocccl: %s: the pinned buffer is of a %s device, the slice of a %s one", op, p.dev.Backend(), s.dev.Backend())
	}
	return s.copyArgs(op, st, len(p.data), "pinned buffer")
}

// copyArgs checks s and the host side's length and resolves st.
func (s *Slice[T]) copyArgs(op string, st *Stream, n int, role string) (*Stream, error) {
	if err := s.usable(op); err != nil {
		return nil, err
	}
	if n != s.n {
		return nil, fmt.Errorf("gocccl: %s: %s has %d elements, slice has %d", op, role, n, s.n)
	}
	return streamFor(op, st, s.dev)
}

// copyErr wraps a driver error of a copy, noting a fault it reveals.
func (s *Slice[T]) copyErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("gocccl: %s: %w", op, s.dev.noteFault(err))
}
