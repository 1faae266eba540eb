package find

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths every algorithm is checked at; 2^26 only on
// the GPU.
var sizes = []int{0, 1, 2, 4095, 4096, 4097, 7919, 1_000_003, 1 << 26}

// number is every numeric element type under test.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// ops are one element type's instances.
type ops[T any] struct {
	find           *runtime.FindIfOp[T]
	argMin, argMax *runtime.ArgReduceOp[T]
	segMin, segMax *runtime.SegmentedArgReduceOp[T]
}

// oracleFind is the first index of Mark, or len(xs).
func oracleFind[T any](xs []T, is func(T) bool) int64 {
	for i, x := range xs {
		if is(x) {
			return int64(i)
		}
	}
	return int64(len(xs))
}

// oracleArg is the first least (or, for max, the first element no other
// exceeds) element under less, and its index; -1 and T's zero when empty.
func oracleArg[T any](xs []T, less func(T, T) bool, max bool) (T, int64) {
	var best T
	idx := int64(-1)
	for i, x := range xs {
		if idx < 0 || !max && less(x, best) || max && less(best, x) {
			best, idx = x, int64(i)
		}
	}
	return best, idx
}

func findOn[T any](t *testing.T, d *runtime.Device, op *runtime.FindIfOp[T], xs []T) int64 {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out))
	return devcheck.Download(t, out)[0]
}

func argOn[T any](t *testing.T, d *runtime.Device, op *runtime.ArgReduceOp[T], xs []T) (T, int64) {
	t.Helper()
	v := devcheck.Upload(t, d, devcheck.Poison[T](1))
	i := devcheck.Upload(t, d, devcheck.Poison[int64](1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), v, i))
	return devcheck.Download(t, v)[0], devcheck.Download(t, i)[0]
}

func segOn[T any](t *testing.T, d *runtime.Device, op *runtime.SegmentedArgReduceOp[T], xs []T, begin, end []int64) ([]T, []int64) {
	t.Helper()
	v := devcheck.Upload(t, d, devcheck.Poison[T](len(begin)))
	i := devcheck.Upload(t, d, devcheck.Poison[int64](len(begin)))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), devcheck.Upload(t, d, begin), devcheck.Upload(t, d, end), v, i))
	return devcheck.Download(t, v), devcheck.Download(t, i)
}

// segments cuts n items into segments of random lengths around k,
// empty ones included.
func segments(r *rand.Rand, n, k int) (begin, end []int64) {
	for lo := 0; lo < n; {
		hi := min(n, lo+r.IntN(2*k+1))
		begin, end = append(begin, int64(lo)), append(end, int64(hi))
		lo = hi
	}
	return begin, end
}

// plants are the positions Mark is written at for FindIf: none, the first,
// the last, a random one and two (the first must win).
func plants(r *rand.Rand, n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	p := r.IntN(n)
	q := p + r.IntN(n-p)
	return [][]int{nil, {0}, {n - 1}, {p}, {q, p}}
}

// checkType checks one element type's instances on dut (and the CPU
// backend) against the oracles, for values from gen.
func checkType[T comparable](t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, o ops[T], n int, gen func() T, mark T, less func(T, T) bool) {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = gen()
	}
	devs := []*runtime.Device{dut}
	if dut != cpu {
		devs = append(devs, cpu)
	}
	is := func(x T) bool { return x == mark }
	for _, at := range plants(r, n) {
		ys := append([]T(nil), xs...)
		for _, p := range at {
			ys[p] = mark
		}
		want := oracleFind(ys, is)
		for _, d := range devs {
			require.Equal(t, want, findOn(t, d, o.find, ys), "FindIf with Mark at %v on %s", at, d)
		}
	}
	for _, max := range []bool{false, true} {
		op, seg := o.argMin, o.segMin
		if max {
			op, seg = o.argMax, o.segMax
		}
		wv, wi := oracleArg(xs, less, max)
		for _, d := range devs {
			v, i := argOn(t, d, op, xs)
			require.Equal(t, wi, i, "index (max=%v) on %s", max, d)
			require.Equal(t, wv, v, "value (max=%v) on %s", max, d)
		}
		for _, k := range []int{3, 40, 2000} {
			if n > 1<<22 && k != 2000 {
				continue
			}
			begin, end := segments(r, n, k)
			wvs, wis := make([]T, len(begin)), make([]int64, len(begin))
			for s := range begin {
				wvs[s], wis[s] = oracleArg(xs[begin[s]:end[s]], less, max)
			}
			for _, d := range devs {
				vs, is := segOn(t, d, seg, xs, begin, end)
				require.Equal(t, wis, is, "segment indices (max=%v, k=%d) on %s", max, k, d)
				require.Equal(t, wvs, vs, "segment values (max=%v, k=%d) on %s", max, k, d)
			}
		}
	}
}

