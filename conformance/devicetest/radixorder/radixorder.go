// Package radixorder is the sort suites' oracle of key order: the bits by
// which CUB's radix sorts order a key, written independently of the
// runtime, so that the GPU and CPU results can be checked against it.
package radixorder

import (
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// Key is the key types of the radix sorts.
type Key interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr | ~float32 | ~float64
}

// Bits returns k's ordered bits in the window o selects, as CUB orders
// keys: unsigned as they are, signed with the sign bit flipped, floats
// with every bit flipped when negative and the sign bit set otherwise (so
// −0 comes before +0 and NaNs after +Inf), all bits flipped when
// descending, then bits [BeginBit, EndBit) (EndBit 0: the key's width).
func Bits[K Key](k K, o runtime.RadixOptions) uint64 {
	size := int(unsafe.Sizeof(k))
	var b uint64
	switch size {
	case 1:
		b = uint64(*(*uint8)(unsafe.Pointer(&k)))
	case 2:
		b = uint64(*(*uint16)(unsafe.Pointer(&k)))
	case 4:
		b = uint64(*(*uint32)(unsafe.Pointer(&k)))
	default:
		b = *(*uint64)(unsafe.Pointer(&k))
	}
	width := 8 * size
	sign := uint64(1) << (width - 1)
	all := ^uint64(0) >> (64 - width)
	switch any(k).(type) {
	case float32, float64:
		if b&sign != 0 {
			b = ^b & all
		} else {
			b |= sign
		}
	case int8, int16, int32, int64, int:
		b ^= sign
	}
	if o.Descending {
		b = ^b & all
	}
	end := o.EndBit
	if end == 0 {
		end = width
	}
	b >>= o.BeginBit
	if w := end - o.BeginBit; w < 64 {
		b &= 1<<w - 1
	}
	return b
}
