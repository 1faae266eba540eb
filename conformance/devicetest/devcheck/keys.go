package devcheck

import "unsafe"

// Number is every numeric key type the radix sorts and top-k take.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// OrderedBits returns x's ordered bits as the radix sort orders keys:
// unsigned as they are, signed with the sign bit flipped, floats with every
// bit flipped when the sign bit is set and only the sign bit otherwise (so
// −0 before +0, −NaN before −Inf, +Inf before +NaN, NaNs by payload), all
// bits flipped again for the largest. Equal ordered bits are equal keys.
func OrderedBits[K Number](x K, largest bool) uint64 {
	width := 8 * int(unsafe.Sizeof(x))
	var b uint64
	switch width {
	case 8:
		b = uint64(*(*uint8)(unsafe.Pointer(&x)))
	case 16:
		b = uint64(*(*uint16)(unsafe.Pointer(&x)))
	case 32:
		b = uint64(*(*uint32)(unsafe.Pointer(&x)))
	default:
		b = *(*uint64)(unsafe.Pointer(&x))
	}
	all := ^uint64(0) >> (64 - width)
	sign := uint64(1) << (width - 1)
	var zero K
	switch any(zero).(type) {
	case float32, float64:
		if b&sign != 0 {
			b = ^b & all
		} else {
			b ^= sign
		}
	case int8, int16, int32, int64:
		b ^= sign
	}
	if largest {
		b ^= all
	}
	return b
}

// Entry is a key's ordered bits (OrderedBits) and its input position.
type Entry struct {
	Bits uint64
	Pos  int
}

// CmpEntry orders entries by bits, then position (slices.SortFunc's cmp).
func CmpEntry(a, b Entry) int {
	switch {
	case a.Bits != b.Bits:
		if a.Bits < b.Bits {
			return -1
		}
		return 1
	case a.Pos != b.Pos:
		if a.Pos < b.Pos {
			return -1
		}
		return 1
	}
	return 0
}
