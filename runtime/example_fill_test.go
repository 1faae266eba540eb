package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// squareOf is Generate's operator: the value at index i.
func squareOf(i int64) int64 { return i * i }

// line is the per-call state of a Generate: slope and intercept.
type line struct{ Slope, At0 float32 }

// At is the line's value at x = i.
func (l line) At(i int64) float32 { return l.Slope*float32(i) + l.At0 }

var (
	ones    = runtime.Fill[float32]()
	squares = runtime.Generate(squareOf)
	ramp    = runtime.GenerateWith(line.At)
)

func ExampleFill() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.Alloc[float32](d, 6)
	if err := ones.Run(nil, xs, 1); err != nil {
		panic(err)
	}
	// Part of a Slice, through a view.
	if err := ones.Run(nil, xs.Range(2, 4), 7.5); err != nil {
		panic(err)
	}
	h, _ := xs.ToHost()
	fmt.Println(h)
	// Output: [1 1 7.5 7.5 1 1]
}

func ExampleGenerate() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.Alloc[int64](d, 6)
	if err := squares.Run(nil, xs); err != nil {
		panic(err)
	}
	h, _ := xs.ToHost()
	fmt.Println(h)
	// Output: [0 1 4 9 16 25]
}

func ExampleGenerateWith() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	ys, _ := runtime.Alloc[float32](d, 5)
	// The line is chosen per call: the kernels take it as an argument.
	if err := ramp.Bind(line{Slope: 0.5, At0: -1}).Run(nil, ys); err != nil {
		panic(err)
	}
	h, _ := ys.ToHost()
	fmt.Println(h)
	// Output: [-1 -0.5 0 0.5 1]
}
