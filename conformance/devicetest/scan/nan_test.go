package scan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime"
)

// The kernels fold float operators with their twins with the GPU's NaNs
// first and again with Go's only where a NaN came out
// (kernels/include/gocccl/gpu_nan.cuh). These tests feed them NaNs with
// payloads of their own and infinities whose sums are NaNs, and require
// every result bit for bit equal to a Go loop's (and the CPU backend's).
// The numbers are small integers, whose sums are exact in any order, and a
// NaN result is the first NaN in order, quieted, in any association: so the
// loop is the oracle of every order a kernel adds in. Reductions, which may
// also commute, get one payload per input.

// nanInput is one way to place NaNs and infinities among small integers.
type nanInput struct {
	name     string
	payloads int  // NaNs, each with its own payload when distinct
	distinct bool // false: every NaN has the same payload
	infs     int  // +Inf and -Inf, alternately (their sum is Go's default NaN)
}

var nanInputs = []nanInput{
	{"numbers", 0, false, 0},
	{"one-nan", 1, true, 0},
	{"nans", 5, true, 0},
	{"same-nans", 5, false, 0},
	{"infinities", 0, false, 4},
}

// floatBits describes float32 or float64 to the generators.
type floatBits[T float32 | float64] struct {
	nan func(payload uint64, negative bool) T // a signaling NaN
	inf func(sign int) T
}

var bits32 = floatBits[float32]{
	nan: func(p uint64, neg bool) float32 {
		u := uint32(0x7F800000) | uint32(p%(1<<22)+1) // quiet bit clear, payload not zero
		if neg {
			u |= 1 << 31
		}
		return math.Float32frombits(u)
	},
	inf: func(sign int) float32 { return float32(math.Inf(sign)) },
}

var bits64 = floatBits[float64]{
	nan: func(p uint64, neg bool) float64 {
		u := uint64(0x7FF0000000000000) | (p%(1<<51) + 1)
		if neg {
			u |= 1 << 63
		}
		return math.Float64frombits(u)
	},
	inf: math.Inf,
}

// values returns n small integers with in's NaNs and infinities at random
// places, the first NaN among the last 100 items (in the last tile).
func values[T float32 | float64](r *rand.Rand, fb floatBits[T], in nanInput, n int) []T {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = T(r.IntN(7) - 3)
	}
	if n == 0 {
		return xs
	}
	payload, neg := r.Uint64(), r.IntN(2) == 0
	for k := range in.payloads {
		if in.distinct {
			payload, neg = r.Uint64(), r.IntN(2) == 0
		}
		i := r.IntN(n)
		if k == 0 {
			i = n - 1 - r.IntN(min(n, 100))
		}
		xs[i] = fb.nan(payload, neg)
	}
	for k := range in.infs {
		xs[r.IntN(n)] = fb.inf(1 - 2*(k%2))
	}
	return xs
}

// nanSizes are the counts the NaN tests run at: around the 4- and 8-byte
// scan tiles, many tiles, and (without -short) many more.
func nanSizes() []int {
	t4, t8 := algo.InclusiveScan.Policy(4, 90).Tile(), algo.InclusiveScan.Policy(8, 90).Tile()
	// and the by-key tiles' edges: a second scan in the last tile, or
	// in the one before it
	k4, r4 := algo.InclusiveScanByKey.Policy(4, 90).Tile(), algo.ReduceByKey.Policy(4, 90).Tile()
	ns := []int{1, 2, t4 - 1, t4, t4 + 1, t8 + 1, 3*t4 + 7, k4 + 1, 2*r4 - 1, 100_003}
	if !testing.Short() {
		ns = append(ns, 1<<22+5)
	}
	return ns
}

