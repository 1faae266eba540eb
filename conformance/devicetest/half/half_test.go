package half

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths of the reductions; 2^26 only on the GPU. The
// transforms stop at transformMax.
var sizes = []int{0, 1, 2, 4095, 4096, 4097, 7919, 65536, 1_000_003, 1 << 26}

const transformMax = 1_000_003

// requireEqual fails unless got[i] == want[i] for every i (structs of bit
// patterns, float32 results compared by their bits), naming the first
// element that differs and its input.
func requireEqual[In, T comparable](t *testing.T, in []In, want, got []T, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("%s: element %d of %d (input %+v): want %+v, got %+v", what, i, len(want), in[i], want[i], got[i])
		}
	}
}

// edges16 and edgesB are bit patterns every transform input meets as the
// right operand: zeros, subnormals, ±1, the largest finite values, ±Inf,
// NaNs (quiet, signalling, negative).
var (
	edges16 = []uint16{0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x3555}
	edgesB  = []uint16{0, 0x8000, 1, 0x8001, 0x7f, 0x80, 0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x3eab}
)

// pairs are n operand pairs: the left operand walks every bit pattern, the
// right one is an edge pattern for the first len(edges) laps and random
// after.
func pairs(r *rand.Rand, n int, edges []uint16) [][2]uint16 {
	ps := make([][2]uint16, n)
	for i := range ps {
		b := uint16(r.Uint32())
		if lap := i >> 16; lap < len(edges) || r.IntN(4) == 0 {
			b = edges[(lap+i)%len(edges)]
		}
		ps[i] = [2]uint16{uint16(i), b}
	}
	return ps
}

// float32s are n float32 inputs: random bit patterns, both formats' rounding
// midpoints and their neighbours, and a few edge values.
func float32s(r *rand.Rand, n int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		switch k := r.IntN(4); k {
		case 0:
			xs[i] = math.Float32frombits(r.Uint32())
		case 1:
			h := half.Float16(r.Uint32())
			m := (h.Float32() + (h + 1).Float32()) / 2
			xs[i] = math.Float32frombits(math.Float32bits(m) + uint32(r.IntN(3)) - 1)
		case 2:
			xs[i] = math.Float32frombits(r.Uint32()&0xffff0000 | 0x8000 + uint32(r.IntN(3)) - 1)
		default:
			xs[i] = []float32{0, float32(math.Copysign(0, -1)), 65504, 65520, 65519.998, 1e-8, 2.98e-8, 5.96e-8,
				float32(math.Inf(1)), float32(math.NaN()), math.MaxFloat32, math.SmallestNonzeroFloat32}[r.IntN(12)]
		}
	}
	return xs
}

func transformOn[In, Out any](t *testing.T, d *runtime.Device, op *runtime.UnaryTransformOp[In, Out], xs []In) []Out {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[Out](len(xs)))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out))
	return devcheck.Download(t, out)
}

func reduceOn[T any](t *testing.T, d *runtime.Device, op *runtime.ReduceOp[T], xs []T, init T) T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out, init))
	return devcheck.Download(t, out)[0]
}

func transformReduceOn[In, T any](t *testing.T, d *runtime.Device, op *runtime.TransformReduceOp[In, T], xs []In, init T) T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out, init))
	return devcheck.Download(t, out)[0]
}

