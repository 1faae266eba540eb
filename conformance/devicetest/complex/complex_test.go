package complex

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths of the reductions and scans; 2^26 only on the
// GPU. The transforms stop at transformMax.
var sizes = []int{0, 1, 2, 4095, 4096, 4097, 7919, 1_000_003, 1 << 26}

const transformMax = 1_000_003

// sameF64 reports whether a and b have the same bits, or are both NaN: a
// NaN's payload depends on the operand order gc's register allocator picks
// (gocomplex.cuh's comment), so NaNs match as a class; zeros keep their
// sign.
func sameF64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func sameF32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func same128(a, b complex128) bool { return sameF64(real(a), real(b)) && sameF64(imag(a), imag(b)) }
func same64(a, b complex64) bool   { return sameF32(real(a), real(b)) && sameF32(imag(a), imag(b)) }

// requireSame fails unless got[i] matches want[i] for every i under eq,
// naming the first element that differs and its input.
func requireSame[In, T any](t *testing.T, in []In, want, got []T, eq func(a, b T) bool, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		if !eq(want[i], got[i]) {
			t.Fatalf("%s: element %d of %d (input %v): want %v, got %v", what, i, len(want), in[i], want[i], got[i])
		}
	}
}

// edges are the parts the edge-case inputs are built from.
var edges = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3, -7, 1e-310, 1e300, -1e300, math.MaxFloat64,
	math.Inf(1), math.Inf(-1), math.NaN(), 710, math.Pi / 2}

// part draws a value for one part of a transform's input: mostly small
// integers, then normal floats of several scales, then edge values.
func part(r *rand.Rand) float64 {
	switch k := r.IntN(10); {
	case k < 5:
		return float64(r.IntN(17) - 8)
	case k < 8:
		return r.NormFloat64() * math.Ldexp(1, r.IntN(20)-10)
	default:
		return edges[r.IntN(len(edges))]
	}
}

func randC128(r *rand.Rand) complex128 { return complex(part(r), part(r)) }

// transformInputs are n complex128 values: every pair of edge parts first,
// then random ones.
func transformInputs(r *rand.Rand, n int) []complex128 {
	xs := make([]complex128, n)
	for i := range xs {
		if i < len(edges)*len(edges) {
			xs[i] = complex(edges[i%len(edges)], edges[i/len(edges)])
		} else {
			xs[i] = randC128(r)
		}
	}
	return xs
}

// smallInts has integer parts in [-50, 50]: every sum the reductions and
// scans form is exact, so any order gives the same result.
func smallInts(r *rand.Rand, n int) []complex128 {
	xs := make([]complex128, n)
	for i := range xs {
		xs[i] = complex(float64(r.IntN(101)-50), float64(r.IntN(101)-50))
	}
	return xs
}

// units are 1, -1, i and -i: their products are exact. The sign of a zero
// part may depend on the order of the products, so products compare with
// == (which equates -0 and +0).
func units(r *rand.Rand, n int) []complex128 {
	us := [...]complex128{1, -1, 1i, -1i}
	xs := make([]complex128, n)
	for i := range xs {
		xs[i] = us[r.IntN(4)]
	}
	return xs
}

func to64(xs []complex128) []complex64 {
	out := make([]complex64, len(xs))
	for i, x := range xs {
		out[i] = complex64(x)
	}
	return out
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

func inclusiveOn[T any](t *testing.T, d *runtime.Device, op *runtime.InclusiveScanOp[T], xs []T) []T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](len(xs)))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out))
	return devcheck.Download(t, out)
}

func seqReduce[T any](op func(T, T) T, xs []T, init T) T {
	for _, x := range xs {
		init = op(init, x)
	}
	return init
}

func seqInclusive[T any](op func(T, T) T, xs []T) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		if i == 0 {
			out[i] = x
		} else {
			out[i] = op(out[i-1], x)
		}
	}
	return out
}

func eq[T comparable](a, b T) bool { return a == b }

