package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Compositions of TestIndexErrorsOnePrefix.
var (
	ieVals   = iterator.Slice[int32]()
	ieIdx    = iterator.Slice[int64]()
	ieGather = iterator.Permutation(ieVals, ieIdx)
)

// IePanics is a predicate that panics, as a buggy operator does.
//
//gocccl:op
func IePanics(x int32) bool { panic("boom") }

// TestIndexErrorsOnePrefix: a Permutation index outside its values, a
// PermutationOutput index outside its output and an operator's panic are
// errors on the CPU backend that say what is wrong, with one gocccl:
// prefix (the instance's), whether the call is plain or through
// compositions.
func TestIndexErrorsOnePrefix(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs := must(d, []int32{5, 3, 8, 1})
	out, cnt := must(d, make([]int32, 4)), must(d, []int64{-1})
	bad := must(d, []int64{0, 9, 1, 2})
	xs64, out64, offs := must(d, []int64{5, 3, 8, 1}), must(d, make([]int64, 4)), must(d, []int64{0, 2, 4})
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"Select over a Permutation", "iterator.Permutation: index 9 (at 1) is outside the 4 values: every index must be in [0, 4)",
			runtime.Select(IsOdd).Run(nil, ieGather.Bind(ieVals.With(xs), ieIdx.With(bad)), out, cnt)},
		{"Select into a PermutationOutput", "iterator.PermutationOutput: index 9 (at 1) is outside the 4 elements of its output",
			runtime.Select(IsOdd).Run(nil, xs, oScat.Bind(oI32.With(out), oIdx.With(bad)), cnt)},
		{"Partition into a PermutationOutput", "iterator.PermutationOutput: index 9 (at 1)",
			runtime.Partition(IsOdd).Run(nil, xs, oScat.Bind(oI32.With(out), oIdx.With(bad)), cnt)},
		{"SegmentedReduce over Permutation offsets", "iterator.Permutation: index 9 (at 1) is outside the 3 values",
			runtime.SegmentedReduce(SgAdd).Run(nil, xs64, sgGather.Bind(sgXs.With(offs), sgIdx.With(must(d, []int64{0, 9}))), offs.Range(1, 3), out64, 0)},
		{"a plain Select whose predicate panics", "operator panicked on the CPU backend: boom",
			runtime.Select(IePanics).Run(nil, xs, out, cnt)},
		{"a Select into a Discard whose predicate panics", "operator panicked on the CPU backend: boom",
			runtime.Select(IePanics).Run(nil, xs, oDrop.Bind(), cnt)},
	} {
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}
	require.Equal(t, []int64{-1}, host(t, cnt), "a failed call writes no count")
}

// Compositions of TestOutputCompositionsOverlap.
var (
	ovI64  = iterator.Slice[int64]()
	ovIdx  = iterator.Slice[int64]()
	ovScat = iterator.PermutationOutput(ovI64, ovIdx)
)

// IeOdd64 selects the odd int64.
//
//gocccl:op
func IeOdd64(x int64) bool { return x&1 == 1 }

// TestOutputCompositionsOverlap: a buffer that an output composition
// writes may not overlap the input, the counts or another output, as a
// plain output may not (the kernels would read what they write, and the CPU
// backend, which writes through a temporary, would hide it); a buffer an
// output only reads (a PermutationOutput's indices) may be an input.
func TestOutputCompositionsOverlap(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs, out, cnt, cnt2 := must(d, []int32{5, 3, 8, 1}), must(d, make([]int32, 4)), must(d, []int64{0}), must(d, []int64{0, 0})
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"Select reversed into its input", "the output and the input overlap",
			runtime.Select(IsOdd).Run(nil, xs, oRev.Bind(oI32.With(xs)), cnt)},
		{"Partition into part of its input", "the output and the input overlap",
			runtime.Partition(IsOdd).Run(nil, xs.Range(0, 2), oScat.Bind(oI32.With(xs.Range(1, 4)), oIdx.With(must(d, []int64{0, 1}))), cnt)},
		{"Unique into an overlapping view", "the output and the input overlap",
			runtime.Unique(Same).Run(nil, xs.Range(0, 2), oRev.Bind(oI32.With(xs.Range(1, 3))), cnt)},
		{"ThreeWayPartition's first output onto its second", "the second output and the first output overlap",
			runtime.ThreeWayPartition(ByThree, ByThreeRest).Run(nil, xs, oRev.Bind(oI32.With(out)), out, must(d, make([]int32, 4)), cnt2)},
		{"UniqueByKey's keys output onto its keys", "the keys output and the keys overlap",
			runtime.UniqueByKey[int32, int32](Same).Run(nil, xs, must(d, make([]int32, 4)), oRev.Bind(oI32.With(xs)), oDrop.Bind(), cnt)},
	} {
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}

	// A PermutationOutput reads its indices: they may be the input.
	ys, got := must(d, []int64{3, 1, 2, 0}), must(d, make([]int64, 4))
	require.NoError(t, runtime.Select(IeOdd64).Run(nil, ys, ovScat.Bind(ovI64.With(got), ovIdx.With(ys)), cnt))
	require.Equal(t, []int64{2}, host(t, cnt))
	require.Equal(t, []int64{0, 1, 0, 3}, host(t, got))
}