// TestScanNaNsMatchGo: the float scans over NaNs and infinities, and a
// scan whose operator reads a NaN's bits (no twin: Go's arithmetic only).
func TestScanNaNsMatchGo(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	for _, n := range nanSizes() {
		for _, in := range nanInputs {
			t.Run(fmt.Sprintf("float32/%s/n=%d", in.name, n), func(t *testing.T) {
				scanNaNs(t, dut, oracle, instances[float32]{AddFloat32, InclAddFloat32, ExclAddFloat32}, values(r, bits32, in, n), 3)
				xs := values(r, bits32, in, n)
				m := modes[0]
				want := sequential(AddBitsFloat32, xs, 0, m)
				inst := instances[float32]{AddBitsFloat32, InclAddBitsFloat32, nil}
				requireBitEqual(t, want, scanOn(t, dut, inst, m, xs, 0), "AddBitsFloat32: device vs a Go loop")
				requireBitEqual(t, want, scanOn(t, oracle, inst, m, xs, 0), "AddBitsFloat32: CPU backend vs a Go loop")
			})
			t.Run(fmt.Sprintf("float64/%s/n=%d", in.name, n), func(t *testing.T) {
				scanNaNs(t, dut, oracle, instances[float64]{AddFloat64, InclAddFloat64, ExclAddFloat64}, values(r, bits64, in, n), 3)
			})
		}
	}
}

// scanNaNs checks inst in every mode over xs against a Go loop.
func scanNaNs[T float32 | float64](t *testing.T, dut, oracle *runtime.Device, inst instances[T], xs []T, init T) {
	t.Helper()
	for _, m := range modes {
		want := sequential(inst.op, xs, init, m)
		requireBitEqual(t, want, scanOn(t, dut, inst, m, xs, init), m.name+": device vs a Go loop")
		requireBitEqual(t, want, scanOn(t, oracle, inst, m, xs, init), m.name+": CPU backend vs a Go loop")
	}
}

// TestScanByKeyNaNsMatchGo: the float scans by key over NaNs and
// infinities, with runs of a few items and of many tiles.
func TestScanByKeyNaNsMatchGo(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	key := func(r *rand.Rand) int32 { return int32(r.Uint32()) }
	for _, n := range nanSizes() {
		for _, meanRun := range []int{3, 1 << 30} {
			for _, in := range nanInputs {
				name := fmt.Sprintf("%s/run=%d/n=%d", in.name, min(meanRun, n), n)
				t.Run("float32/"+name, func(t *testing.T) {
					b := byKey[int32, float32]{"float32", EqInt32, AddFloat32, InclByKeyAddFloat32, ExclByKeyAddFloat32, key, nil}
					byKeyNaNs(t, dut, oracle, b, bits32, runKeys(r, n, meanRun), values(r, bits32, in, n))
				})
				t.Run("float64/"+name, func(t *testing.T) {
					b := byKey[int32, float64]{"float64", EqInt32, AddFloat64, InclByKeyAddFloat64, ExclByKeyAddFloat64, key, nil}
					byKeyNaNs(t, dut, oracle, b, bits64, runKeys(r, n, meanRun), values(r, bits64, in, n))
				})
			}
		}
	}
}

// runKeys returns n keys in runs of meanRun items on average.
func runKeys(r *rand.Rand, n, meanRun int) []int32 {
	keys := make([]int32, n)
	k := int32(r.Uint32())
	for i := range keys {
		if r.IntN(meanRun) == 0 {
			k = int32(r.Uint32())
		}
		keys[i] = k
	}
	return keys
}

// byKeyNaNs runs both scans by key, the exclusive one also seeded with
// +Inf (init op a prefix holding -Inf is a NaN where the scan itself has
// none) and with a NaN of its own payload.
func byKeyNaNs[V float32 | float64](t *testing.T, dut, oracle *runtime.Device, b byKey[int32, V], bits floatBits[V], keys []int32, xs []V) {
	t.Helper()
	cases := []struct {
		inclusive bool
		init      V
	}{{true, 2}, {false, 2}, {false, bits.inf(1)}, {false, bits.nan(12345, true)}}
	for _, c := range cases {
		want := sequentialByKey(b.eq, b.op, keys, xs, c.init, c.inclusive)
		what := fmt.Sprint("inclusive=", c.inclusive, " init=", c.init)
		requireBitEqual(t, want, b.on(t, dut, c.inclusive, keys, xs, c.init), what+": device vs a Go loop")
		requireBitEqual(t, want, b.on(t, oracle, c.inclusive, keys, xs, c.init), what+": CPU backend vs a Go loop")
	}
}