// checkTransforms checks the element-wise operators on dut against Go's
// own results (which the CPU backend computes too).
func checkTransforms(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	t.Run("Ops", func(t *testing.T) {
		as, bs := transformInputs(r, n), transformInputs(r, n)
		r.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		ps := make([]Pair, n)
		for i := range ps {
			ps[i] = Pair{as[i], bs[i]}
		}
		got := transformOn(t, dut, OpsT, ps)
		require.Len(t, got, n)
		for i, p := range ps {
			w, g := Ops(p), got[i]
			if !same128(w.Sum, g.Sum) || !same128(w.Diff, g.Diff) || !same128(w.Prod, g.Prod) || !same128(w.Quo, g.Quo) ||
				!same128(w.Neg, g.Neg) || w.Eq != g.Eq || w.Ne != g.Ne {
				t.Fatalf("Ops(%v) on %s: want %+v, got %+v", p, dut, w, g)
			}
		}
		mul := devcheck.Upload(t, dut, devcheck.Poison[complex128](n))
		require.NoError(t, Mul128Pair.Run(nil, devcheck.Upload(t, dut, as), devcheck.Upload(t, dut, bs), mul))
		want := make([]complex128, n)
		for i := range as {
			want[i] = Mul128(as[i], bs[i])
		}
		requireSame(t, as, want, devcheck.Download(t, mul), same128, "Mul128 as a BinaryTransform on "+dut.String())
	})
	t.Run("Ops64", func(t *testing.T) {
		as, bs := to64(transformInputs(r, n)), to64(transformInputs(r, n))
		r.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		ps := make([]Pair64, n)
		for i := range ps {
			ps[i] = Pair64{as[i], bs[i]}
		}
		got := transformOn(t, dut, Ops64T, ps)
		require.Len(t, got, n)
		for i, p := range ps {
			w, g := Ops64(p), got[i]
			if !same64(w.Sum, g.Sum) || !same64(w.Diff, g.Diff) || !same64(w.Prod, g.Prod) || !same64(w.Quo, g.Quo) ||
				!same128(w.Wide, g.Wide) || !same64(w.Narrow, g.Narrow) || w.Eq != g.Eq {
				t.Fatalf("Ops64(%v) on %s: want %+v, got %+v", p, dut, w, g)
			}
		}
	})
	t.Run("Cmplx", func(t *testing.T) {
		xs := transformInputs(r, n)
		got := transformOn(t, dut, CmplxT, xs)
		require.Len(t, got, n)
		for i, x := range xs {
			w, g := Cmplx(x), got[i]
			for _, c := range []struct {
				name string
				w, g complex128
			}{{"Exp", w.Exp, g.Exp}, {"Log", w.Log, g.Log}, {"Sqrt", w.Sqrt, g.Sqrt}, {"Pow", w.Pow, g.Pow},
				{"Sin", w.Sin, g.Sin}, {"Cos", w.Cos, g.Cos}, {"Sinh", w.Sinh, g.Sinh}, {"Cosh", w.Cosh, g.Cosh},
				{"Conj", w.Conj, g.Conj}, {"Rect", w.Rect, g.Rect},
				{"Abs, Phase", complex(w.Abs, w.Phase), complex(g.Abs, g.Phase)}, {"Polar", complex(w.R, w.Theta), complex(g.R, g.Theta)}} {
				if !same128(c.w, c.g) {
					t.Fatalf("cmplx.%s(%v) on %s: want %v, got %v", c.name, x, dut, c.w, c.g)
				}
			}
			if w.NaN != g.NaN || w.Inf != g.Inf {
				t.Fatalf("cmplx.IsNaN/IsInf(%v) on %s: want %v/%v, got %v/%v", x, dut, w.NaN, w.Inf, g.NaN, g.Inf)
			}
		}
	})
	t.Run("ExpScaled", func(t *testing.T) {
		xs := to64(transformInputs(r, n))
		want := make([]complex64, n)
		for i, x := range xs {
			want[i] = ExpScaled(x)
		}
		requireSame(t, xs, want, transformOn(t, dut, ExpT, xs), same64, "ExpScaled on "+dut.String())
	})
}

