package runtime_test

import (
	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Cube is the transform of the select-over-iterator example.
//
//gocccl:op
func Cube(x int32) int32 { return x * x * x }

// Declared once, where gocccl-gen sees them: the odd cubes of a counting
// sequence, selected without a buffer for the sequence; a sort that reads
// its keys backwards; an argsort (the stable order of keys, as indices).
var (
	From      = iterator.Counting[int32]()
	Cubes     = iterator.Transform(From, Cube)
	OddCubes  = runtime.Select(IsOdd).Over(Cubes)
	Keys      = iterator.Slice[uint32]()
	Backwards = iterator.Reverse(Keys)
	SortBack  = runtime.MergeSortKeys(Ascending).Over(Backwards)
	Position  = iterator.Counting[int64]()
	ArgSort   = runtime.MergeSortPairs[uint32, int64](Ascending).Over(iterator.Slice[uint32](), Position)
)

// ExampleSelectOp_Over selects the odd cubes of -3..6 through an iterator
// composition: the sequence is computed as it is read, never stored.
func ExampleSelectOp_Over() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	out, _ := runtime.Alloc[int32](d, 10)
	n, _ := runtime.Alloc[int64](d, 1)

	// Cubes of start + i for i in [0, 10), start bound to -3 for this call.
	if err := OddCubes.Run(nil, Cubes.Bind(From.With(-3)).Take(10), out, n); err != nil {
		panic(err)
	}
	show(out, count(n, 0))
	// Output: [-27 -1 1 27 125]
}

// ExampleMergeSortKeysOp_RunCopy sorts keys read through a composition into
// another Slice, and computes an argsort: the input stays as it was.
func ExampleMergeSortKeysOp_RunCopy() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	keys := must(d, []uint32{30, 10, 20, 10})
	sorted, _ := runtime.Alloc[uint32](d, 4)
	if err := SortBack.RunCopy(nil, Backwards.Bind(Keys.With(keys)), sorted); err != nil {
		panic(err)
	}
	show(sorted, 4)

	// The indices come from a Counting iterator as long as the outputs.
	order, _ := runtime.Alloc[int64](d, 4)
	if err := ArgSort.RunCopy(nil, keys, Position.Bind(Position.With(0)), sorted, order); err != nil {
		panic(err)
	}
	show(order, 4)
	show(keys, 4)
	// Output:
	// [10 10 20 30]
	// [1 3 2 0]
	// [30 10 20 10]
}

// Where each run of equal keys starts: the positions come from a Counting
// iterator that has no buffer and no length, and read as many as the keys.
var RunStarts = runtime.UniqueByKey[int32, int64](Same).Over(iterator.Slice[int32](), Position)

// ExampleUniqueByKeyOp_Over keeps the first key of every run and the
// position where the run starts.
func ExampleUniqueByKeyOp_Over() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	keys := must(d, []int32{4, 4, 7, 7, 7, 4, 9})
	firsts, _ := runtime.Alloc[int32](d, 7)
	starts, _ := runtime.Alloc[int64](d, 7)
	n, _ := runtime.Alloc[int64](d, 1)
	if err := RunStarts.Run(nil, keys, Position.Bind(Position.With(0)), firsts, starts, n); err != nil {
		panic(err)
	}
	show(firsts, count(n, 0))
	show(starts, count(n, 0))
	// Output:
	// [4 7 4 9]
	// [0 2 5 6]
}