// TestReduceByKeyNaNsMatchGo: ReduceByKey's run aggregates over NaNs and
// infinities.
func TestReduceByKeyNaNsMatchGo(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	for _, n := range nanSizes() {
		for _, meanRun := range []int{3, 1 << 30} {
			for _, in := range nanInputs {
				name := fmt.Sprintf("%s/run=%d/n=%d", in.name, min(meanRun, n), n)
				t.Run("float32/"+name, func(t *testing.T) {
					keys := runKeys(r, n, meanRun)
					reduceByKeyNaNs(t, dut, oracle, RunSumsFloat32, AddFloat32, keys, values(r, bits32, in, n))
				})
				t.Run("float64/"+name, func(t *testing.T) {
					keys := runKeys(r, n, meanRun)
					reduceByKeyNaNs(t, dut, oracle, RunSumsFloat64, AddFloat64, keys, values(r, bits64, in, n))
				})
			}
		}
	}
}

func reduceByKeyNaNs[V float32 | float64](t *testing.T, dut, oracle *runtime.Device, inst *runtime.ReduceByKeyOp[int32, V], op func(V, V) V, keys []int32, xs []V) {
	t.Helper()
	var want []V
	for i, x := range xs {
		if i == 0 || keys[i] != keys[i-1] {
			want = append(want, x)
		} else {
			want[len(want)-1] = op(want[len(want)-1], x)
		}
	}
	for _, d := range []*runtime.Device{dut, oracle} {
		k, err := runtime.FromHost(d, keys)
		require.NoError(t, err)
		defer k.Free()
		v, err := runtime.FromHost(d, xs)
		require.NoError(t, err)
		defer v.Free()
		unique, err := runtime.FromHost(d, devcheck.Poison[int32](len(xs)))
		require.NoError(t, err)
		defer unique.Free()
		aggs, err := runtime.FromHost(d, devcheck.Poison[V](len(xs)))
		require.NoError(t, err)
		defer aggs.Free()
		runs, err := runtime.FromHost(d, []int64{-1})
		require.NoError(t, err)
		defer runs.Free()
		require.NoError(t, inst.Run(nil, k, v, unique, aggs, runs))
		got, err := aggs.ToHost()
		require.NoError(t, err)
		count, err := runs.ToHost()
		require.NoError(t, err)
		require.Equal(t, int64(len(want)), count[0], "%s: runs", d)
		requireBitEqual(t, want, got[:len(want)], fmt.Sprintf("%s vs a Go loop", d))
	}
}

// TestReduceNaNsMatchGo: Reduce and TransformReduce over NaNs (one payload
// per input: a reduction may commute) and infinities.
func TestReduceNaNsMatchGo(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	for _, n := range append(nanSizes(), 1<<20+3) {
		for _, in := range nanInputs {
			if in.distinct && in.payloads > 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", in.name, n), func(t *testing.T) {
				xs := values(r, bits32, in, n)
				reduceNaNs(t, dut, oracle, "Reduce(float32)", xs, float32(1), func(s *runtime.Slice[float32], out *runtime.Slice[float32]) error {
					return SumFloat32.Run(nil, s, out, 1)
				}, AddFloat32, func(x float32) float32 { return x })
				reduceNaNs(t, dut, oracle, "TransformReduce(float32 -> float64)", xs, float64(1), func(s *runtime.Slice[float32], out *runtime.Slice[float64]) error {
					return SumSquaresFloat32.Run(nil, s, out, 1)
				}, AddFloat64, SquareFloat32)
				ys := values(r, bits64, in, n)
				reduceNaNs(t, dut, oracle, "Reduce(float64)", ys, float64(1), func(s *runtime.Slice[float64], out *runtime.Slice[float64]) error {
					return SumFloat64.Run(nil, s, out, 1)
				}, AddFloat64, func(x float64) float64 { return x })
			})
		}
	}
}

func reduceNaNs[In, T float32 | float64](t *testing.T, dut, oracle *runtime.Device, what string, xs []In, init T,
	run func(*runtime.Slice[In], *runtime.Slice[T]) error, op func(T, T) T, xf func(In) T) {
	t.Helper()
	want := init
	for _, x := range xs {
		want = op(want, xf(x))
	}
	for _, d := range []*runtime.Device{dut, oracle} {
		in, err := runtime.FromHost(d, xs)
		require.NoError(t, err)
		defer in.Free()
		out, err := runtime.FromHost(d, devcheck.Poison[T](1))
		require.NoError(t, err)
		defer out.Free()
		require.NoError(t, run(in, out), what)
		got, err := out.ToHost()
		require.NoError(t, err)
		requireBitEqual(t, []T{want}, got, fmt.Sprintf("%s: %s vs a Go loop", what, d))
	}
}
