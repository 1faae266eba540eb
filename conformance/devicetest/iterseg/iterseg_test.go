package iterseg

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// The poison every output starts as: no result of the tests' inputs
// (positive values, positive sums and counts, indices >= 0) equals it.
const (
	poisonI32 = int32(-12345)
	poisonF64 = -0.25
	poisonI64 = int64(-7)
)

// devices opens the CPU backend and the GPU; without a GPU dut is nil and
// the tests check the CPU backend against sequential loops only, then skip.
func devices(t *testing.T) (dut, cpu *runtime.Device) {
	t.Helper()
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { cpu.Close() })
	g, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU (%v): checking the CPU backend against sequential loops only", err)
		return nil, cpu
	}
	t.Cleanup(func() { g.Close() })
	t.Logf("device: %s", g)
	return g, cpu
}

func skipWithoutGPU(t *testing.T, dut *runtime.Device) {
	if dut == nil {
		t.Skip("no CUDA GPU: the CPU backend matched the sequential loops; the GPU comparison needs one")
	}
}

func poisoned[T any](t *testing.T, d *runtime.Device, n int, p T) *runtime.Slice[T] {
	return devcheck.Upload(t, d, slices.Repeat([]T{p}, n))
}

// check requires run, on the CPU backend and on the GPU, to return want.
func check[T any](t *testing.T, dut, cpu *runtime.Device, name string, want []T, run func(d *runtime.Device) []T) {
	t.Helper()
	require.Equal(t, want, run(cpu), "%s, CPU backend", name)
	if dut != nil {
		require.Equal(t, want, run(dut), "%s, GPU", name)
	}
}

// data is one random draw: values that are never zero.
type data struct {
	n    int
	xs   []int32   // in [1, 1000]
	fs   []float64 // integers in [1, 1000]: sums are exact in any order
	idx  []int64   // indices into fs, with repeats
	at   int32     // a counter's start
	seed uint64
}

func draw(r *rand.Rand, n int) *data {
	x := &data{n: n, at: int32(r.IntN(1 << 16)), seed: r.Uint64()}
	for range n {
		x.xs = append(x.xs, int32(1+r.IntN(1000)))
		x.fs = append(x.fs, float64(1+r.IntN(1000)))
		x.idx = append(x.idx, int64(r.IntN(n)))
	}
	return x
}

// gather is GatherF64 on the host.
func (x *data) gather(i int) float64 { return x.fs[x.idx[i]] }

// halves is HalvesF64 on the host.
func (x *data) halves(i int) float64 { return Half(x.fs[x.n-1-i]) }

// layout returns random segments over [0, n) in order: empty ones, short
// ones, and ones longer than a tile; the last ones may be clamped.
func layout(r *rand.Rand, n int) (begin, end []int64) {
	begin, end = []int64{}, []int64{}
	for pos := 0; pos < n || len(begin) < 3; {
		var l int
		switch p := r.IntN(10); {
		case p < 2:
			l = 0
		case p < 7:
			l = 1 + r.IntN(40)
		case p < 9:
			l = 500 + r.IntN(4000)
		default:
			l = 4097 + r.IntN(16000)
		}
		b := min(pos, n)
		e := min(pos+l, n)
		begin, end = append(begin, int64(b)), append(end, int64(e))
		pos += l
	}
	return begin, end
}

// fold is the oracle of a segmented reduction: init plus the values of
// [b, e), then the poison of the tail.
func fold[T int32 | float64](begin, end []int64, init T, at func(i int) T, tail int, poison T) []T {
	out := make([]T, 0, len(begin)+tail)
	for s := range begin {
		acc := init
		for i := begin[s]; i < end[s]; i++ {
			acc += at(int(i))
		}
		out = append(out, acc)
	}
	return append(out, slices.Repeat([]T{poison}, tail)...)
}