// checkReductions checks the reductions and scans on dut against
// sequential loops, over values whose sums and products are exact.
func checkReductions(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	xs, us := smallInts(r, n), units(r, n)
	xs64, us64 := to64(xs), to64(us)
	t.Run("Reduce", func(t *testing.T) {
		require.Equal(t, seqReduce(Add128, xs, 3-2i), reduceOn(t, dut, Sum128, xs, 3-2i), "Sum128 on %s", dut)
		require.Equal(t, seqReduce(Add64, xs64, 0), reduceOn(t, dut, Sum64, xs64, 0), "Sum64 on %s", dut)
		w, g := seqReduce(Mul128, us, 1i), reduceOn(t, dut, Prod128, us, 1i)
		require.True(t, w == g, "Prod128 on %s: want %v, got %v", dut, w, g)
		w64, g64 := seqReduce(Mul64, us64, 1), reduceOn(t, dut, Prod64, us64, 1)
		require.True(t, w64 == g64, "Prod64 on %s: want %v, got %v", dut, w64, g64)
		if n <= transformMax {
			ps := make([]Pair, n)
			for i := range ps {
				ps[i] = Pair{xs[i], xs[n-1-i]}
			}
			init := Pair{1i, -1}
			require.Equal(t, seqReduce(AddPair, ps, init), reduceOn(t, dut, SumPair, ps, init), "SumPair on %s", dut)
		}
	})
	t.Run("TransformReduce", func(t *testing.T) {
		out := devcheck.Upload(t, dut, devcheck.Poison[complex128](1))
		require.NoError(t, RotSum.Run(nil, devcheck.Upload(t, dut, xs64), out, 5))
		want := complex128(5)
		for _, x := range xs64 {
			want = Add128(want, Rot(x))
		}
		require.Equal(t, want, devcheck.Download(t, out)[0], "RotSum on %s", dut)
	})
	t.Run("Scan", func(t *testing.T) {
		devcheck.RequireBitEqual(t, seqInclusive(Add64, xs64), inclusiveOn(t, dut, Prefix64, xs64), "Prefix64 on "+dut.String())
		devcheck.RequireBitEqual(t, seqInclusive(Add128, xs), inclusiveOn(t, dut, Prefix128, xs), "Prefix128 on "+dut.String())
		requireSame(t, us, seqInclusive(Mul128, us), inclusiveOn(t, dut, PrefixMul, us), eq[complex128], "PrefixMul on "+dut.String())
		out := devcheck.Upload(t, dut, devcheck.Poison[complex128](n))
		require.NoError(t, PrefixEx.Run(nil, devcheck.Upload(t, dut, xs), out, 7i))
		want := make([]complex128, n)
		acc := complex128(7i)
		for i, x := range xs {
			want[i] = acc
			acc = Add128(acc, x)
		}
		devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), "PrefixEx on "+dut.String())
	})
}

func check(t *testing.T, r *rand.Rand, dut *runtime.Device, n int) {
	if n <= transformMax {
		checkTransforms(t, r, dut, n)
	}
	checkReductions(t, r, dut, n)
}

// TestGPUMatchesCPU checks the GPU against Go's results, which the CPU
// backend's are (TestCPUBackend), element by element.
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
		if n > 1<<20 || testing.Short() && n > 10_000 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, cpu, n) })
	}
}

// TestEdgeValues pins a few of Go's results that the transforms must
// reproduce: C99's recovery of infinities in division, and the signed
// zeros of the plain multiplication formula.
func TestEdgeValues(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		p    Pair
		quo  complex128
		prod complex128
	}{
		{Pair{1 + 1i, 0}, complex(inf, inf), 0},
		{Pair{complex(inf, 1), 1 + 1i}, complex(inf, math.Inf(-1)), complex(inf, inf)},
		{Pair{1, complex(inf, inf)}, complex(0, math.Copysign(0, -1)), complex(math.NaN(), math.NaN())},
		{Pair{complex(-1, 0), 1i}, complex(0, 1), complex(math.Copysign(0, -1), -1)},
	} {
		a := Ops(c.p)
		require.True(t, same128(c.quo, a.Quo), "%v / %v = %v, want %v", c.p.A, c.p.B, a.Quo, c.quo)
		require.True(t, same128(c.prod, a.Prod), "%v * %v = %v, want %v", c.p.A, c.p.B, a.Prod, c.prod)
	}
	for _, d := range []*runtime.Device{devcheck.OpenCPU(t)} {
		xs := []complex128{0, complex(0, math.Pi), complex(inf, 0), complex(math.NaN(), 0)}
		got := transformOn(t, d, CmplxT, xs)
		require.Equal(t, fmt.Sprint(cmplx.Exp(xs[1])), fmt.Sprint(got[1].Exp))
		require.True(t, got[3].NaN && !got[2].NaN && got[2].Inf)
	}
}
