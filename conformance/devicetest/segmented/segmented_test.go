package segmented

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths every algorithm is checked at; 2^26 only on
// the GPU.
var sizes = []int{0, 1, 4095, 4096, 4097, 7919, 1_000_003, 1 << 26}

// shape is a segmentation: begin and end offsets.
type shape struct {
	name       string
	begin, end []int64
}

// shapes returns the segmentations of n items under test.
func shapes(r *rand.Rand, n int) []shape {
	var out []shape
	for _, k := range []int{1024, 7, 5000} {
		var b, e []int64
		for lo := 0; lo < n; {
			hi := lo + k
			if k != 1024 {
				hi = lo + r.IntN(2*k+1)
			}
			hi = min(n, hi)
			b, e = append(b, int64(lo)), append(e, int64(hi))
			lo = hi
		}
		out = append(out, shape{"seg~" + strconv.Itoa(k), b, e})
	}
	out = append(out, shape{"one", []int64{0}, []int64{int64(n)}}, shape{"none", nil, nil})
	if n <= 1_000_003 {
		ones := make([]int64, n+1)
		for i := range ones {
			ones[i] = int64(i)
		}
		out = append(out, shape{"ones", ones[:n], ones[1:]})
	}
	m := 1 + r.IntN(20_000)
	b, e := make([]int64, m), make([]int64, m)
	for i := range b {
		x := r.IntN(n + 1)
		y := min(n, x+r.IntN(3000))
		if r.IntN(8) == 0 {
			y = x
		}
		b[i], e[i] = int64(x), int64(y)
	}
	return append(out, shape{"scattered", b, e})
}

// segmentedOn runs op on d over xs and sh, on poisoned outputs.
func segmentedOn[T any](t *testing.T, d *runtime.Device, op *runtime.SegmentedReduceOp[T], xs []T, sh shape, init T) []T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](len(sh.begin)))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), devcheck.Upload(t, d, sh.begin), devcheck.Upload(t, d, sh.end), out, init))
	return devcheck.Download(t, out)
}

// fixedOn runs op.RunFixed on d over xs in segments of size items, on a
// poisoned output one longer than the segment count (the extra item must
// keep its poison).
func fixedOn[T any](t *testing.T, d *runtime.Device, op *runtime.SegmentedReduceOp[T], xs []T, size int, init T) []T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T]((len(xs)+size-1)/size+1))
	require.NoError(t, op.RunFixed(nil, devcheck.Upload(t, d, xs), size, out, init))
	return devcheck.Download(t, out)
}

// fixedCase checks RunFixed against the oracle over the same segments
// given as offsets, on dut and the CPU backend.
func fixedCase[T any](t *testing.T, dut, cpu *runtime.Device, op *runtime.SegmentedReduceOp[T], fn func(T, T) T, xs []T, size int, init T) {
	t.Helper()
	var sh shape
	for lo := 0; lo < len(xs); lo += size {
		sh.begin, sh.end = append(sh.begin, int64(lo)), append(sh.end, int64(min(len(xs), lo+size)))
	}
	want := append(oracleSegmented(fn, xs, sh, init), devcheck.Poison[T](1)...)
	for _, d := range []*runtime.Device{dut, cpu} {
		devcheck.RequireBitEqual(t, want, fixedOn(t, d, op, xs, size, init), "RunFixed, segments of "+strconv.Itoa(size)+" on "+d.String())
	}
}

func transformReduceOn[In, T any](t *testing.T, d *runtime.Device, op *runtime.TransformReduceOp[In, T], xs []In, init T) T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out, init))
	return devcheck.Download(t, out)[0]
}

func oracleSegmented[T any](op func(T, T) T, xs []T, sh shape, init T) []T {
	out := make([]T, len(sh.begin))
	for i := range out {
		acc := init
		for _, v := range xs[sh.begin[i]:sh.end[i]] {
			acc = op(acc, v)
		}
		out[i] = acc
	}
	return out
}

// exactCase checks an integer or min/max instance exactly.
func exactCase[T comparable](t *testing.T, dut, cpu *runtime.Device, op *runtime.SegmentedReduceOp[T], fn func(T, T) T, xs []T, sh shape, init T) {
	t.Helper()
	want := oracleSegmented(fn, xs, sh, init)
	if dut != cpu {
		require.Equal(t, want, segmentedOn(t, cpu, op, xs, sh, init), "CPU backend")
	}
	require.Equal(t, want, segmentedOn(t, dut, op, xs, sh, init))
}