// small draws values in [0, 100) of any numeric type: many ties.
func small[T number](r *rand.Rand) func() T { return func() T { return T(r.IntN(100)) } }

func lt[T number](a, b T) bool { return a < b }

func check(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, n int) {
	t.Run("int8", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int8]{FindInt8, ArgMinInt8, ArgMaxInt8, SegMinInt8, SegMaxInt8}, n, small[int8](r), Mark, lt[int8])
	})
	t.Run("int16", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int16]{FindInt16, ArgMinInt16, ArgMaxInt16, SegMinInt16, SegMaxInt16}, n, func() int16 { return int16(r.Uint32()) % 101 }, Mark, lt[int16])
	})
	t.Run("int32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int32]{FindInt32, ArgMinInt32, ArgMaxInt32, SegMinInt32, SegMaxInt32}, n, func() int32 { return int32(r.Uint32()) % 101 }, Mark, lt[int32])
	})
	t.Run("int64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int64]{FindInt64, ArgMinInt64, ArgMaxInt64, SegMinInt64, SegMaxInt64}, n, func() int64 {
			v := int64(r.Uint64())
			if v == Mark {
				v++
			}
			return v
		}, Mark, lt[int64])
	})
	t.Run("uint8", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint8]{FindUint8, ArgMinUint8, ArgMaxUint8, SegMinUint8, SegMaxUint8}, n, small[uint8](r), Mark, lt[uint8])
	})
	t.Run("uint16", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint16]{FindUint16, ArgMinUint16, ArgMaxUint16, SegMinUint16, SegMaxUint16}, n, small[uint16](r), Mark, lt[uint16])
	})
	t.Run("uint32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint32]{FindUint32, ArgMinUint32, ArgMaxUint32, SegMinUint32, SegMaxUint32}, n, func() uint32 { return r.Uint32() | 1<<31 }, Mark, lt[uint32])
	})
	t.Run("uint64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint64]{FindUint64, ArgMinUint64, ArgMaxUint64, SegMinUint64, SegMaxUint64}, n, small[uint64](r), Mark, lt[uint64])
	})
	t.Run("float32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[float32]{FindFloat32, ArgMinFloat32, ArgMaxFloat32, SegMinFloat32, SegMaxFloat32}, n, func() float32 { return float32(r.NormFloat64()) }, Mark, lt[float32])
	})
	t.Run("float64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[float64]{FindFloat64, ArgMinFloat64, ArgMaxFloat64, SegMinFloat64, SegMaxFloat64}, n, small[float64](r), Mark, lt[float64])
	})
	t.Run("Item", func(t *testing.T) {
		// Items are equal by Key alone for the order but not as values, so
		// an index one off shows in the value too.
		checkType(t, r, dut, cpu, ops[Item]{FindItem, ArgMinItem, ArgMaxItem, SegMinItem, SegMaxItem}, n,
			func() Item { return Item{Key: uint32(r.IntN(100)), Weight: float32(r.Float64())} }, Item{Key: Mark}, LessItem)
	})
	t.Run("NaN", func(t *testing.T) {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(r.NormFloat64())
			if r.IntN(5) == 0 {
				xs[i] = float32(math.NaN())
			}
		}
		for _, max := range []bool{false, true} {
			op := ArgMinNaN
			if max {
				op = ArgMaxNaN
			}
			wv, wi := oracleArg(xs, LessNaNFloat32, max)
			for _, d := range []*runtime.Device{dut, cpu} {
				v, i := argOn(t, d, op, xs)
				require.Equal(t, wi, i, "index (max=%v) on %s", max, d)
				if wi >= 0 {
					require.Equal(t, math.Float32bits(wv), math.Float32bits(v), "value (max=%v) on %s", max, d)
				}
			}
		}
	})
	t.Run("State", func(t *testing.T) {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(r.IntN(1000))
		}
		for _, key := range []int32{-1, 0, 500, 999} {
			k := Key{key}
			want := oracleFind(xs, func(x int32) bool { return x == key })
			for _, d := range []*runtime.Device{dut, cpu} {
				require.Equal(t, want, findOn(t, d, FindKey.Bind(k), xs), "key %d on %s", key, d)
			}
		}
	})
	t.Run("Iterator", func(t *testing.T) {
		hs := make([]int64, n)
		for i := range hs {
			hs[i] = Hash(int64(i))
		}
		is := func(x int64) bool { return x == Mark }
		wantFind := oracleFind(hs, is)
		wmv, wmi := oracleArg(hs, lt[int64], false)
		wxv, wxi := oracleArg(hs, lt[int64], true)
		for _, d := range []*runtime.Device{dut, cpu} {
			in := Hashed.Bind(CountI64.With(0)).Take(n)
			out := devcheck.Upload(t, d, devcheck.Poison[int64](1))
			require.NoError(t, FindHashed.Run(nil, in, out))
			require.Equal(t, wantFind, devcheck.Download(t, out)[0], "FindIf over Hash on %s", d)
			for _, c := range []struct {
				op     *runtime.ArgReduceOp[int64]
				wv, wi int64
			}{{MinHashed, wmv, wmi}, {MaxHashed, wxv, wxi}} {
				v := devcheck.Upload(t, d, devcheck.Poison[int64](1))
				i := devcheck.Upload(t, d, devcheck.Poison[int64](1))
				require.NoError(t, c.op.Run(nil, Hashed.Bind(CountI64.With(0)).Take(n), v, i))
				require.Equal(t, c.wi, devcheck.Download(t, i)[0], "index over Hash on %s", d)
				require.Equal(t, c.wv, devcheck.Download(t, v)[0], "value over Hash on %s", d)
			}
		}
	})
}

