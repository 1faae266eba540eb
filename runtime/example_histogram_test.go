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

var rgbHist = runtime.MultiHistogramEven[uint8]()

func ExampleMultiHistogramEven() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	// Three RGBA pixels; the alpha channel (the fourth) is not counted.
	pixels, _ := runtime.FromHost(d, []uint8{
		0, 100, 255, 7,
		64, 100, 200, 7,
		255, 0, 255, 7,
	})
	var hists []*runtime.Slice[int32]
	for range 3 {
		h, _ := runtime.Alloc[int32](d, 4)
		hists = append(hists, h)
	}
	// Four equal bins over [0, 255) for red, green and blue, as CUB's
	// MultiHistogramEven<4, 3>: the upper level is exclusive, so 255 is not
	// counted (a wider sample type, or MultiHistogramRange, counts it).
	err = rgbHist.Run(nil, pixels, 4, hists, []int{4, 4, 4}, []uint8{0, 0, 0}, []uint8{255, 255, 255})
	if err != nil {
		panic(err)
	}
	for c, h := range hists {
		counts, _ := h.ToHost()
		fmt.Println("RGB"[c:c+1], counts)
	}
	// Output:
	// R [1 1 0 0]
	// G [1 2 0 0]
	// B [0 0 0 1]
}
