package cuda

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// argsLimit is the most bytes of parameters a kernel may take.
const argsLimit = 4096

// Args is a packed kernel-parameter buffer, laid out as C lays out a struct
// of the same fields: each parameter at the next offset that is a multiple of
// its alignment, with no padding after the last one (which cuLaunchKernel
// requires). The zero value is an empty buffer ready to use.
//
// Adding parameters never allocates or panics. A parameter that would pass the
// 4 KiB kernel-parameter limit, or a bad size or alignment, is recorded: later
// additions are ignored, [Args.Err] reports it, and [Context.LaunchKernel]
// refuses to launch.
type Args struct {
	buf [argsLimit]byte
	n   int   // bytes used
	err error // first failure
}

// Reset empties a, so that it can be reused for another launch.
func (a *Args) Reset() {
	a.n = 0
	a.err = nil
}

// Len returns the size of the parameters added so far, in bytes: the offset
// just past the last one.
func (a *Args) Len() int {
	return a.n
}

// Err returns the first failure recorded while adding parameters, or nil.
func (a *Args) Err() error {
	return a.err
}

// Ptr adds a device pointer (8 bytes, aligned to 8).
func (a *Args) Ptr(p DevicePtr) {
	a.Uint64(uint64(p))
}

// Int32 adds an int32 (4 bytes, aligned to 4).
func (a *Args) Int32(v int32) {
	a.Uint32(uint32(v))
}

// Int64 adds an int64, a C long long (8 bytes, aligned to 8).
func (a *Args) Int64(v int64) {
	a.Uint64(uint64(v))
}

// Uint32 adds a uint32 (4 bytes, aligned to 4).
func (a *Args) Uint32(v uint32) {
	if b := a.next(4, 4); b != nil {
		binary.LittleEndian.PutUint32(b, v)
	}
}

// Uint64 adds a uint64 (8 bytes, aligned to 8).
func (a *Args) Uint64(v uint64) {
	if b := a.next(8, 8); b != nil {
		binary.LittleEndian.PutUint64(b, v)
	}
}

// Float32 adds a float32, a C float (4 bytes, aligned to 4).
func (a *Args) Float32(v float32) {
	a.Uint32(math.Float32bits(v))
}

// Float64 adds a float64, a C double (8 bytes, aligned to 8).
func (a *Args) Float64(v float64) {
	a.Uint64(math.Float64bits(v))
}

// Value adds size bytes copied from p, at an offset that is a multiple of
// align, which must be a power of two. It passes any plain value, such as a
// Go struct without pointers whose layout matches the kernel's C type:
//
//	a.Value(unsafe.Pointer(&v), int(unsafe.Sizeof(v)), int(unsafe.Alignof(v)))
func (a *Args) Value(p unsafe.Pointer, size, align int) {
	if size < 0 || align <= 0 || align > argsLimit || align&(align-1) != 0 {
		a.fail(fmt.Errorf("cuda: kernel argument at offset %d: bad size %d or alignment %d", a.n, size, align))
		return
	}
	if b := a.next(size, align); b != nil && size > 0 {
		copy(b, unsafe.Slice((*byte)(p), size))
	}
}

// next reserves size bytes at the next multiple of align, zeroing the
// padding before them, and returns them; it returns nil if a has failed or
// the bytes would pass the limit.
func (a *Args) next(size, align int) []byte {
	if a.err != nil {
		return nil
	}
	off := (a.n + align - 1) &^ (align - 1)
	if size > argsLimit-off {
		a.fail(fmt.Errorf("cuda: kernel arguments: %d bytes at offset %d pass the %d-byte limit", size, off, argsLimit))
		return nil
	}
	clear(a.buf[a.n:off])
	a.n = off + size
	return a.buf[off:a.n:a.n]
}

// fail records err, the first failure.
func (a *Args) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// Truncate drops the parameters added after the first n bytes, as returned
// by [Args.Len] before they were added, so that a buffer can be reused with
// a different tail.
func (a *Args) Truncate(n int) {
	if n >= 0 && n <= a.n {
		a.n = n
	}
}
