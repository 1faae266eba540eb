package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// fma3 is Transform3's operator: three inputs, one result.
func fma3(a, x, b float32) float32 { return a*x + b }

// divMod is an operator of two results: Transform2x2 writes each to its
// own output.
func divMod(a, b int32) (int32, int32) { return a / b, a % b }

// minMax3 is an operator of three inputs and two results.
func minMax3(a, b, c int32) (int32, int32) { return min(a, b, c), max(a, b, c) }

// polar splits a value into three results.
func polar(x float64) (float64, bool, int8) {
	if x < 0 {
		return -x, true, -1
	}
	return x, false, 1
}

// rescale is the per-call state of a stateful N×M transform.
type rescale struct{ Scale, Shift float32 }

// apply scales a and shifts b by the state: one operator, two results.
func (r rescale) apply(a, b float32) (float32, float32) { return a * r.Scale, b + r.Shift }

// window is the state of a TransformIfWith: the elements below Cut are
// multiplied by K.
type window struct{ Cut, K int32 }

func (w window) times(x int32) int32 { return x * w.K }
func (w window) below(x int32) bool  { return x < w.Cut }

var (
	axpb       = runtime.Transform3(fma3)
	quotRem    = runtime.Transform2x2(divMod)
	extremes   = runtime.Transform3x2(minMax3)
	signs      = runtime.Transform1x3(polar)
	scaleShift = runtime.Transform2x2With(rescale.apply)
	scaleBelow = runtime.TransformIfWith(window.times, window.below)

	// divMod of a counting sequence; the remainders are dropped.
	from      = iterator.Counting[int32]()
	drop      = iterator.Discard[int32]()
	quotients = runtime.Transform2x2(divMod).Over(from, iterator.Slice[int32]()).Into(iterator.Slice[int32](), drop)
)

func ExampleTransform3() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	a, _ := runtime.FromHost(d, []float32{1, 2, 3})
	x, _ := runtime.FromHost(d, []float32{10, 20, 30})
	b, _ := runtime.FromHost(d, []float32{0.5, 0.25, 0})
	out, _ := runtime.Alloc[float32](d, 3)
	if err := axpb.Run(nil, a, x, b, out); err != nil {
		panic(err)
	}
	h, _ := out.ToHost()
	fmt.Println(h)
	// Output: [10.5 40.25 90]
}

func ExampleTransform2x2() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	a, _ := runtime.FromHost(d, []int32{17, -17, 100})
	b, _ := runtime.FromHost(d, []int32{5, 5, 7})
	q, _ := runtime.Alloc[int32](d, 3)
	// In place: the remainders overwrite a.
	if err := quotRem.Run(nil, a, b, q, a); err != nil {
		panic(err)
	}
	hq, _ := q.ToHost()
	hr, _ := a.ToHost()
	fmt.Println(hq, hr)
	// Output: [3 -3 14] [2 -2 2]
}

func ExampleTransform3x2() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	a, _ := runtime.FromHost(d, []int32{3, 9, -1})
	b, _ := runtime.FromHost(d, []int32{7, 2, -5})
	c, _ := runtime.FromHost(d, []int32{5, 4, 0})
	lo, _ := runtime.Alloc[int32](d, 3)
	hi, _ := runtime.Alloc[int32](d, 3)
	if err := extremes.Run(nil, a, b, c, lo, hi); err != nil {
		panic(err)
	}
	l, _ := lo.ToHost()
	h, _ := hi.ToHost()
	fmt.Println(l, h)
	// Output: [3 2 -5] [7 9 0]
}

func ExampleTransform1x3() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	x, _ := runtime.FromHost(d, []float64{-2.5, 4, -0.5})
	abs, _ := runtime.Alloc[float64](d, 3)
	neg, _ := runtime.Alloc[bool](d, 3)
	sign, _ := runtime.Alloc[int8](d, 3)
	if err := signs.Run(nil, x, abs, neg, sign); err != nil {
		panic(err)
	}
	ha, _ := abs.ToHost()
	hn, _ := neg.ToHost()
	hs, _ := sign.ToHost()
	fmt.Println(ha, hn, hs)
	// Output: [2.5 4 0.5] [true false true] [-1 1 -1]
}

func ExampleTransform2x2With() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	a, _ := runtime.FromHost(d, []float32{1, 2, 3})
	b, _ := runtime.FromHost(d, []float32{1, 2, 3})
	// The scale and the shift are chosen per call: the kernels take them as
	// an argument.
	if err := scaleShift.Bind(rescale{Scale: 10, Shift: -1}).Run(nil, a, b, a, b); err != nil {
		panic(err)
	}
	ha, _ := a.ToHost()
	hb, _ := b.ToHost()
	fmt.Println(ha, hb)
	// Output: [10 20 30] [0 1 2]
}

func ExampleTransformIfWith() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []int32{1, 8, 3, 12, 5})
	// The cut and the factor are the call's state; the elements at or
	// above the cut are never written.
	if err := scaleBelow.Bind(window{Cut: 6, K: 100}).Run(nil, xs, xs); err != nil {
		panic(err)
	}
	h, _ := xs.ToHost()
	fmt.Println(h)
	// Output: [100 8 300 12 500]
}

// ExampleTransform2x2Op_Over divides a counting sequence by a buffer: the
// counting input takes the buffer's length, and the remainders go to a
// Discard.
func ExampleTransform2x2Op_Over() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	b, _ := runtime.FromHost(d, []int32{2, 2, 3, 3})
	q, _ := runtime.Alloc[int32](d, 4)
	if err := quotients.Run(nil, from.Bind(from.With(10)), b, q, drop.Bind()); err != nil {
		panic(err)
	}
	h, _ := q.ToHost()
	fmt.Println(h)
	// Output: [5 5 4 4]
}
