package runtime_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// SgLen is the length of the fixed-size segments of the iterator tests of
// SegmentedReduce.
const SgLen = 9

//gocccl:op
func SgAdd(a, b int64) int64 { return a + b }

//gocccl:op
func SgTimes(i int64) int64 { return i * SgLen }

//gocccl:op
func SgScramble(x int64) int64 { return int64(uint64(x)*2654435761%1000003) + 1 }

//gocccl:op
func SgLess(a, b int64) bool { return a < b }

// Compositions of the iterator tests of SegmentedReduce, the histograms
// and the searches, and instances declared over them.
var (
	sgCount  = iterator.Counting[int64]()
	sgConst  = iterator.Constant[int64]()
	sgXs     = iterator.Slice[int64]()
	sgIdx    = iterator.Slice[int64]()
	sgStarts = iterator.Transform(sgCount, SgTimes)
	sgMixed  = iterator.Transform(sgCount, SgScramble)
	sgGather = iterator.Permutation(sgXs, sgIdx)

	sgFixed   = runtime.SegmentedReduce(SgAdd).Over(iterator.Slice[int64](), sgStarts, sgStarts)
	sgEven    = runtime.HistogramEven[int64]().Over(sgMixed)
	sgRange   = runtime.HistogramRange[int64]().Over(sgGather)
	sgLower   = runtime.LowerBound(SgLess).Over(iterator.Slice[int64](), sgMixed)
	sgUpper   = runtime.UpperBound(SgLess).Over(sgStarts, sgGather)
	sgPoison  = int64(-99)
	sgPoisonH = int32(-99)
)

// sgDraw returns n values in [1, 1000] and n indices into them.
func sgDraw(r *rand.Rand, n int) (xs, idx []int64) {
	for range n {
		xs, idx = append(xs, int64(1+r.IntN(1000))), append(idx, int64(r.IntN(n)))
	}
	return xs, idx
}

func sgPoisoned[T any](d *runtime.Device, n int, p T) *runtime.Slice[T] {
	return must(d, slices.Repeat([]T{p}, n))
}

func sgHost[T any](t *testing.T, s *runtime.Slice[T]) []T {
	h, err := s.ToHost()
	require.NoError(t, err)
	return h
}

// sgFold is the oracle of a segmented sum.
func sgFold(begin, end []int64, init int64, at func(i int64) int64, tail int) []int64 {
	out := []int64{}
	for s := range begin {
		acc := init
		for i := begin[s]; i < end[s]; i++ {
			acc += at(i)
		}
		out = append(out, acc)
	}
	return append(out, slices.Repeat([]int64{sgPoison}, tail)...)
}