// TestSegmentedReduceIteratorsMatchCPU: SegmentedReduce with values and
// begin/end offsets read through compositions, on fixed-size segments
// (short, longer than a tile, every fourth empty), random layouts with
// empty segments and segments that cross tiles, prefixes and segments of
// one item, into poisoned outputs.
func TestSegmentedReduceIteratorsMatchCPU(t *testing.T) {
	dut, cpu := devices(t)
	r := devcheck.Rand(t)
	const tail = 3
	for _, k := range []int{0, 1, 3, 130, 30000} {
		st := int64(r.IntN(50))
		for _, c := range []struct {
			name string
			op   *runtime.SegmentedReduceOp[int32]
			seg  int64
			ends func(i int64) int64
			endc *it.In[int64]
			next int64 // the end composition's counter is st + next
		}{
			// The end offsets are the begin offsets one segment on.
			{"SegShort", SegShort, ShortSeg, TimesShort, ShortStart, 1},
			{"SegLong", SegLong, LongSeg, TimesLong, LongStart, 1},
			{"SegSomeEmpty", SegSomeEmpty, ShortSeg, EndsSomeEmpty, SomeEmpty, 0},
		} {
			if c.seg == LongSeg && k > 300 {
				continue
			}
			n := int(st+int64(k)+1) * int(c.seg)
			x := draw(r, n)
			begin, end := make([]int64, k), make([]int64, k)
			for s := range k {
				begin[s], end[s] = (st+int64(s))*c.seg, c.ends(st+int64(s)+c.next)
			}
			want := fold(begin, end, 5, func(i int) int32 { return x.xs[i] }, tail, poisonI32)
			start := ShortStart
			if c.seg == LongSeg {
				start = LongStart
			}
			check(t, dut, cpu, c.name, want, func(d *runtime.Device) []int32 {
				out := poisoned(t, d, k+tail, poisonI32)
				require.NoError(t, c.op.Run(nil, devcheck.Upload(t, d, x.xs),
					start.Bind(CountI64.With(st)).Take(k), c.endc.Bind(CountI64.With(st+c.next)), out, 5), "%s, k=%d", c.name, k)
				return devcheck.Download(t, out)
			})
		}
	}

	for _, n := range []int{0, 1, 4097, 100003, 1 << 20} {
		x := draw(r, n)
		begin, end := layout(r, n)
		k := len(begin)
		check(t, dut, cpu, "SegMixed", fold(begin, end, 2, func(i int) int32 { return Mix(x.at + int32(i)) }, tail, poisonI32),
			func(d *runtime.Device) []int32 {
				out := poisoned(t, d, k+tail, poisonI32)
				require.NoError(t, SegMixed.Run(nil, Mixed.Bind(CountI32.With(x.at)).Take(n), devcheck.Upload(t, d, begin), devcheck.Upload(t, d, end), out, 2), "SegMixed, n=%d", n)
				return devcheck.Download(t, out)
			})
		if n == 0 {
			continue // a Permutation of no indices, a Reverse of nothing: below
		}
		check(t, dut, cpu, "SegGather", fold(begin, end, 0.5, x.gather, tail, poisonF64), func(d *runtime.Device) []float64 {
			out := poisoned(t, d, k+tail, poisonF64)
			require.NoError(t, SegGather.Run(nil, GatherF64.Bind(XsF64.With(devcheck.Upload(t, d, x.fs)), Idx.With(devcheck.Upload(t, d, x.idx))), devcheck.Upload(t, d, begin), devcheck.Upload(t, d, end), out, 0.5), "SegGather, n=%d", n)
			return devcheck.Download(t, out)
		})
		const c = 3.0
		ends := make([]int64, k)
		for s := range ends {
			ends[s] = int64(r.IntN(n + 1))
		}
		zeros := make([]int64, k)
		check(t, dut, cpu, "SegPrefix", fold(zeros, ends, 1.0, func(int) float64 { return c }, tail, poisonF64), func(d *runtime.Device) []float64 {
			out := poisoned(t, d, k+tail, poisonF64)
			require.NoError(t, SegPrefix.Run(nil, ConstF64.Bind(ConstF64.With(c)).Take(n), ConstI64.Bind(ConstI64.With(0)), devcheck.Upload(t, d, ends), out, 1), "SegPrefix, n=%d", n)
			return devcheck.Download(t, out)
		})
		units := make([]int64, n+1)
		for i := range units {
			units[i] = int64(i)
		}
		check(t, dut, cpu, "SegUnit", fold(units[:n], units[1:], 0.0, x.halves, tail, poisonF64), func(d *runtime.Device) []float64 {
			out := poisoned(t, d, n+tail, poisonF64)
			require.NoError(t, SegUnit.Run(nil, HalvesF64.Bind(XsF64.With(devcheck.Upload(t, d, x.fs))), CountI64.Bind(CountI64.With(0)).Take(n), CountI64.Bind(CountI64.With(1)), out, 0), "SegUnit, n=%d", n)
			return devcheck.Download(t, out)
		})
	}
	skipWithoutGPU(t, dut)
}

