package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

func addInt64(a, b int64) int64 { return a + b }

var (
	runningTotal = runtime.SegmentedInclusiveScan(addInt64)
	balanceAhead = runtime.SegmentedExclusiveScan(addInt64)
)

func ExampleSegmentedInclusiveScan() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	// Three accounts' transactions, one after the other.
	tx, _ := runtime.FromHost(d, []int64{10, -3, 5, 100, 1, 1, 1})
	offsets, _ := runtime.FromHost(d, []int64{0, 3, 4, 7})
	out, _ := runtime.Alloc[int64](d, 7)
	if err := runningTotal.Run(nil, tx, offsets.Range(0, 3), offsets.Range(1, 4), out); err != nil {
		panic(err)
	}
	totals, _ := out.ToHost()
	fmt.Println(totals)
	// Fixed-size segments need no offsets: pairs here, the last one short.
	if err := runningTotal.RunFixedWithInit(nil, tx, 2, out, 1000); err != nil {
		panic(err)
	}
	totals, _ = out.ToHost()
	fmt.Println(totals)
	// Output:
	// [10 7 12 100 1 2 3]
	// [1010 1007 1005 1105 1001 1002 1001]
}

func ExampleSegmentedExclusiveScan() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	tx, _ := runtime.FromHost(d, []int64{10, -3, 5, 100, 1, 1, 1})
	out, _ := runtime.FromHost(d, []int64{-1, -1, -1, -1, -1, -1, -1})
	// Segments [0, 3) and [4, 7): item 3 is in none and keeps its value.
	begin, _ := runtime.FromHost(d, []int64{0, 4})
	end, _ := runtime.FromHost(d, []int64{3, 7})
	if err := balanceAhead.Run(nil, tx, begin, end, out, 0); err != nil {
		panic(err)
	}
	before, _ := out.ToHost()
	fmt.Println(before)
	// Output: [0 10 7 -1 0 1 2]
}