// hints are the MaxSegmentSize promises under test: the thread kernel's
// range (up to 16 four-byte items, 4 Stats, 32 bytes), the sub-warp's (up
// to 128), the warp's (up to 512) and Run's dispatch beyond.
var hints = []int{1, 4, 16, 17, 128, 129, 512, 1024}

// shapesMax returns segmentations of n items that keep a promise of at
// most m items a segment: consecutive ones of random lengths 0..m,
// consecutive ones of m, and scattered ones.
func shapesMax(r *rand.Rand, n, m int) []shape {
	var random, full shape
	for lo := 0; lo < n; {
		hi := min(n, lo+r.IntN(m+1))
		random.begin, random.end = append(random.begin, int64(lo)), append(random.end, int64(hi))
		lo = hi
	}
	for lo := 0; lo < n; lo += m {
		full.begin, full.end = append(full.begin, int64(lo)), append(full.end, int64(min(n, lo+m)))
	}
	k := 1 + r.IntN(20_000)
	sc := shape{begin: make([]int64, k), end: make([]int64, k)}
	for i := range sc.begin {
		x := r.IntN(n + 1)
		sc.begin[i], sc.end[i] = int64(x), int64(min(n, x+r.IntN(m+1)))
	}
	random.name, full.name, sc.name = "random", "full", "scattered"
	return []shape{random, full, sc}
}

// hintOn runs op.RunWith with o on d over xs and sh, on poisoned outputs.
func hintOn[T any](t *testing.T, d *runtime.Device, op *runtime.SegmentedReduceOp[T], xs []T, sh shape, init T, o runtime.SegmentedReduceOptions) []T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](len(sh.begin)+1))
	require.NoError(t, op.RunWith(nil, devcheck.Upload(t, d, xs), devcheck.Upload(t, d, sh.begin), devcheck.Upload(t, d, sh.end), out, init, o))
	return devcheck.Download(t, out)
}

// hintCase checks RunWith with o bit for bit against the oracle on dut and
// the CPU backend: the operators it is given are exact in any order.
func hintCase[T any](t *testing.T, dut, cpu *runtime.Device, op *runtime.SegmentedReduceOp[T], fn func(T, T) T, xs []T, sh shape, init T, o runtime.SegmentedReduceOptions) {
	t.Helper()
	want := append(oracleSegmented(fn, xs, sh, init), devcheck.Poison[T](1)...)
	for _, d := range []*runtime.Device{dut, cpu} {
		devcheck.RequireBitEqual(t, want, hintOn(t, d, op, xs, sh, init, o), "MaxSegmentSize "+strconv.Itoa(o.MaxSegmentSize)+" on "+d.String())
		if dut == cpu {
			return
		}
	}
}

// floatSums checks float sums per segment within a tolerance relative to
// the sum of magnitudes.
func floatSums[T float32 | float64](t *testing.T, dut *runtime.Device, op *runtime.SegmentedReduceOp[T], xs []T, sh shape, init T, eps float64) {
	t.Helper()
	got := segmentedOn(t, dut, op, xs, sh, init)
	for i := range got {
		exact, mag := float64(init), math.Abs(float64(init))
		for _, v := range xs[sh.begin[i]:sh.end[i]] {
			exact += float64(v)
			mag += math.Abs(float64(v))
		}
		// Random-sign sums drift like sqrt(len) roundings in any order.
		tol := 4 * eps * mag * max(1, math.Sqrt(float64(sh.end[i]-sh.begin[i])))
		require.InDelta(t, exact, float64(got[i]), tol, "segment %d [%d, %d)", i, sh.begin[i], sh.end[i])
	}
}

