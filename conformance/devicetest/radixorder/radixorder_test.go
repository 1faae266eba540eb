package radixorder

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// TestOrder: ascending keys give ascending bits for every kind of key (with
// −0 before +0 and NaN after +Inf for floats), descending reverses them,
// and a window keeps only its bits.
func TestOrder(t *testing.T) {
	asc, desc := runtime.RadixOptions{}, runtime.RadixOptions{Descending: true}
	increasing := func(bits []uint64) {
		t.Helper()
		for i := 1; i < len(bits); i++ {
			require.Less(t, bits[i-1], bits[i], "at %d: %v", i, bits)
		}
	}
	i8 := []int8{math.MinInt8, -1, 0, 1, math.MaxInt8}
	var b8, b8d []uint64
	for _, k := range i8 {
		b8 = append(b8, Bits(k, asc))
		b8d = append([]uint64{Bits(k, desc)}, b8d...)
	}
	increasing(b8)
	increasing(b8d)
	u64 := []uint64{0, 1, 1 << 63, math.MaxUint64}
	var bu []uint64
	for _, k := range u64 {
		bu = append(bu, Bits(k, asc))
	}
	increasing(bu)
	f := []float32{float32(math.Inf(-1)), -1, float32(math.Copysign(0, -1)), 0, 1, float32(math.Inf(1)), float32(math.NaN())}
	var bf []uint64
	for _, k := range f {
		bf = append(bf, Bits(k, asc))
	}
	increasing(bf)
	require.Equal(t, uint64(0x0b), Bits(uint32(0x5a), runtime.RadixOptions{BeginBit: 3, EndBit: 7}))
	require.Equal(t, uint64(0x8000_0000_0000_0000), Bits(int64(0), asc))
}
