package runtime_test

import (
	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// RowLen is the length of the rows of the fixed-size segments example.
const RowLen = 4

// RowStart is where row i starts.
//
//gocccl:op
func RowStart(i int64) int64 { return i * RowLen }

// Declared once, where gocccl-gen sees them: the row sums of a matrix of
// RowLen columns, whose begin and end offsets are computed as they are read
// (row i begins at RowStart(i) and ends where row i+1 begins).
var (
	Row     = iterator.Counting[int64]()
	Starts  = iterator.Transform(Row, RowStart)
	RowSums = runtime.SegmentedReduce(segAdd).Over(iterator.Slice[int32](), Starts, Starts)
)

// ExampleSegmentedReduceOp_Over sums the rows of a 3×4 matrix without an
// offsets buffer, then rows 1 and 2 alone: the counters' starts are bound
// per call.
func ExampleSegmentedReduceOp_Over() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	m := must(d, []int32{
		1, 2, 3, 4,
		10, 20, 30, 40,
		100, 200, 300, 400,
	})
	sums, _ := runtime.Alloc[int32](d, 3)

	// Begin offsets RowStart(0), RowStart(1), RowStart(2); the end offsets
	// are the same shifted by one row and take the begin offsets' length.
	if err := RowSums.Run(nil, m, Starts.Bind(Row.With(0)).Take(3), Starts.Bind(Row.With(1)), sums, 0); err != nil {
		panic(err)
	}
	show(sums, 3)

	if err := RowSums.Run(nil, m, Starts.Bind(Row.With(1)).Take(2), Starts.Bind(Row.With(2)), sums, 0); err != nil {
		panic(err)
	}
	show(sums, 2)
	// Output:
	// [10 100 1000]
	// [100 1000]
}