func check(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, n int) {
	i32, u32, i64 := make([]int32, n), make([]uint32, n), make([]int64, n)
	u8, f32, f64 := make([]uint8, n), make([]float32, n), make([]float64, n)
	for i := range n {
		i32[i], u32[i], i64[i] = int32(r.Uint32()), r.Uint32(), int64(r.Uint64())
		u8[i], f32[i], f64[i] = uint8(r.Uint32()), float32(r.NormFloat64()), r.Float64()*2-1
	}
	small32 := make([]float32, n)
	for i := range small32 {
		small32[i] = float32(r.IntN(7) - 3)
	}
	// Above 2^22 items a subset keeps the sequential oracles within the GPU
	// bundle's time limit: 64-bit indexing and the large-grid paths are
	// what the largest size is for.
	big := n > 1<<22
	for _, sh := range shapes(r, n) {
		if big && sh.name == "seg~5000" {
			continue
		}
		t.Run("SegmentedReduce/"+sh.name, func(t *testing.T) {
			if big {
				exactCase(t, dut, cpu, SegSumUint32, AddUint32, u32, sh, r.Uint32())
				exactCase(t, dut, cpu, SegMaxFloat32, MaxFloat32, f32, sh, float32(math.Inf(-1)))
				exactCase(t, dut, cpu, SegSumFloat32, AddFloat32, small32, sh, 3)
				exactCase(t, dut, cpu, SegMinInt64, MinInt64, i64, sh, math.MaxInt64)
				return
			}
			exactCase(t, dut, cpu, SegSumInt32, AddInt32, i32, sh, int32(r.Uint32()))
			exactCase(t, dut, cpu, SegMaxInt32, MaxInt32, i32, sh, math.MinInt32)
			exactCase(t, dut, cpu, SegSumUint32, AddUint32, u32, sh, r.Uint32())
			exactCase(t, dut, cpu, SegMaxUint32, MaxUint32, u32, sh, 0)
			exactCase(t, dut, cpu, SegSumInt64, AddInt64, i64, sh, int64(r.Uint64()))
			exactCase(t, dut, cpu, SegMinInt64, MinInt64, i64, sh, math.MaxInt64)
			exactCase(t, dut, cpu, SegSumUint8, AddUint8, u8, sh, uint8(r.Uint32()))
			exactCase(t, dut, cpu, SegMaxFloat32, MaxFloat32, f32, sh, float32(math.Inf(-1)))
			floatSums(t, dut, SegSumFloat32, f32, sh, 0.5, 0x1p-24)
			// Small integers have exact float sums in any order: every
			// element must be counted exactly once.
			exactCase(t, dut, cpu, SegSumFloat32, AddFloat32, small32, sh, 3)
			floatSums(t, dut, SegSumFloat64, f64, sh, 0.5, 0x1p-53)
			stats := make([]Stat, n)
			for i, x := range f32 {
				stats[i] = ToStat(x)
			}
			init := Stat{Sum: 1, Min: float32(math.Inf(1))}
			got := segmentedOn(t, dut, SegStat, stats, sh, init)
			want := oracleSegmented(AddStat, stats, sh, init)
			for i := range got {
				require.Equal(t, want[i].Min, got[i].Min, "segment %d", i)
				require.Equal(t, want[i].Count, got[i].Count, "segment %d", i)
				require.InDelta(t, want[i].Sum, got[i].Sum, 1e-12*float64(want[i].Count+1)*4, "segment %d", i)
			}
		})
	}
	for _, size := range []int{1, 7, 32, 1024, 1025, 5000, n + 1} {
		if big && size < 1024 {
			continue
		}
		t.Run("SegmentedReduce/fixed "+strconv.Itoa(size), func(t *testing.T) {
			fixedCase(t, dut, cpu, SegSumUint32, AddUint32, u32, size, r.Uint32())
			fixedCase(t, dut, cpu, SegMinInt64, MinInt64, i64, size, math.MaxInt64)
			fixedCase(t, dut, cpu, SegSumFloat32, AddFloat32, small32, size, 3)
			fixedCase(t, dut, cpu, SegSumUint8, AddUint8, u8, size, uint8(r.Uint32()))
		})
	}
	for _, m := range hints {
		if big && m != 4 && m != 128 {
			continue
		}
		for _, sh := range shapesMax(r, n, m) {
			t.Run("SegmentedReduce/max "+strconv.Itoa(m)+" "+sh.name, func(t *testing.T) {
				o := runtime.SegmentedReduceOptions{MaxSegmentSize: m}
				hintCase(t, dut, cpu, SegSumUint32, AddUint32, u32, sh, r.Uint32(), o)
				hintCase(t, dut, cpu, SegMaxFloat32, MaxFloat32, f32, sh, float32(math.Inf(-1)), o)
				hintCase(t, dut, cpu, SegSumFloat32, AddFloat32, small32, sh, 3, o)
				hintCase(t, dut, cpu, SegMinInt64, MinInt64, i64, sh, math.MaxInt64, o)
				if big {
					return
				}
				hintCase(t, dut, cpu, SegSumUint8, AddUint8, u8, sh, uint8(r.Uint32()), o)
				stats := make([]Stat, n)
				for i := range stats {
					stats[i] = ToStat(small32[i])
				}
				hintCase(t, dut, cpu, SegStat, AddStat, stats, sh, Stat{Sum: 1, Min: float32(math.Inf(1))}, o)
			})
		}
	}
	runLens := []int{1, 7, 1000, n + 1}
	if big {
		runLens = []int{7}
	}
	for _, runLen := range runLens {
		t.Run("ReduceByKey/runs~"+strconv.Itoa(runLen), func(t *testing.T) {
			keys, keys64 := make([]uint32, n), make([]int64, n)
			spans, stats := make([]Span, n), make([]Stat, n)
			small := make([]float32, n)
			k := r.Uint32()
			for i := range n {
				if runLen == 1 || i > 0 && r.IntN(runLen) == 0 {
					k++
				}
				keys[i], keys64[i] = k, int64(k)<<20
				spans[i] = Span{int64(i), int64(i)}
				stats[i] = ToStat(f32[i])
				small[i] = float32(r.IntN(7) - 3)
			}
			byKeyExact(t, dut, ByKeySumUint32, EqUint32, AddUint32, keys, u32)
			byKeyExact(t, dut, ByKeyMinInt64, EqInt64, MinInt64, keys64, i64)
			byKeyExact(t, dut, ByKeySpan, EqUint32, Join, keys, spans)
			if big {
				return
			}
			byKeyExact(t, dut, ByKeySumFloat32, EqUint32, AddFloat32, keys, small)
			wk, wv := oracleByKey(EqUint32, AddFloat32, keys, f32)
			gk, gv := byKeyOn(t, dut, ByKeySumFloat32, keys, f32)
			devcheck.RequireBitEqual(t, wk, gk, "ReduceByKey[uint32, float32] keys")
			for i := range wv {
				require.InDelta(t, wv[i], gv[i], 1e-4*float64(runLen), "run %d", i)
			}
			_, ws := oracleByKey(EqInt64, AddStat, keys64, stats)
			_, gs := byKeyOn(t, dut, ByKeyStat, keys64, stats)
			require.Len(t, gs, len(ws))
			for i := range ws {
				require.Equal(t, ws[i].Count, gs[i].Count)
				require.Equal(t, ws[i].Min, gs[i].Min)
				require.InDelta(t, ws[i].Sum, gs[i].Sum, 1e-9*float64(ws[i].Count+1))
			}
		})
	}
	t.Run("AdjacentDifference", func(t *testing.T) {
		u64 := make([]uint64, n)
		stats := make([]Stat, n)
		for i := range n {
			u64[i] = r.Uint64()
			stats[i] = Stat{Sum: float64(f32[i]), Min: f32[i], Count: int32(i)}
		}
		adjacentCase(t, dut, DiffInt32, SubInt32, i32)
		adjacentCase(t, dut, DiffFloat32, SubFloat32, f32)
		adjacentCase(t, dut, DiffUint64, SubUint64, u64)
		adjacentCase(t, dut, DiffStat, Gap, stats)
	})
	t.Run("ForEach", func(t *testing.T) {
		stats := make([]Stat, n)
		for i := range n {
			stats[i] = ToStat(f32[i])
		}
		forEachCase(t, dut, StepAll, StepUint32, u32)
		forEachCase(t, dut, HalveAll, HalveFloat64, f64)
		forEachCase(t, dut, BumpStats, BumpStat, stats)
	})
	t.Run("TransformReduce", func(t *testing.T) {
		var wantU, wantM uint32 = 7, 0
		var wantW int64 = 9
		// sq is compensated (Neumaier): a plain serial sum of 2^26 squares
		// is itself off by ~sqrt(n) ulps, more than the GPU's tree.
		var sq, comp, mag float64 = 0.5, 0, 0.5
		st := Stat{Min: float32(math.Inf(1))}
		for i := range n {
			wantU = AddUint32(wantU, Low8(u32[i]))
			wantM = MaxUint32(wantM, Low8(u32[i]))
			wantW = AddInt64(wantW, WidenInt(i32[i]))
			x := SquareF64(f32[i])
			if t := sq + x; math.Abs(sq) >= math.Abs(x) {
				comp += (sq - t) + x
				sq = t
			} else {
				comp += (x - t) + sq
				sq = t
			}
			mag += x
			st = AddStat(st, ToStat(f32[i]))
		}
		sq += comp
		for _, d := range []*runtime.Device{dut, cpu} {
			require.Equal(t, wantU, transformReduceOn(t, d, SumLow8, u32, 7))
			require.Equal(t, wantM, transformReduceOn(t, d, MaxLow8, u32, 0))
			require.Equal(t, wantW, transformReduceOn(t, d, SumWidened, i32, 9))
			require.InDelta(t, sq, transformReduceOn(t, d, SumSquares, f32, 0.5), 1e-12*mag)
			got := transformReduceOn(t, d, Stats, f32, Stat{Min: float32(math.Inf(1))})
			require.Equal(t, st.Min, got.Min)
			require.Equal(t, st.Count, got.Count)
			require.InDelta(t, st.Sum, got.Sum, 1e-9*mag+1e-9)
		}
	})
}

