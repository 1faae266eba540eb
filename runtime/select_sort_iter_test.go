package runtime_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Twice3 is a transform of the runtime-level iterator tests.
//
//gocccl:op
func Twice3(x int32) int32 { return 3 * x }

var (
	tSrc      = iterator.Slice[int32]()
	tIdx      = iterator.Slice[int64]()
	tGather   = iterator.Permutation(tSrc, tIdx)
	tTripled  = iterator.Transform(tGather, Twice3)
	tSelect   = runtime.Select(IsOdd).Over(tTripled)
	tPart     = runtime.Partition(IsOdd).Over(tTripled)
	tUnique   = runtime.Unique(Same).Over(tTripled)
	tSortKeys = runtime.MergeSortKeys(Less32).Over(tTripled)
)

// TestSelectSortOverIteratorsCPU checks Select, Partition, Unique and the
// merge sorts' copy form through a composition on the CPU backend against
// loops over the same composition, on random inputs.
func TestSelectSortOverIteratorsCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 3))
	for _, n := range []int{0, 1, 2, 1000, 70000} {
		xs, idx := make([]int32, n), make([]int64, n)
		for i := range xs {
			xs[i], idx[i] = int32(r.IntN(64)), int64(r.IntN(n))
		}
		seq := make([]int32, n)
		for i := range seq {
			seq[i] = Twice3(xs[idx[i]])
		}
		src, ix := must(d, xs), must(d, idx)
		bound := func() *iterator.Bound[int32] { return tTripled.Bind(tSrc.With(src), tIdx.With(ix)) }
		out, cnt := must(d, slices.Repeat([]int32{-1}, n)), must(d, []int64{-1})

		require.NoError(t, tSelect.Run(nil, bound(), out, cnt))
		want := []int32{}
		for _, v := range seq {
			if IsOdd(v) {
				want = append(want, v)
			}
		}
		got, _ := out.ToHost()
		require.Equal(t, int64(len(want)), count(cnt, 0), "Select count, n=%d", n)
		require.Equal(t, want, got[:len(want)], "Select, n=%d", n)
		require.Equal(t, slices.Repeat([]int32{-1}, n-len(want)), got[len(want):], "Select wrote past its count, n=%d", n)

		require.NoError(t, tPart.Run(nil, bound(), out, cnt))
		got, _ = out.ToHost()
		parted := slices.Clone(want)
		for i := n - 1; i >= 0; i-- {
			if !IsOdd(seq[i]) {
				parted = append(parted, seq[i])
			}
		}
		require.Equal(t, parted, got, "Partition, n=%d", n)

		require.NoError(t, tUnique.Run(nil, bound(), out, cnt))
		heads := []int32{}
		for i, v := range seq {
			if i == 0 || seq[i-1] != v {
				heads = append(heads, v)
			}
		}
		got, _ = out.ToHost()
		require.Equal(t, int64(len(heads)), count(cnt, 0), "Unique count, n=%d", n)
		require.Equal(t, heads, got[:len(heads)], "Unique, n=%d", n)

		require.NoError(t, tSortKeys.RunCopy(nil, bound(), out))
		got, _ = out.ToHost()
		sorted := slices.Clone(seq)
		slices.Sort(sorted)
		require.Equal(t, sorted, got, "MergeSortKeys.RunCopy, n=%d", n)
		back, _ := src.ToHost()
		require.Equal(t, xs, back, "RunCopy left its input as it was, n=%d", n)
	}
}

// TestSelectSortIteratorMisuse: length and overlap mistakes of the
// iterator forms are errors with one gocccl: prefix, never a panic.
func TestSelectSortIteratorMisuse(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs := must(d, []int32{5, 3, 8, 1})
	idx := must(d, []int64{0, 1, 2, 3})
	out, cnt := must(d, make([]int32, 4)), must(d, []int64{0})
	short := must(d, make([]int32, 3))
	bound := tTripled.Bind(tSrc.With(xs), tIdx.With(idx))
	sortKeys := runtime.MergeSortKeys(Less32)
	sortPairs := runtime.MergeSortPairs[int32, int64](Less32)
	pos := iterator.Counting[int64]()
	vals := must(d, make([]int64, 4))
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"Select into a short output", "fewer than the 4", tSelect.Run(nil, bound, short, cnt)},
		{"Select of a counting sequence without Take", "give it one with Take(n)",
			runtime.Select(IsOdd).Run(nil, tCount32.Bind(tCount32.With(0)), out, cnt)},
		{"RunCopy into a short output", "the input has 4 keys, the output 3", tSortKeys.RunCopy(nil, bound, short)},
		{"RunCopy overlapping its input", "overlaps the input", sortKeys.RunCopy(nil, xs.Range(0, 3), xs.Range(1, 4))},
		{"RunCopy of pairs of unequal outputs", "4 keys and 3 values", sortPairs.RunCopy(nil, xs, pos.Bind(pos.With(0)), out, vals.Range(0, 3))},
		{"RunCopy of a nil input", "nil slice", sortKeys.RunCopy(nil, nil, out)},
	} {
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}

	// The copy form of a Slice: the output sorted, the input as it was; and
	// in place when the output is the input.
	require.NoError(t, sortKeys.RunCopy(nil, xs, out))
	got, _ := out.ToHost()
	require.Equal(t, []int32{1, 3, 5, 8}, got)
	in, _ := xs.ToHost()
	require.Equal(t, []int32{5, 3, 8, 1}, in)
	require.NoError(t, sortKeys.RunCopy(nil, xs, xs))
	in, _ = xs.ToHost()
	require.Equal(t, []int32{1, 3, 5, 8}, in)
}

var tCount32 = iterator.Counting[int32]()

// Less32 orders int32 ascending.
//
//gocccl:op
func Less32(a, b int32) bool { return a < b }

func countPrefix(s string) int { return strings.Count(s, "gocccl: ") }
