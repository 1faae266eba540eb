package runtime

import (
	"fmt"
)

// RadixKey is the key types a radix sort orders: integers and floats of 1,
// 2, 4 or 8 bytes.
type RadixKey interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr |
		~float32 | ~float64
}

// RadixOptions choose the order of a radix sort. The zero value sorts
// ascending by all bits of the key.
//
// Keys are compared by their ordered bits, as cub::DeviceRadixSort compares
// them: unsigned integers as they are, signed integers with the sign bit
// flipped, floats with all bits flipped when the sign bit is set and only the
// sign bit flipped otherwise. So −0 sorts before +0, NaNs with the sign bit
// clear (math.NaN()) after +Inf and those with it set before −Inf.
type RadixOptions struct {
	// Descending sorts from the largest key down. The sort stays stable:
	// equal keys keep their input order.
	Descending bool
	// BeginBit and EndBit are the window [BeginBit, EndBit) of the ordered
	// bits that the sort compares, bit 0 the least significant; keys equal
	// in the window keep their input order. EndBit 0 means the key's width.
	BeginBit, EndBit int
}

// window returns the bit window of o for keys of size bytes.
func (o RadixOptions) window(size int) (begin, end int, err error) {
	begin, end = o.BeginBit, o.EndBit
	if end == 0 {
		end = 8 * size
	}
	if begin < 0 || begin > end || end > 8*size {
		return 0, 0, fmt.Errorf("bit window [%d, %d) is not within the %d bits of the key", o.BeginBit, o.EndBit, 8*size)
	}
	return begin, end, nil
}

// radixBits is the width of a radix sort's digit: one pass per 8 bits of the
// window.
const radixBits = 8

// radixPasses returns the number of digit passes over the window.
func radixPasses(begin, end int) int { return (end - begin + radixBits - 1) / radixBits }

// DoubleBuffer is a pair of equally long buffers that a sort uses in turn:
// Current holds the input, and after the sort it holds the output; the
// other buffer's contents are then unspecified. Sorting in a double buffer
// saves the scratch copy of the data and the copy back, as
// cub::DoubleBuffer does.
type DoubleBuffer[T any] struct {
	Buffers  [2]*Slice[T]
	Selector int // 0 or 1: the index of the current buffer
}

// NewDoubleBuffer returns a double buffer whose current buffer is cur.
func NewDoubleBuffer[T any](cur, alt *Slice[T]) *DoubleBuffer[T] {
	return &DoubleBuffer[T]{Buffers: [2]*Slice[T]{cur, alt}}
}

// Current returns the buffer that holds the data.
func (b *DoubleBuffer[T]) Current() *Slice[T] { return b.Buffers[b.Selector&1] }

// Alternate returns the other buffer.
func (b *DoubleBuffer[T]) Alternate() *Slice[T] { return b.Buffers[(b.Selector&1)^1] }

// check checks a double buffer's slices for an algorithm's messages.
func (b *DoubleBuffer[T]) check(what string) error {
	if b == nil {
		return fmt.Errorf("gocccl: %s: nil DoubleBuffer", what)
	}
	if b.Selector != 0 && b.Selector != 1 {
		return fmt.Errorf("gocccl: %s: DoubleBuffer selector %d is not 0 or 1", what, b.Selector)
	}
	for _, s := range b.Buffers {
		if err := s.usable(what); err != nil {
			return err
		}
	}
	if b.Buffers[0].n != b.Buffers[1].n {
		return fmt.Errorf("gocccl: %s: DoubleBuffer buffers have %d and %d elements", what, b.Buffers[0].n, b.Buffers[1].n)
	}
	if overlaps(b.Buffers[0], b.Buffers[1]) {
		return fmt.Errorf("gocccl: %s: DoubleBuffer buffers overlap", what)
	}
	return nil
}

// radixOut checks a sort's input and output: equally long and either the
// same memory or disjoint. Errors name alg and what (" keys", " values" or
// ""): they are joined only on failure, so a call allocates nothing.
func radixOut[T any](alg, what string, in, out *Slice[T]) error {
	if in.n != out.n {
		return fmt.Errorf("gocccl: %s%s: input has %d elements, output %d", alg, what, in.n, out.n)
	}
	if overlapsPartially(in, out) {
		return fmt.Errorf("gocccl: %s%s: input and output overlap without being the same elements", alg, what)
	}
	return nil
}
