package runtime

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// complex64 and complex128 elements on the CPU backend: the algorithms
// that take an operator accept them like any plain data (Go runs the
// operator itself), so sums over small-integer parts and products of units
// are exact in any order and equal a sequential loop.

func addC64(a, b complex64) complex64    { return a + b }
func addC128(a, b complex128) complex128 { return a + b }
func mulC128(a, b complex128) complex128 { return a * b }
func mulC64(a, b complex64) complex64    { return a * b }
func quoC128(a, b complex128) complex128 { return a / b }
func expC128(a complex128) complex128    { return cmplx.Exp(a) }
func rotC64(a complex64) complex128      { return complex128(a) * 1i }

// lessC128 orders complex numbers by real part, then imaginary part.
func lessC128(a, b complex128) bool {
	return real(a) < real(b) || real(a) == real(b) && imag(a) < imag(b)
}

var complexSizes = []int{0, 1, 2, minChunk - 1, minChunk, minChunk + 1, 9*minChunk + 5, 100_003}

// smallC128 has integer parts in [-50, 50]: sums of up to 2^40 of them are
// exact.
func smallC128(r *rand.Rand, n int) []complex128 {
	xs := make([]complex128, n)
	for i := range xs {
		xs[i] = complex(float64(r.IntN(101)-50), float64(r.IntN(101)-50))
	}
	return xs
}

// unitsC128 are 1, -1, i and -i: their products are exact.
func unitsC128(r *rand.Rand, n int) []complex128 {
	units := [...]complex128{1, -1, 1i, -1i}
	xs := make([]complex128, n)
	for i := range xs {
		xs[i] = units[r.IntN(4)]
	}
	return xs
}

func toC64(xs []complex128) []complex64 {
	out := make([]complex64, len(xs))
	for i, x := range xs {
		out[i] = complex64(x)
	}
	return out
}

func seqReduce[T any](op func(T, T) T, xs []T, init T) T {
	acc := init
	for _, x := range xs {
		acc = op(acc, x)
	}
	return acc
}

func reduceOn[T any](t *testing.T, d *Device, op *ReduceOp[T], xs []T, init T) T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	out, err := Alloc[T](d, 1)
	require.NoError(t, err)
	require.NoError(t, op.Run(nil, in, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got[0]
}

func TestComplexReduceCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 37))
	for _, n := range complexSizes {
		xs, us := smallC128(r, n), unitsC128(r, n)
		require.Equal(t, seqReduce(addC128, xs, 3-2i), reduceOn(t, d, Reduce(addC128), xs, 3-2i), "complex128 sum, n=%d", n)
		require.Equal(t, seqReduce(addC64, toC64(xs), 0), reduceOn(t, d, Reduce(addC64), toC64(xs), 0), "complex64 sum, n=%d", n)
		require.Equal(t, seqReduce(mulC128, us, 2i), reduceOn(t, d, Reduce(mulC128), us, 2i), "complex128 product, n=%d", n)
		require.Equal(t, seqReduce(mulC64, toC64(us), 1), reduceOn(t, d, Reduce(mulC64), toC64(us), 1), "complex64 product, n=%d", n)
	}
}

func TestComplexScanCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 38))
	for _, n := range complexSizes {
		xs := toC64(smallC128(r, n))
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := Alloc[complex64](d, n)
		require.NoError(t, err)
		require.NoError(t, InclusiveScan(addC64).Run(nil, in, out))
		got, err := out.ToHost()
		require.NoError(t, err)
		require.Equal(t, seqScan(addC64, xs, 0, false, true), got, "inclusive, n=%d", n)
		require.NoError(t, ExclusiveScan(addC64).Run(nil, in, out, 1i))
		got, err = out.ToHost()
		require.NoError(t, err)
		require.Equal(t, seqScan(addC64, xs, 1i, true, false), got, "exclusive, n=%d", n)

		us := unitsC128(r, n)
		uin, err := FromHost(d, us)
		require.NoError(t, err)
		uout, err := Alloc[complex128](d, n)
		require.NoError(t, err)
		require.NoError(t, InclusiveScan(mulC128).Run(nil, uin, uout))
		ugot, err := uout.ToHost()
		require.NoError(t, err)
		require.Equal(t, seqScan(mulC128, us, 0, false, true), ugot, "inclusive product, n=%d", n)
	}
}