// TestSegmentedReduceIterCPU: SegmentedReduce on the CPU backend with its
// values read through Counting, Transform, Permutation and Constant
// compositions and its offsets through Transform(Counting), Counting and
// Constant, against a sequential loop, into poisoned outputs.
func TestSegmentedReduceIterCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 9))
	const tail = 2
	for _, k := range []int{0, 1, 2, 100, 5000} {
		n := (k + 3) * SgLen
		xs, idx := sgDraw(r, n)
		st := int64(r.IntN(3))
		begin, end := make([]int64, k), make([]int64, k)
		for s := range k {
			begin[s], end[s] = SgTimes(st+int64(s)), SgTimes(st+int64(s)+1)
		}
		ends := make([]int64, k) // prefixes [0, ends[s]), some empty
		for s := range ends {
			ends[s] = int64(r.IntN(n + 1))
			if s%5 == 0 {
				ends[s] = 0
			}
		}
		zeros := make([]int64, k)
		at := int64(r.IntN(1000))
		bx, bidx := must(d, xs), must(d, idx)
		for _, c := range []struct {
			name string
			want []int64
			run  func(out *runtime.Slice[int64]) error
		}{
			{"fixed-size segments of a Slice", sgFold(begin, end, 3, func(i int64) int64 { return xs[i] }, tail), func(out *runtime.Slice[int64]) error {
				return sgFixed.Run(nil, bx, sgStarts.Bind(sgCount.With(st)).Take(k), sgStarts.Bind(sgCount.With(st+1)), out, 3)
			}},
			{"Permutation values, fixed-size segments", sgFold(begin, end, 3, func(i int64) int64 { return xs[idx[i]] }, tail), func(out *runtime.Slice[int64]) error {
				return runtime.SegmentedReduce(SgAdd).Run(nil, sgGather.Bind(sgXs.With(bx), sgIdx.With(bidx)), sgStarts.Bind(sgCount.With(st)), sgStarts.Bind(sgCount.With(st+1)).Take(k), out, 3)
			}},
			{"Transform(Counting) values, offsets in Slices", sgFold(begin, end, 0, func(i int64) int64 { return SgScramble(at + i) }, tail), func(out *runtime.Slice[int64]) error {
				return runtime.SegmentedReduce(SgAdd).Run(nil, sgMixed.Bind(sgCount.With(at)).Take(n), must(d, begin), must(d, end), out, 0)
			}},
			{"Constant values, Constant begin offsets", sgFold(zeros, ends, 1, func(int64) int64 { return 7 }, tail), func(out *runtime.Slice[int64]) error {
				return runtime.SegmentedReduce(SgAdd).Run(nil, sgConst.Bind(sgConst.With(7)).Take(n), sgConst.Bind(sgConst.With(0)), must(d, ends), out, 1)
			}},
		} {
			out := sgPoisoned(d, k+tail, sgPoison)
			require.NoError(t, c.run(out), "%s, k=%d", c.name, k)
			require.Equal(t, c.want, sgHost(t, out), "%s, k=%d", c.name, k)
		}
		// Segments of one item each: out[s] = init + (at + s).
		out := sgPoisoned(d, n+tail, sgPoison)
		require.NoError(t, runtime.SegmentedReduce(SgAdd).Run(nil, sgCount.Bind(sgCount.With(at)).Take(n), sgCount.Bind(sgCount.With(0)).Take(n), sgCount.Bind(sgCount.With(1)), out, 2))
		want := slices.Repeat([]int64{sgPoison}, n+tail)
		for s := range n {
			want[s] = 2 + at + int64(s)
		}
		require.Equal(t, want, sgHost(t, out), "segments of one, n=%d", n)
	}
}

// TestHistogramIterCPU: HistogramEven and HistogramRange on the CPU backend
// with their samples read through Transform(Counting), Permutation and
// Constant compositions, against a sequential loop, into poisoned
// histograms.
func TestHistogramIterCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 10))
	const tail = 2
	for _, n := range []int{1, 100, 70000} {
		xs, idx := sgDraw(r, n)
		bx, bidx := must(d, xs), must(d, idx)
		at := int64(r.IntN(1 << 20))
		for _, bins := range []int{1, 10, 300} {
			hist := func(at func(i int) int) []int32 {
				h := make([]int32, bins)
				for i := range n {
					if b := at(i); b >= 0 {
						h[b]++
					}
				}
				return append(h, slices.Repeat([]int32{sgPoisonH}, tail)...)
			}
			even := func(x, lo, hi int64) int {
				if x < lo || x >= hi {
					return -1
				}
				return int((x - lo) * int64(bins) / (hi - lo))
			}
			levels := make([]int64, bins+1)
			for i := range levels {
				levels[i] = 100 + int64(i)*700/int64(bins)
			}
			ranged := func(x int64) int {
				for i := 1; i <= bins; i++ {
					if x >= levels[i-1] && x < levels[i] {
						return i - 1
					}
				}
				return -1
			}
			for _, c := range []struct {
				name string
				want []int32
				run  func(h *runtime.Slice[int32]) error
			}{
				{"HistogramEven of a Transform(Counting)", hist(func(i int) int { return even(SgScramble(at+int64(i)), 1, 500000) }), func(h *runtime.Slice[int32]) error {
					return sgEven.Run(nil, sgMixed.Bind(sgCount.With(at)).Take(n), h, bins, 1, 500000)
				}},
				{"HistogramEven of a Counting", hist(func(i int) int { return even(at+int64(i), at, at+int64(n)/2+1) }), func(h *runtime.Slice[int32]) error {
					return runtime.HistogramEven[int64]().Run(nil, sgCount.Bind(sgCount.With(at)).Take(n), h, bins, at, at+int64(n)/2+1)
				}},
				{"HistogramRange of a Permutation", hist(func(i int) int { return ranged(xs[idx[i]]) }), func(h *runtime.Slice[int32]) error {
					return sgRange.Run(nil, sgGather.Bind(sgXs.With(bx), sgIdx.With(bidx)), h, must(d, levels))
				}},
				{"HistogramRange of a Constant", hist(func(int) int { return ranged(xs[0]) }), func(h *runtime.Slice[int32]) error {
					return runtime.HistogramRange[int64]().Run(nil, sgConst.Bind(sgConst.With(xs[0])).Take(n), h, must(d, levels))
				}},
			} {
				h := sgPoisoned(d, bins+tail, sgPoisonH)
				require.NoError(t, c.run(h), "%s, n=%d bins=%d", c.name, n, bins)
				require.Equal(t, c.want, sgHost(t, h), "%s, n=%d bins=%d", c.name, n, bins)
			}
		}
	}
}

