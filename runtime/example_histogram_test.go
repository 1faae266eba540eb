package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Package-level declarations are what gocccl-gen finds and generates
// kernels for; the CPU backend runs them without.
var (
	evenHist  = runtime.HistogramEven[float32]()
	rangeHist = runtime.HistogramRange[int32]()
)

func ExampleHistogramEven() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	samples, _ := runtime.FromHost(d, []float32{0, 0.5, 1.2, 2.5, 3.9, 4, -1})
	hist, _ := runtime.Alloc[int32](d, 4)
	// Four bins of width 1 over [0, 4): 4 and -1 fall outside.
	if err := evenHist.Run(nil, samples, hist, 4, 0, 4); err != nil {
		panic(err)
	}
	counts, _ := hist.ToHost()
	fmt.Println(counts)
	// Output: [2 1 1 1]
}

func ExampleHistogramRange() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	samples, _ := runtime.FromHost(d, []int32{1, 5, 10, 99, 100, 250, 1000})
	levels, _ := runtime.FromHost(d, []int32{0, 10, 100, 1000})
	hist, _ := runtime.Alloc[int32](d, 3)
	// Bins [0, 10), [10, 100), [100, 1000): 1000 falls outside.
	if err := rangeHist.Run(nil, samples, hist, levels); err != nil {
		panic(err)
	}
	counts, _ := hist.ToHost()
	fmt.Println(counts)
	// Output: [2 2 2]
}
