package difftest

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// TestGPUSemantics documents what the GPU computes where Go panics
// (docs/OPERATORS.md): integer x/0 == 0 and x%0 == x, which keeps
// x == (x/y)*y + x%y; a negative shift count acts as a count ≥ the width
// (x<<s == 0; x>>s == 0, or -1 for negative x). On the CPU backend the
// operator's panic comes back from Run as an error.
func TestGPUSemantics(t *testing.T) {
	dev := openDevice(t)
	xs := []int32{0, 1, -1, 7, -7, 100, math.MinInt32, math.MaxInt32}
	zeros := make([]int32, len(xs))
	div, rem := runtime.BinaryTransform(DivInt32), runtime.BinaryTransform(RemInt32)
	useDivMod := runtime.BinaryTransform(UseDivMod)
	xs64 := []int64{0, 1, -1, 5, -5, math.MinInt64, math.MaxInt64}
	shr := runtime.BinaryTransform(ShrSignedCount)
	negs := []int8{-1, -1, -2, -63, -64, -65, -128}
	xs16 := []int16{0, 1, -1, 3, -3, math.MinInt16, math.MaxInt16}
	shl := runtime.BinaryTransform(ShlSignedCount)
	negCounts := []int{-1, -2, -15, -16, -17, -64, math.MinInt}

	if dev.Backend() != runtime.GPU {
		a, err := runtime.FromHost(dev, xs)
		require.NoError(t, err)
		defer a.Free()
		b, err := runtime.FromHost(dev, zeros)
		require.NoError(t, err)
		defer b.Free()
		out, err := runtime.Alloc[int32](dev, len(xs))
		require.NoError(t, err)
		defer out.Free()
		err = div.Run(nil, a, b, out)
		require.ErrorContains(t, err, "divide by zero")
		err = rem.Run(nil, a, b, out)
		require.ErrorContains(t, err, "divide by zero")
		t.Logf("CPU backend: x/0 and x%%0 return %v", err)
		return
	}

	q := runBinary(t, dev, div, xs, zeros)
	r := runBinary(t, dev, rem, xs, zeros)
	for i, x := range xs {
		require.Zerof(t, q[i], "%d / 0 on the GPU", x)
		require.Equalf(t, x, r[i], "%d %% 0 on the GPU", x)
		require.Equal(t, x, q[i]*0+r[i], "x == (x/y)*y + x%y")
	}
	// Through a call with two results: q ^ (r % 3), r == x.
	got := runBinary(t, dev, useDivMod, xs, zeros)
	for i, x := range xs {
		require.Equalf(t, x%3, got[i], "UseDivMod(%d, 0) on the GPU", x)
	}
	for _, c := range []struct {
		name string
		f    func(a, b uint8) uint8
	}{{"DivUint8", DivUint8}} {
		us := []uint8{0, 1, 7, 255}
		got := runBinary(t, dev, runtime.BinaryTransform(c.f), us, make([]uint8, len(us)))
		for i, x := range us {
			require.Equalf(t, x, got[i], "%s(%d, 0) = %d/0 + %d%%0 on the GPU", c.name, x, x, x)
		}
	}

	sl := runBinary(t, dev, shl, xs16, negCounts)
	for i, x := range xs16 {
		require.Zerof(t, sl[i], "%d << %d on the GPU", x, negCounts[i])
	}
	sr := runBinary(t, dev, shr, xs64, negs)
	for i, x := range xs64 {
		want := int64(0)
		if x < 0 {
			want = -1
		}
		require.Equalf(t, want, sr[i], "%d >> %d on the GPU", x, negs[i])
	}
}

// TestCompare checks the comparison rules of the harness.
func TestCompare(t *testing.T) {
	nan2 := math.Float64frombits(0x7FF8000000000123)
	for _, c := range []struct {
		want, got any
		bound     uint64
		ok        bool
		d         uint64
	}{
		{1.0, 1.0, 0, true, 0},
		// NaNs compare bit for bit: payload, sign and quiet bit.
		{math.NaN(), nan2, 0, false, classMismatch},
		{nan2, nan2, 0, true, 0},
		{float32(math.NaN()), float32(-math.NaN()), 0, false, classMismatch},
		{math.Float32frombits(0x7F800001), math.Float32frombits(0x7FC00001), 0, false, classMismatch}, // signalling vs quieted
		{math.Float32frombits(0x7F800001), math.Float32frombits(0x7F800001), 0, true, 0},
		{0.0, math.Copysign(0, -1), 0, false, 0},
		{0.0, math.Copysign(0, -1), 1, true, 0},
		{1.0, math.Nextafter(1, 2), 0, false, 1},
		{1.0, math.Nextafter(1, 2), 1, true, 1},
		{math.Float64frombits(1), -math.Float64frombits(1), 2, true, 2},
		{float32(1), math.Nextafter32(1, 0), 1, true, 1},
		{math.Inf(1), math.MaxFloat64, 5, false, classMismatch},
		{math.NaN(), 1.0, 5, false, classMismatch},
		{Vec3{1, 2, float32(math.NaN())}, Vec3{1, 2, float32(math.NaN())}, 0, true, 0},
		{Vec3{1, 2, 3}, Vec3{1, 2, 4}, 0, false, 1 << 22},
		{Padded{A: 1, B: 2, C: 3}, Padded{A: 1, B: 2, C: 4}, 0, false, 0},
		{[2]bool{true, false}, [2]bool{true, false}, 0, true, 0},
		{int8(-1), int8(-1), 0, true, 0},
		{uint64(1), uint64(2), 0, false, 0},
	} {
		ok, d := equalValues(c.want, c.got, c.bound)
		require.Equalf(t, c.ok, ok, "%s vs %s within %d", format(c.want), format(c.got), c.bound)
		require.Equalf(t, c.d, d, "%s vs %s: distance", format(c.want), format(c.got))
	}
	require.Equal(t, "{A: -1 (0xff), B: -0 (0x8000000000000000), C: 2 (0x0002)}", format(Padded{A: -1, B: math.Copysign(0, -1), C: 2}))
	require.Equal(t, "[NaN (0x7f800001), 1 (0x3f800000)]", format([2]float32{math.Float32frombits(0x7F800001), 1}))
}