// TestBoundIterCPU: LowerBound and UpperBound on the CPU backend with the
// search values read through Transform(Counting), Permutation and Constant
// compositions and the sorted data through Transform(Counting) and
// Counting, against a sequential loop, into poisoned outputs.
func TestBoundIterCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 11))
	const tail = 2
	search := func(data []int64, m int, v func(i int) int64, upper bool, tail int) []int64 {
		out := []int64{}
		for i := range m {
			j := 0
			for j < len(data) && (upper && !SgLess(v(i), data[j]) || !upper && SgLess(data[j], v(i))) {
				j++
			}
			out = append(out, int64(j))
		}
		return append(out, slices.Repeat([]int64{sgPoison}, tail)...)
	}
	for _, n := range []int{1, 2, 257, 3000} {
		xs, idx := sgDraw(r, n)
		bx, bidx := must(d, xs), must(d, idx)
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		for i := range sorted {
			sorted[i] *= 1000
		}
		at := int64(r.IntN(100))
		starts, counting := make([]int64, n), make([]int64, n)
		for i := range starts {
			starts[i], counting[i] = SgTimes(at+int64(i)), at+int64(i)
		}
		m := n + 5
		for _, c := range []struct {
			name string
			want []int64
			run  func(out *runtime.Slice[int64]) error
		}{
			{"LowerBound of Transform(Counting) values", search(sorted, m, func(i int) int64 { return SgScramble(at + int64(i)) }, false, tail), func(out *runtime.Slice[int64]) error {
				return sgLower.Run(nil, must(d, sorted), sgMixed.Bind(sgCount.With(at)).Take(m), out)
			}},
			{"UpperBound of Permutation values in Transform(Counting) data", search(starts, n, func(i int) int64 { return xs[idx[i]] }, true, m-n+tail), func(out *runtime.Slice[int64]) error {
				return sgUpper.Run(nil, sgStarts.Bind(sgCount.With(at)).Take(n), sgGather.Bind(sgXs.With(bx), sgIdx.With(bidx)), out)
			}},
			{"LowerBound of Constant values in Counting data", search(counting, m, func(int) int64 { return at + int64(n)/2 }, false, tail), func(out *runtime.Slice[int64]) error {
				return runtime.LowerBound(SgLess).Run(nil, sgCount.Bind(sgCount.With(at)).Take(n), sgConst.Bind(sgConst.With(at+int64(n)/2)).Take(m), out)
			}},
		} {
			out := sgPoisoned(d, m+tail, sgPoison)
			require.NoError(t, c.run(out), "%s, n=%d", c.name, n)
			require.Equal(t, c.want, sgHost(t, out), "%s, n=%d", c.name, n)
		}
	}
}