// adjacentCase checks both directions of an adjacent difference against a
// loop, bit for bit.
func adjacentCase[T any](t *testing.T, d *runtime.Device, op *runtime.AdjacentDifferenceOp[T], fn func(T, T) T, xs []T) {
	t.Helper()
	n := len(xs)
	left, right := make([]T, n), make([]T, n)
	for i := range xs {
		left[i], right[i] = xs[i], xs[i]
		if i > 0 {
			left[i] = fn(xs[i], xs[i-1])
		}
		if i < n-1 {
			right[i] = fn(xs[i], xs[i+1])
		}
	}
	for _, c := range []struct {
		name string
		run  func(*runtime.Stream, *runtime.Slice[T], *runtime.Slice[T]) error
		want []T
	}{{"AdjacentDifference", op.Run, left}, {"AdjacentDifference right", op.RunRight, right}} {
		out := devcheck.Upload(t, d, devcheck.Poison[T](n))
		require.NoError(t, c.run(nil, devcheck.Upload(t, d, xs), out))
		devcheck.RequireBitEqual(t, c.want, devcheck.Download(t, out), c.name)
	}
}

// forEachCase checks an in-place ForEach against a loop, bit for bit.
func forEachCase[T any](t *testing.T, d *runtime.Device, op *runtime.ForEachOp[T], fn func(T) T, xs []T) {
	t.Helper()
	want := make([]T, len(xs))
	for i, x := range xs {
		want[i] = fn(x)
	}
	data := devcheck.Upload(t, d, xs)
	require.NoError(t, op.Run(nil, data))
	devcheck.RequireBitEqual(t, want, devcheck.Download(t, data), "ForEach")
}

