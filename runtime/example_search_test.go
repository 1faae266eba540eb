package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Less is a //gocccl:op comparison in a package that gocccl-gen runs on.
func Less(a, b float64) bool { return a < b }

var (
	lower = runtime.LowerBound(Less)
	upper = runtime.UpperBound(Less)
)

func ExampleLowerBound() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	data, _ := runtime.FromHost(d, []float64{1, 2, 2, 2, 5})
	values, _ := runtime.FromHost(d, []float64{0, 2, 3, 9})
	out, _ := runtime.Alloc[int64](d, 4)
	// The first index whose element is not less than each value.
	if err := lower.Run(nil, data, values, out); err != nil {
		panic(err)
	}
	idx, _ := out.ToHost()
	fmt.Println(idx)
	// Output: [0 1 4 5]
}

func ExampleUpperBound() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	data, _ := runtime.FromHost(d, []float64{1, 2, 2, 2, 5})
	values, _ := runtime.FromHost(d, []float64{0, 2, 3, 9})
	out, _ := runtime.Alloc[int64](d, 4)
	// The first index whose element is greater than each value.
	if err := upper.Run(nil, data, values, out); err != nil {
		panic(err)
	}
	idx, _ := out.ToHost()
	fmt.Println(idx)
	// Output: [0 4 4 5]
}

func ExampleSearchOp_RunSorted() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	data, _ := runtime.FromHost(d, []float64{1, 2, 2, 2, 5})
	// Sorted values: on a GPU one merge of both sequences finds them all.
	values, _ := runtime.FromHost(d, []float64{0, 2, 2, 3, 9})
	out, _ := runtime.Alloc[int64](d, 5)
	if err := upper.RunSorted(nil, data, values, out); err != nil {
		panic(err)
	}
	idx, _ := out.ToHost()
	fmt.Println(idx)
	// Output: [0 4 4 4 5]
}