// TestGPUMatchesCPU checks the GPU against the CPU backend and the oracles.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if testing.Short() && n > 1<<20 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, gpu, cpu, n) })
	}
}

// TestCPUBackend checks the CPU backend against sequential loops; it runs
// everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if n > 1<<20 || testing.Short() && n > 10_000 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, cpu, cpu, n) })
	}
}

// TestBadArguments requires misuse to be reported before any launch.
func TestBadArguments(t *testing.T) {
	d := devcheck.OpenCPU(t)
	xs := devcheck.Upload(t, d, []int32{1, 2, 3})
	require.ErrorContains(t, FindInt32.Run(nil, xs, devcheck.Alloc[int64](t, d, 0)), "output")
	v, i := devcheck.Alloc[int32](t, d, 1), devcheck.Alloc[int64](t, d, 1)
	require.Error(t, ArgMinInt32.Run(nil, xs, v, devcheck.Alloc[int64](t, d, 0)))
	var nilOp *runtime.FindIfOp[int32]
	require.Error(t, nilOp.Run(nil, xs, devcheck.Alloc[int64](t, d, 1)))
	err := SegMinInt32.Run(nil, xs, devcheck.Upload(t, d, []int64{0, 2}), devcheck.Upload(t, d, []int64{2, 5}), devcheck.Alloc[int32](t, d, 2), devcheck.Alloc[int64](t, d, 2))
	require.Error(t, err, "a segment past the input's end")
	_ = v
	_ = i
}