// byKeyOn runs op on d with poisoned outputs one element longer than n and
// returns the runs' keys and aggregates, checking the count and that the
// extra element was left alone.
func byKeyOn[K, V any](t *testing.T, d *runtime.Device, op *runtime.ReduceByKeyOp[K, V], keys []K, vals []V) ([]K, []V) {
	t.Helper()
	n := len(keys)
	uk, av := devcheck.Upload(t, d, devcheck.Poison[K](n+1)), devcheck.Upload(t, d, devcheck.Poison[V](n+1))
	cnt := devcheck.Upload(t, d, []int64{-7})
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, keys), devcheck.Upload(t, d, vals), uk, av, cnt))
	gk, gv := devcheck.Download(t, uk), devcheck.Download(t, av)
	runs := int(devcheck.Download(t, cnt)[0])
	require.True(t, runs >= 0 && runs <= n, "run count %d of %d keys", runs, n)
	devcheck.RequireBitEqual(t, devcheck.Poison[K](1), gk[n:], "keys past n")
	devcheck.RequireBitEqual(t, devcheck.Poison[V](1), gv[n:], "aggregates past n")
	return gk[:runs], gv[:runs]
}

// oracleByKey is a sequential reduce-by-key.
func oracleByKey[K, V any](eq func(K, K) bool, op func(V, V) V, keys []K, vals []V) ([]K, []V) {
	uk, av := []K{}, []V{}
	for i := range keys {
		if i == 0 || !eq(keys[i-1], keys[i]) {
			uk, av = append(uk, keys[i]), append(av, vals[i])
			continue
		}
		av[len(av)-1] = op(av[len(av)-1], vals[i])
	}
	return uk, av
}