// histogram is the oracle: counts of bin(x) over n samples, then the
// poison of the tail.
func histogram(n, bins int, at func(i int) int, tail int) []int32 {
	h := make([]int32, bins, bins+tail)
	for i := range n {
		if b := at(i); b >= 0 {
			h[b]++
		}
	}
	return append(h, slices.Repeat([]int32{poisonI32}, tail)...)
}

func evenBin(x, lower, upper float64, bins int) int {
	if !(x >= lower && x < upper) {
		return -1
	}
	return min(int((x-lower)*float64(bins)/(upper-lower)), bins-1)
}

func rangeBin[T int32 | float64](levels []T, x T) int {
	i, _ := slices.BinarySearchFunc(levels, x, func(l, x T) int {
		if l <= x {
			return -1
		}
		return 1
	})
	if i == 0 || i == len(levels) {
		return -1
	}
	return i - 1
}

// TestHistogramIteratorsMatchCPU: HistogramEven and HistogramRange with
// samples read through compositions, one tile and many, privatized and
// global counters, into poisoned histograms.
func TestHistogramIteratorsMatchCPU(t *testing.T) {
	dut, cpu := devices(t)
	r := devcheck.Rand(t)
	const tail = 2
	for _, n := range []int{1, 4095, 4096, 4097, 100003, 1 << 20} {
		x := draw(r, n)
		for _, bins := range []int{1, 37, 3000} {
			// Mix's values are in [1, 1000003]: integer bins are exact.
			const lo, hi = 1, 1000004
			want := histogram(n, bins, func(i int) int {
				v := int64(Mix(x.at + int32(i)))
				if v < lo || v >= hi {
					return -1
				}
				return int((v - lo) * int64(bins) / (hi - lo))
			}, tail)
			check(t, dut, cpu, "EvenMixed", want, func(d *runtime.Device) []int32 {
				h := poisoned(t, d, bins+tail, poisonI32)
				require.NoError(t, EvenMixed.Run(nil, Mixed.Bind(CountI32.With(x.at)).Take(n), h, bins, lo, hi), "EvenMixed, n=%d bins=%d", n, bins)
				return devcheck.Download(t, h)
			})
			// Bins of width 1000/bins over [0.5, 1000.5): power-of-two
			// counts keep the scale exact, as the float64 rounding needs.
			fb := 1 << (bins % 7)
			check(t, dut, cpu, "EvenGather", histogram(n, fb, func(i int) int { return evenBin(x.gather(i), 0.5, 1024.5, fb) }, tail), func(d *runtime.Device) []int32 {
				h := poisoned(t, d, fb+tail, poisonI32)
				require.NoError(t, EvenGather.Run(nil, GatherF64.Bind(XsF64.With(devcheck.Upload(t, d, x.fs)), Idx.With(devcheck.Upload(t, d, x.idx))), h, fb, 0.5, 1024.5), "EvenGather, n=%d bins=%d", n, fb)
				return devcheck.Download(t, h)
			})

			levels := make([]int32, bins+1)
			for i := range levels {
				levels[i] = int32(i*7 - bins*3)
			}
			c := int32(r.IntN(bins*7+1) - bins*3)
			check(t, dut, cpu, "RangeConst", histogram(n, bins, func(int) int { return rangeBin(levels, c) }, tail), func(d *runtime.Device) []int32 {
				h := poisoned(t, d, bins+tail, poisonI32)
				require.NoError(t, RangeConst.Run(nil, ConstI32.Bind(ConstI32.With(c)).Take(n), h, devcheck.Upload(t, d, levels)), "RangeConst, n=%d bins=%d", n, bins)
				return devcheck.Download(t, h)
			})
			flv := make([]float64, bins+1)
			for i := range flv {
				flv[i] = 10 + float64(i)*480/float64(bins)
			}
			check(t, dut, cpu, "RangeHalves", histogram(n, bins, func(i int) int { return rangeBin(flv, x.halves(i)) }, tail), func(d *runtime.Device) []int32 {
				h := poisoned(t, d, bins+tail, poisonI32)
				require.NoError(t, RangeHalves.Run(nil, HalvesF64.Bind(XsF64.With(devcheck.Upload(t, d, x.fs))), h, devcheck.Upload(t, d, flv)), "RangeHalves, n=%d bins=%d", n, bins)
				return devcheck.Download(t, h)
			})
		}
	}
	skipWithoutGPU(t, dut)
}