// TestSegmentedHistogramBoundIterMisuse: lengths the compositions cannot
// give and offsets outside the values are errors with one gocccl: prefix;
// a composition no instance declared is runtime.ErrNotGenerated naming the
// declaration to add.
func TestSegmentedHistogramBoundIterMisuse(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs := must(d, []int64{5, 3, 8, 1})
	offs := must(d, []int64{0, 2, 4})
	out := must(d, make([]int64, 4))
	hist := must(d, make([]int32, 4))
	levels := must(d, []int64{0, 4, 8})
	unbounded := func() *iterator.Bound[int64] { return sgStarts.Bind(sgCount.With(0)) }
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"SegmentedReduce of offsets without a length", "neither the begin nor the end offsets have a length: give one of them Take(segments)",
			sgFixed.Run(nil, xs, unbounded(), unbounded(), out, 0)},
		{"SegmentedReduce of values without a length", "give it one with Take(n)",
			runtime.SegmentedReduce(SgAdd).Run(nil, sgCount.Bind(sgCount.With(0)), offs.Range(0, 2), offs.Range(1, 3), out, 0)},
		{"SegmentedReduce of unequal offsets", "3 begin offsets but 2 end offsets",
			sgFixed.Run(nil, xs, unbounded().Take(3), offs.Range(1, 3), out, 0)},
		{"SegmentedReduce past its values", "segment 0 is [0, 9), not within [0, 4) in order",
			sgFixed.Run(nil, xs, unbounded().Take(2), sgStarts.Bind(sgCount.With(1)), out, 0)},
		{"SegmentedReduce into a short output", "output has 4 elements, fewer than the 5 segments",
			sgFixed.Run(nil, xs, sgConst.Bind(sgConst.With(0)).Take(5), sgConst.Bind(sgConst.With(0)), out, 0)},
		{"SegmentedReduce of nil begin offsets", "nil slice", sgFixed.Run(nil, xs, nil, offs, out, 0)},
		{"HistogramEven of samples without a length", "give it one with Take(n)",
			sgEven.Run(nil, sgMixed.Bind(sgCount.With(0)), hist, 2, 0, 10)},
		{"HistogramRange of nil samples", "nil slice", sgRange.Run(nil, nil, hist, levels)},
		{"LowerBound of data without a length", "give it one with Take(n)",
			sgLower.Run(nil, unbounded(), xs, out)},
		{"UpperBound into a short output", "output has 4 elements, fewer than the 9 search values",
			sgUpper.Run(nil, xs, sgMixed.Bind(sgCount.With(0)).Take(9), out)},
	} {
		require.Error(t, c.err, c.name)
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}

	// A CPU device that requires generated kernels, as a GPU does, refuses
	// a composition no instance declared (none is generated here).
	t.Setenv(runtime.EnvUngenerated, "")
	g, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer g.Close()
	gx, goffs := must(g, []int64{5, 3, 8, 1}), must(g, []int64{0, 2, 4})
	gout, ghist, glevels := must(g, make([]int64, 4)), must(g, make([]int32, 4)), must(g, []int64{0, 4, 8})
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"SegmentedReduce", "declare the instance with them where it is declared, runtime.SegmentedReduce(github.com/gocccl/gocccl/runtime_test.SgAdd).Over(iterator.Slice[int64](), iterator.Transform(iterator.Counting[int64](), github.com/gocccl/gocccl/runtime_test.SgTimes), iterator.Slice[int64]())",
			sgFixed.Run(nil, gx, sgStarts.Bind(sgCount.With(0)).Take(1), goffs.Range(1, 2), gout, 0)},
		{"HistogramEven", "runtime.HistogramEven[int64]().Over(iterator.Transform(iterator.Counting[int64](), github.com/gocccl/gocccl/runtime_test.SgScramble))",
			sgEven.Run(nil, sgMixed.Bind(sgCount.With(0)).Take(3), ghist, 2, 0, 10)},
		{"HistogramRange", "runtime.HistogramRange[int64]().Over(iterator.Constant[int64]())",
			sgRange.Run(nil, sgConst.Bind(sgConst.With(1)).Take(3), ghist, glevels)},
		{"UpperBound", "runtime.UpperBound(github.com/gocccl/gocccl/runtime_test.SgLess).Over(iterator.Slice[int64](), iterator.Constant[int64]())",
			sgUpper.Run(nil, gx, sgConst.Bind(sgConst.With(1)).Take(2), gout)},
	} {
		require.ErrorIs(t, c.err, runtime.ErrNotGenerated, c.name)
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}
}
