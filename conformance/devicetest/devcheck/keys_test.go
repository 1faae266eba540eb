package devcheck

import (
	"math"
	"slices"
	"testing"
)

// TestOrderedBits: ordered bits ascend as the radix sort orders keys, and
// reverse for the largest.
func TestOrderedBits(t *testing.T) {
	nan, negNaN := math.Float32frombits(0x7fc00000), math.Float32frombits(0xffc00000)
	floats := []float32{negNaN, float32(math.Inf(-1)), -2, float32(math.Copysign(0, -1)), 0, 1.5, float32(math.Inf(1)), nan}
	ints := []int16{math.MinInt16, -1, 0, 1, math.MaxInt16}
	uints := []uint8{0, 1, 200, 255}
	ascending := func(name string, bits []uint64) {
		t.Helper()
		if !slices.IsSorted(bits) || len(slices.Compact(slices.Clone(bits))) != len(bits) {
			t.Errorf("%s: ordered bits %x do not strictly ascend", name, bits)
		}
	}
	for _, largest := range []bool{false, true} {
		var fb, ib, ub []uint64
		for _, x := range floats {
			fb = append(fb, OrderedBits(x, largest))
		}
		for _, x := range ints {
			ib = append(ib, OrderedBits(x, largest))
		}
		for _, x := range uints {
			ub = append(ub, OrderedBits(x, largest))
		}
		if largest {
			slices.Reverse(fb)
			slices.Reverse(ib)
			slices.Reverse(ub)
		}
		ascending("float32", fb)
		ascending("int16", ib)
		ascending("uint8", ub)
	}
	if OrderedBits(uint8(255), true) != 0 || OrderedBits(int64(math.MinInt64), false) != 0 {
		t.Error("the first key's ordered bits are not 0")
	}
}

func TestCmpEntry(t *testing.T) {
	es := []Entry{{Bits: 2, Pos: 1}, {Bits: 1, Pos: 5}, {Bits: 2, Pos: 0}, {Bits: 1, Pos: 4}}
	slices.SortFunc(es, CmpEntry)
	want := []Entry{{Bits: 1, Pos: 4}, {Bits: 1, Pos: 5}, {Bits: 2, Pos: 0}, {Bits: 2, Pos: 1}}
	if !slices.Equal(es, want) {
		t.Errorf("sorted %v, want %v", es, want)
	}
	if CmpEntry(es[0], es[0]) != 0 {
		t.Error("an entry is not equal to itself")
	}
}
