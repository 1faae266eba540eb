package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/half"
)

// half.Float16 and half.BFloat16 elements on the CPU backend: plain data
// (uint16 patterns), which the algorithms that take an operator accept like
// any other; Go runs the operator, so package half's arithmetic is the
// semantics. Sums of ±0 and at most 2048 (Float16) or 256 (BFloat16) ones
// are exact in any order and equal a sequential loop.

func addF16(a, b half.Float16) half.Float16    { return a.Add(b) }
func addBF16(a, b half.BFloat16) half.BFloat16 { return a.Add(b) }
func widenF16(h half.Float16) float32          { return h.Float32() }
func addF32(a, b float32) float32              { return a + b }
func lessF16(a, b half.Float16) bool           { return a.Lt(b) }
func negSqBF16(b half.BFloat16) half.BFloat16  { return b.Mul(b).Neg() }
func sparseOnes(r *rand.Rand, n, limit int) []float32 {
	xs := make([]float32, n)
	ones := 0
	for i := range xs {
		if ones < limit && r.IntN(max(1, n/limit)) == 0 {
			xs[i] = float32(2*r.IntN(2) - 1)
			ones++
		} else if r.IntN(2) == 0 {
			xs[i] = float32(math.Copysign(0, -1))
		}
	}
	return xs
}

func halfMap[In, Out any](xs []In, f func(In) Out) []Out {
	out := make([]Out, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func TestHalfCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 39))
	for _, n := range complexSizes {
		xs := halfMap(sparseOnes(r, n, 2048), half.FromFloat32)
		require.Equal(t, seqReduce(addF16, xs, 0x8000), reduceOn(t, d, Reduce(addF16), xs, 0x8000), "Float16 sum, n=%d", n)
		xb := halfMap(sparseOnes(r, n, 256), half.BFloat16FromFloat32)
		require.Equal(t, seqReduce(addBF16, xb, 0), reduceOn(t, d, Reduce(addBF16), xb, 0), "BFloat16 sum, n=%d", n)

		// TransformReduce: widen to float32 and sum there (exact: at most
		// 2048 ones).
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := Alloc[float32](d, 1)
		require.NoError(t, err)
		require.NoError(t, TransformReduce(widenF16, addF32).Run(nil, in, out, 0.5))
		got, err := out.ToHost()
		require.NoError(t, err)
		require.Equal(t, seqReduce(addF32, halfMap(xs, widenF16), 0.5), got[0], "TransformReduce(widen, add32), n=%d", n)

		// A transform and a comparison sort over random patterns, NaNs
		// among them (which MergeSortKeys with Lt leaves unordered: only the
		// non-NaN order is checked).
		rs := make([]half.BFloat16, n)
		for i := range rs {
			rs[i] = half.BFloat16(r.Uint32())
		}
		tin, err := FromHost(d, rs)
		require.NoError(t, err)
		tout, err := Alloc[half.BFloat16](d, n)
		require.NoError(t, err)
		require.NoError(t, UnaryTransform(negSqBF16).Run(nil, tin, tout))
		tgot, err := tout.ToHost()
		require.NoError(t, err)
		require.Equal(t, halfMap(rs, negSqBF16), tgot, "UnaryTransform, n=%d", n)

		fs := slices.DeleteFunc(halfMap(rs, func(b half.BFloat16) half.Float16 { return half.FromFloat32(b.Float32()) }), half.Float16.IsNaN)
		keys, err := FromHost(d, fs)
		require.NoError(t, err)
		require.NoError(t, MergeSortKeys(lessF16).Run(nil, keys))
		sorted, err := keys.ToHost()
		require.NoError(t, err)
		require.True(t, slices.IsSortedFunc(sorted, func(a, b half.Float16) int {
			switch {
			case a.Lt(b):
				return -1
			case b.Lt(a):
				return 1
			}
			return 0
		}), "MergeSortKeys(Lt), n=%d", n)
		for _, s := range []interface{ Free() error }{in, out, tin, tout, keys} {
			require.NoError(t, s.Free())
		}
	}
}
