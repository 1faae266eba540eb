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