// byKeyExact checks an instance whose results are exact.
func byKeyExact[K, V any](t *testing.T, d *runtime.Device, op *runtime.ReduceByKeyOp[K, V], eq func(K, K) bool, fn func(V, V) V, keys []K, vals []V) {
	t.Helper()
	wk, wv := oracleByKey(eq, fn, keys, vals)
	gk, gv := byKeyOn(t, d, op, keys, vals)
	devcheck.RequireBitEqual(t, wk, gk, "keys")
	devcheck.RequireBitEqual(t, wv, gv, "aggregates")
}

// TestGPUMatchesCPU runs every instance on the GPU, on the CPU backend and
// as a sequential loop, over fresh random inputs.
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

// TestGPUBadOffsets requires offsets out of order or past the end to read
// nothing outside the input on the GPU (segments are clamped; end < begin
// gives init), while the CPU backend reports them.
func TestGPUBadOffsets(t *testing.T) {
	devs := map[string]*runtime.Device{"cpu": devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { d.Close() })
		devs["gpu"] = d
	}
	for name, d := range devs {
		xs := []int32{1, 2, 3, 4}
		sh := shape{"bad", []int64{-5, 3, 2, 0}, []int64{2, 1, 100, 4}}
		out := devcheck.Upload(t, d, devcheck.Poison[int32](4))
		err := SegSumInt32.Run(nil, devcheck.Upload(t, d, xs), devcheck.Upload(t, d, sh.begin), devcheck.Upload(t, d, sh.end), out, 10)
		if name == "cpu" {
			require.Error(t, err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, []int32{13, 10, 17, 20}, devcheck.Download(t, out))
	}
}

// TestGPUBrokenPromise requires a GPU given a MaxSegmentSize that some
// segments exceed to reduce them all the same (the thread and sub-warp
// kernels fold segments of any length) and to read nothing outside the
// input for bad offsets, while the CPU backend reports the longer segment.
func TestGPUBrokenPromise(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	const n = 1_000_003
	xs := make([]uint32, n)
	for i := range xs {
		xs[i] = r.Uint32()
	}
	for _, sh := range shapes(r, n) {
		long := false
		for i := range sh.begin {
			long = long || sh.end[i]-sh.begin[i] > 4
		}
		for _, m := range []int{1, 4, 16, 100, 512} {
			o := runtime.SegmentedReduceOptions{MaxSegmentSize: m}
			want := append(oracleSegmented(AddUint32, xs, sh, 7), devcheck.Poison[uint32](1)...)
			devcheck.RequireBitEqual(t, want, hintOn(t, gpu, SegSumUint32, xs, sh, 7, o), sh.name+" promised "+strconv.Itoa(m))
			if long && m <= 4 {
				out := devcheck.Upload(t, cpu, devcheck.Poison[uint32](len(sh.begin)))
				err := SegSumUint32.RunWith(nil, devcheck.Upload(t, cpu, xs), devcheck.Upload(t, cpu, sh.begin), devcheck.Upload(t, cpu, sh.end), out, 7, o)
				require.ErrorContains(t, err, "longer than MaxSegmentSize")
				devcheck.RequireBitEqual(t, devcheck.Poison[uint32](len(sh.begin)), devcheck.Download(t, out), "written before the error")
			}
		}
	}
	xs4 := []int32{1, 2, 3, 4}
	sh := shape{"bad", []int64{-5, 3, 2, 0}, []int64{2, 1, 100, 4}}
	for _, m := range []int{1, 4, 16, 100} {
		out := devcheck.Upload(t, gpu, devcheck.Poison[int32](4))
		require.NoError(t, SegSumInt32.RunWith(nil, devcheck.Upload(t, gpu, xs4), devcheck.Upload(t, gpu, sh.begin), devcheck.Upload(t, gpu, sh.end), out, 10, runtime.SegmentedReduceOptions{MaxSegmentSize: m}))
		require.Equal(t, []int32{13, 10, 17, 20}, devcheck.Download(t, out), "promised %d", m)
	}
}
