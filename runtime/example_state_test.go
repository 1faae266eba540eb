package runtime_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/gocccl/gocccl/runtime"
)

// Axpy is the state of a saxpy: its alpha is known only at run time.
type Axpy struct{ Alpha float32 }

// Apply is alpha*x + y. The receiver is the state: a method operator reads
// its per-call state through it.
//
//gocccl:op
func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }

// Saxpy is declared once, with the method expression Axpy.Apply; gocccl-gen
// compiles its kernels once, and each call gives its own alpha.
var Saxpy = runtime.BinaryTransformWith(Axpy.Apply)

// A saxpy whose alpha is an argument of the program, not a constant: the
// state goes to Bind, and the handle Bind returns runs like any other. On a
// GPU the state is a kernel argument of that launch; this example runs on
// the CPU backend, which calls the method with the state as its receiver.
func ExampleBinaryTransformWith() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	x, _ := runtime.FromHost(dev, []float32{1, 2, 3, 4})
	y, _ := runtime.FromHost(dev, []float32{10, 20, 30, 40})
	out, _ := runtime.Alloc[float32](dev, x.Len())

	for _, alpha := range []float32{2, -0.5} {
		if err := Saxpy.Bind(Axpy{Alpha: alpha}).Run(nil, x, y, out); err != nil {
			log.Fatal(err)
		}
		got, _ := out.ToHost()
		fmt.Println(alpha, got)
	}
	// Output:
	// 2 [12 24 36 48]
	// -0.5 [9.5 19 28.5 38]
}

// Threshold is the state of a selection: the bound is chosen per call.
type Threshold struct{ Min int32 }

// Keep reports whether v reaches the threshold.
//
//gocccl:op
func (t Threshold) Keep(v int32) bool { return v >= t.Min }

// A selection whose predicate reads a threshold given per call.
func ExampleSelectWith() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	in, _ := runtime.FromHost(dev, []int32{5, 1, 8, 3, 9, 2})
	out, _ := runtime.Alloc[int32](dev, in.Len())
	count, _ := runtime.Alloc[int64](dev, 1)

	keep := runtime.SelectWith(Threshold.Keep)
	for _, min := range []int32{3, 8} {
		if err := keep.Bind(Threshold{Min: min}).Run(nil, in, out, count); err != nil {
			log.Fatal(err)
		}
		n, _ := count.ToHost()
		got, _ := out.ToHost()
		fmt.Println(min, got[:n[0]])
	}
	// Output:
	// 3 [5 8 3 9]
	// 8 [8 9]
}

// Palette is a state with a read-only view of a device buffer: a lookup
// table given per call, with a scalar.
type Palette struct {
	Colors runtime.View[uint32]
	Dim    uint32
}

// Color looks up the color of x, wrapping around the table, and dims it.
//
//gocccl:op
func (p Palette) Color(x uint8) uint32 {
	return p.Colors.At(int(x)%p.Colors.Len()) >> p.Dim
}

// Paint is declared once; each call gives its table and dimming.
var Paint = runtime.UnaryTransformWith(Palette.Color)

// A transform that reads a lookup table in device memory: the state holds
// a View of the table's Slice, made by Slice.View, and every call checks that
// the slice is still allocated on the call's device. gocccl keeps neither the
// state nor the table after Run returns; keep the table allocated until the
// work that reads it has completed.
func ExampleSlice_View() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	colors, _ := runtime.FromHost(dev, []uint32{0x100, 0x200, 0x300})
	in, _ := runtime.FromHost(dev, []uint8{0, 1, 2, 3, 4})
	out, _ := runtime.Alloc[uint32](dev, in.Len())

	if err := Paint.Bind(Palette{Colors: colors.View(), Dim: 4}).Run(nil, in, out); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Printf("%#x\n", got)

	// A freed table is an error of the call, not a fault.
	colors.Free()
	err = Paint.Bind(Palette{Colors: colors.View()}).Run(nil, in, out)
	fmt.Println(errors.Is(err, runtime.ErrFreed))
	// Output:
	// [0x10 0x20 0x30 0x10 0x20]
	// true
}