// bitsC128 compares complex values by their parts' bits, so that NaNs and
// signed zeros count.
func bitsC128(xs []complex128) [][2]uint64 {
	out := make([][2]uint64, len(xs))
	for i, x := range xs {
		out[i] = [2]uint64{math.Float64bits(real(x)), math.Float64bits(imag(x))}
	}
	return out
}

func TestComplexTransformCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 39))
	inf, nan := math.Inf(1), math.NaN()
	for _, n := range []int{0, 1, 7919, 100_003} {
		as := make([]complex128, n)
		bs := make([]complex128, n)
		for i := range as {
			as[i] = complex(r.NormFloat64()*3, r.NormFloat64()*3)
			bs[i] = complex(r.NormFloat64(), r.NormFloat64())
		}
		special := []complex128{0, complex(0, math.Copysign(0, -1)), complex(inf, 0), complex(-inf, nan), complex(nan, 1), complex(1, inf)}
		for i := 0; i < n && i < len(special)*len(special); i++ {
			as[i], bs[i] = special[i%len(special)], special[i/len(special)]
		}
		a, err := FromHost(d, as)
		require.NoError(t, err)
		b, err := FromHost(d, bs)
		require.NoError(t, err)
		out, err := Alloc[complex128](d, n)
		require.NoError(t, err)

		require.NoError(t, UnaryTransform(expC128).Run(nil, a, out))
		got, err := out.ToHost()
		require.NoError(t, err)
		want := make([]complex128, n)
		for i, x := range as {
			want[i] = cmplx.Exp(x)
		}
		require.Equal(t, bitsC128(want), bitsC128(got), "cmplx.Exp, n=%d", n)

		require.NoError(t, BinaryTransform(quoC128).Run(nil, a, b, out))
		got, err = out.ToHost()
		require.NoError(t, err)
		for i := range as {
			want[i] = as[i] / bs[i]
		}
		require.Equal(t, bitsC128(want), bitsC128(got), "a / b, n=%d", n)
	}
}

func TestComplexTransformReduceCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 40))
	for _, n := range complexSizes {
		xs := toC64(smallC128(r, n))
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := Alloc[complex128](d, 1)
		require.NoError(t, err)
		require.NoError(t, TransformReduce(rotC64, addC128).Run(nil, in, out, 5))
		got, err := out.ToHost()
		require.NoError(t, err)
		want := complex128(5)
		for _, x := range xs {
			want += rotC64(x)
		}
		require.Equal(t, want, got[0], "n=%d", n)
	}
}

// TestComplexMergeSortCPU: sorts by a comparison take complex keys with an
// order the operator defines (radix sorts and histograms do not: RadixKey
// and HistogramSample leave complex types out, so the compiler rejects
// them).
func TestComplexMergeSortCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 41))
	xs := smallC128(r, 20_011)
	keys, err := FromHost(d, xs)
	require.NoError(t, err)
	require.NoError(t, MergeSortKeys(lessC128).Run(nil, keys))
	got, err := keys.ToHost()
	require.NoError(t, err)
	require.Len(t, got, len(xs))
	for i := 1; i < len(got); i++ {
		require.False(t, lessC128(got[i], got[i-1]), "out of order at %d: %v, %v", i, got[i-1], got[i])
	}
}

// TestComplexPlainData: complex values, alone and in structs and arrays,
// are plain data that Slices hold byte for byte.
func TestComplexPlainData(t *testing.T) {
	d := cpuDevice(t)
	type phasor struct {
		Tag  int8
		Z    complex64
		Taps [3]complex128
	}
	xs := []phasor{{1, 1 + 2i, [3]complex128{complex(math.NaN(), -0.0), 3i, complex(math.Inf(-1), 4)}}, {Tag: -1, Z: -1i}}
	s, err := FromHost(d, xs)
	require.NoError(t, err)
	got, err := s.ToHost()
	require.NoError(t, err)
	require.Equal(t, bitsC128(xs[0].Taps[:]), bitsC128(got[0].Taps[:]))
	require.Equal(t, xs[1], got[1])
	require.NoError(t, checkPlain(reflect.TypeFor[complex64]()))
	require.NoError(t, checkPlain(reflect.TypeFor[[2]complex128]()))
}