func mapTo[In, Out any](xs []In, f func(In) Out) []Out {
	out := make([]Out, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// checkTransforms checks the element-wise operators on dut against Go's
// own results (package half, which the CPU backend runs too).
func checkTransforms(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	t.Run("Ops16", func(t *testing.T) {
		ps := mapTo(pairs(r, n, edges16), func(p [2]uint16) Pair16 { return Pair16{half.Float16(p[0]), half.Float16(p[1])} })
		requireEqual(t, ps, mapTo(ps, Ops16), transformOn(t, dut, Ops16T, ps), "Ops16 on "+dut.String())
		as, bs := mapTo(ps, func(p Pair16) half.Float16 { return p.A }), mapTo(ps, func(p Pair16) half.Float16 { return p.B })
		out := devcheck.Upload(t, dut, devcheck.Poison[half.Float16](n))
		require.NoError(t, AddPair16.Run(nil, devcheck.Upload(t, dut, as), devcheck.Upload(t, dut, bs), out))
		requireEqual(t, ps, mapTo(ps, func(p Pair16) half.Float16 { return p.A.Add(p.B) }), devcheck.Download(t, out), "BinaryTransform(Add16) on "+dut.String())
	})
	t.Run("OpsB", func(t *testing.T) {
		ps := mapTo(pairs(r, n, edgesB), func(p [2]uint16) PairB { return PairB{half.BFloat16(p[0]), half.BFloat16(p[1])} })
		requireEqual(t, ps, mapTo(ps, OpsB), transformOn(t, dut, OpsBT, ps), "OpsB on "+dut.String())
	})
	t.Run("Narrow", func(t *testing.T) {
		xs := float32s(r, n)
		requireEqual(t, xs, mapTo(xs, Narrow), transformOn(t, dut, NarrowT, xs), "Narrow on "+dut.String())
	})
}

// sparse16 are n values whose every partial sum, in any order, is exact in
// both types: ±0 with a random sign, and at most limit ones of ±1, so every
// sum is an integer of magnitude at most limit (2048 for Float16, 256 for
// BFloat16).
func sparse(r *rand.Rand, n, limit int) []float32 {
	xs := make([]float32, n)
	ones := 0
	for i := range xs {
		switch {
		case ones < limit && r.IntN(max(1, n/limit)) == 0:
			xs[i] = float32(2*r.IntN(2) - 1)
			ones++
		case r.IntN(2) == 0:
			xs[i] = float32(math.Copysign(0, -1))
		}
	}
	return xs
}

// widenable are n Float16 values whose float32 sums are exact in any order:
// integers in [-8, 8] one time in 64 (at most 2^24/8 of them), ±0 otherwise.
func widenable(r *rand.Rand, n int) []half.Float16 {
	xs := make([]half.Float16, n)
	for i := range xs {
		if r.IntN(64) == 0 {
			xs[i] = half.FromFloat32(float32(r.IntN(17) - 8))
		} else if r.IntN(2) == 0 {
			xs[i] = half.FromFloat32(float32(math.Copysign(0, -1)))
		}
	}
	return xs
}

func seqReduce[T any](op func(T, T) T, xs []T, init T) T {
	for _, x := range xs {
		init = op(init, x)
	}
	return init
}

// checkReductions checks Reduce and TransformReduce on dut over inputs whose
// results do not depend on the order of the operations: exact sums, a NaN
// (the canonical NaN whatever the order), an Inf against finite values.
func checkReductions(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	t.Run("Reduce", func(t *testing.T) {
		xs := mapTo(sparse(r, n, 2048), half.FromFloat32)
		for _, init := range []half.Float16{0, 0x8000, half.FromFloat32(3)} {
			want := seqReduce(Add16, xs, init)
			require.Equal(t, want, reduceOn(t, dut, Sum16, xs, init), "Sum16 of %d, init %#04x on %s", n, init, dut)
		}
		xb := mapTo(sparse(r, n, 256), half.BFloat16FromFloat32)
		want := seqReduce(AddB, xb, 0x8000)
		require.Equal(t, want, reduceOn(t, dut, SumB, xb, 0x8000), "SumB of %d on %s", n, dut)
		if n > 0 {
			nan := append([]half.Float16(nil), xs...)
			nan[r.IntN(n)] = 0xfe01 // a negative signalling NaN: the sum is 0x7FFF
			require.Equal(t, half.NaN16, reduceOn(t, dut, Sum16, nan, 0), "Sum16 with a NaN on %s", dut)
			inf := append([]half.BFloat16(nil), xb...)
			inf[r.IntN(n)] = 0xff80
			require.Equal(t, half.BFloat16(0xff80), reduceOn(t, dut, SumB, inf, 0), "SumB with -Inf on %s", dut)
		}
	})
	t.Run("TransformReduce", func(t *testing.T) {
		xs := widenable(r, n)
		want := seqReduce(Add32, mapTo(xs, Widen), 0.5)
		got := transformReduceOn(t, dut, WideSum, xs, 0.5)
		require.Equal(t, math.Float32bits(want), math.Float32bits(got), "WideSum of %d on %s: want %g, got %g", n, dut, want, got)
		xb := mapTo(sparse(r, n, 1<<20), half.BFloat16FromFloat32)
		wantB := seqReduce(Add32, mapTo(xb, WidenB), -1)
		gotB := transformReduceOn(t, dut, WideSumB, xb, -1)
		require.Equal(t, math.Float32bits(wantB), math.Float32bits(gotB), "WideSumB of %d on %s: want %g, got %g", n, dut, wantB, gotB)
	})
}

func check(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	if n <= transformMax {
		checkTransforms(t, r, dut, n)
	}
	checkReductions(t, r, dut, n)
}

// TestGPUMatchesCPU checks the GPU against Go's results, which the CPU
// backend's are (TestCPUBackend), element by element and bit for bit.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if testing.Short() && n > 1<<20 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, gpu, n) })
	}
}

// TestCPUBackend checks the CPU backend against Go's results and
// sequential loops; it runs everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if n > 1<<20 || testing.Short() && n > 70_000 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, cpu, n) })
	}
}

// TestEdgeValues pins a few results the operators must reproduce: rounding
// ties to even, overflow, subnormals, canonical NaNs and the sign of zero.
func TestEdgeValues(t *testing.T) {
	for _, c := range []struct {
		f    float32
		h, b uint16
	}{
		{1, 0x3c00, 0x3f80},
		{65504, 0x7bff, 0x4780}, // 65504 rounds to 65536 in bfloat16
		{65520, 0x7c00, 0x4780}, // the Float16 tie between 65504 and 65536 goes to Inf
		{5.960464477539063e-08, 0x0001, 0x3380},
		{2.9802322387695312e-08, 0x0000, 0x3300}, // the tie with 0 goes to 0
		{float32(math.Copysign(0, -1)), 0x8000, 0x8000},
		{float32(math.NaN()), 0x7fff, 0x7fff},
		{-float32(math.NaN()), 0x7fff, 0x7fff},
	} {
		got := Narrow(c.f)
		require.Equal(t, Narrowed{half.Float16(c.h), half.BFloat16(c.b)}, got, "Narrow(%g)", c.f)
	}
	a := Ops16(Pair16{half.FromFloat32(1), half.FromFloat32(float32(math.Copysign(0, -1)))})
	require.Equal(t, half.NaN16, Ops16(Pair16{0, 0x8000}).Quo, "0 / -0")
	require.Equal(t, half.Float16(0xfc00), a.Quo, "1 / -0")
	require.True(t, Ops16(Pair16{0, 0x8000}).Eq && !Ops16(Pair16{0, 0x8000}).Same, "0 and -0: Eq, not ==")
	require.False(t, Ops16(Pair16{0x7e00, 0x7e00}).Eq, "NaN Eq NaN")
}