// bound is the oracle of a search: for each value, the first index of data
// where right holds, then the poison of the tail.
func bound[T any](data []T, m int, value func(i int) T, right func(d, v T) bool, tail int) []int64 {
	out := make([]int64, 0, m+tail)
	for i := range m {
		v := value(i)
		j, _ := slices.BinarySearchFunc(data, v, func(d, v T) int {
			if right(d, v) {
				return 1
			}
			return -1
		})
		out = append(out, int64(j))
	}
	return append(out, slices.Repeat([]int64{poisonI64}, tail)...)
}

// TestSearchIteratorsMatchCPU: LowerBound and UpperBound with the sorted
// data and the search values read through compositions, into poisoned
// outputs.
func TestSearchIteratorsMatchCPU(t *testing.T) {
	dut, cpu := devices(t)
	r := devcheck.Rand(t)
	const tail = 2
	for _, n := range []int{1, 255, 256, 257, 100003, 1 << 20} {
		x := draw(r, n)
		sorted := slices.Clone(x.xs)
		slices.Sort(sorted)
		for i := range sorted {
			sorted[i] *= 1009 // spread over Mix's values
		}
		m := n/2 + 1
		check(t, dut, cpu, "LowerMixed", bound(sorted, m, func(i int) int32 { return Mix(x.at + int32(i)) }, func(d, v int32) bool { return !LessI32(d, v) }, tail), func(d *runtime.Device) []int64 {
			out := poisoned(t, d, m+tail, poisonI64)
			require.NoError(t, LowerMixed.Run(nil, devcheck.Upload(t, d, sorted), Mixed.Bind(CountI32.With(x.at)).Take(m), out), "LowerMixed, n=%d", n)
			return devcheck.Download(t, out)
		})
		tripled := make([]int32, n)
		for i := range tripled {
			tripled[i] = Triple(x.at + int32(i))
		}
		values := make([]int32, n)
		for i := range values {
			values[i] = 3*x.at + int32(r.IntN(3*n+6)) - 3
		}
		check(t, dut, cpu, "UpperTripled", bound(tripled, n, func(i int) int32 { return values[i] }, func(d, v int32) bool { return LessI32(v, d) }, tail), func(d *runtime.Device) []int64 {
			out := poisoned(t, d, n+tail, poisonI64)
			require.NoError(t, UpperTripled.Run(nil, Tripled.Bind(CountI32.With(x.at)).Take(n), devcheck.Upload(t, d, values), out), "UpperTripled, n=%d", n)
			return devcheck.Download(t, out)
		})
		counting := make([]float64, n)
		for i := range counting {
			counting[i] = 100.5 + float64(i)
		}
		check(t, dut, cpu, "LowerCount", bound(counting, n, x.gather, func(d, v float64) bool { return !LessF64(d, v) }, tail), func(d *runtime.Device) []int64 {
			out := poisoned(t, d, n+tail, poisonI64)
			require.NoError(t, LowerCount.Run(nil, CountF64.Bind(CountF64.With(100.5)).Take(n), GatherF64.Bind(XsF64.With(devcheck.Upload(t, d, x.fs)), Idx.With(devcheck.Upload(t, d, x.idx))), out), "LowerCount, n=%d", n)
			return devcheck.Download(t, out)
		})
		sortedF := slices.Clone(x.fs)
		slices.Sort(sortedF)
		c := sortedF[r.IntN(n)]
		check(t, dut, cpu, "UpperConst", bound(sortedF, m, func(int) float64 { return c }, func(d, v float64) bool { return LessF64(v, d) }, tail), func(d *runtime.Device) []int64 {
			out := poisoned(t, d, m+tail, poisonI64)
			require.NoError(t, UpperConst.Run(nil, devcheck.Upload(t, d, sortedF), ConstF64.Bind(ConstF64.With(c)).Take(m), out), "UpperConst, n=%d", n)
			return devcheck.Download(t, out)
		})
	}
	skipWithoutGPU(t, dut)
}

