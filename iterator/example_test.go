package iterator_test

import (
	"fmt"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Add(a, b int64) int64 { return a + b }

//gocccl:op
func Square(x int64) int64 { return x * x }

// Declared once, where gocccl-gen sees them: a Counting leaf, the
// composition that squares it, and the reduction that reads through it.
var (
	Start      = iterator.Counting[int64]()
	Squares    = iterator.Transform(Start, Square)
	SumSquares = runtime.Reduce(Add).Over(Squares)

	Values    = iterator.Slice[int64]()
	Indices   = iterator.Slice[int64]()
	Gathered  = iterator.Permutation(Values, Indices)
	SumGather = runtime.Reduce(Add).Over(Gathered)
)

// Example sums squares of 1..100 without a buffer for them, and a gather of
// a buffer through an index buffer; the values are bound per call.
func Example() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	out, _ := runtime.Alloc[int64](d, 1)

	// Squares of start + i for i in [0, 100), start bound to 1 for this call.
	if err := SumSquares.Run(nil, Squares.Bind(Start.With(1)).Take(100), out, 0); err != nil {
		panic(err)
	}
	sum, _ := out.ToHost()
	fmt.Println(sum[0])

	values, _ := runtime.FromHost(d, []int64{10, 20, 30})
	indices, _ := runtime.FromHost(d, []int64{2, 2, 0})
	if err := SumGather.Run(nil, Gathered.Bind(Values.With(values), Indices.With(indices)), out, 0); err != nil {
		panic(err)
	}
	sum, _ = out.ToHost()
	fmt.Println(sum[0])
	// Output:
	// 338350
	// 70
}