// TestUndeclaredIterators: a composition no instance declared is an error
// naming the declaration to add, on a GPU and on the CPU backend alike.
func TestUndeclaredIterators(t *testing.T) {
	dut, cpu := devices(t)
	for _, d := range []*runtime.Device{cpu, dut} {
		if d == nil {
			continue
		}
		xs := devcheck.Upload(t, d, []int32{1, 2, 3})
		offs := devcheck.Upload(t, d, []int64{0, 3})
		out := poisoned(t, d, 4, poisonI32)
		hist := poisoned(t, d, 4, poisonI32)
		idx := poisoned(t, d, 4, poisonI64)
		levels := devcheck.Upload(t, d, []int32{0, 5, 10})
		for _, c := range []struct {
			name, want string
			err        error
		}{
			{"SegmentedReduce", "Over(iterator.Transform(iterator.Counting[int32](), github.com/gocccl/gocccl/conformance/devicetest/iterseg.Mix), iterator.Transform(iterator.Counting[int64](), github.com/gocccl/gocccl/conformance/devicetest/iterseg.TimesShort), iterator.Slice[int64]())",
				SegShort.Run(nil, Mixed.Bind(CountI32.With(0)).Take(3), ShortStart.Bind(CountI64.With(0)).Take(1), offs.Range(1, 2), out, 0)},
			{"HistogramEven", "runtime.HistogramEven[int32]().Over(iterator.Constant[int32]())",
				EvenMixed.Run(nil, ConstI32.Bind(ConstI32.With(1)).Take(3), hist, 2, 0, 4)},
			{"HistogramRange", "runtime.HistogramRange[int32]().Over(iterator.Transform(iterator.Counting[int32](), github.com/gocccl/gocccl/conformance/devicetest/iterseg.Mix))",
				RangeConst.Run(nil, Mixed.Bind(CountI32.With(0)).Take(3), hist, levels)},
			{"LowerBound", "Over(iterator.Slice[int32](), iterator.Constant[int32]())",
				LowerMixed.Run(nil, xs, ConstI32.Bind(ConstI32.With(2)).Take(2), idx)},
			// Empty calls too: a GPU returned before looking the kernels up.
			{"SegmentedReduce of no segments", "iterator.Transform(iterator.Counting[int64](), github.com/gocccl/gocccl/conformance/devicetest/iterseg.TimesShort), iterator.Slice[int64]())",
				SegShort.Run(nil, Mixed.Bind(CountI32.With(0)).Take(3), ShortStart.Bind(CountI64.With(0)).Take(0), offs.Range(1, 1), out, 0)},
			{"LowerBound of no values", "Over(iterator.Slice[int32](), iterator.Constant[int32]())",
				LowerMixed.Run(nil, xs, ConstI32.Bind(ConstI32.With(2)).Take(0), idx)},
		} {
			require.ErrorIs(t, c.err, runtime.ErrNotGenerated, "%s on %s", c.name, d)
			require.ErrorContains(t, c.err, c.want, "%s on %s", c.name, d)
			require.Equal(t, 1, strings.Count(c.err.Error(), "gocccl: "), "%s: one prefix: %v", c.name, c.err)
		}
	}
}
