package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Scaled is the state of a gathered saxpy: alpha known only at run time.
type Scaled struct{ Alpha float32 }

// Axpy is alpha*x + y.
//
//gocccl:op
func (p Scaled) Axpy(x, y float32) float32 { return p.Alpha*x + y }

// Declared once, where gocccl-gen sees them: a saxpy whose x is gathered
// through a Permutation and whose y is a plain buffer (nil).
var (
	GX           = iterator.Slice[float32]()
	GIdx         = iterator.Slice[int64]()
	Gathered     = iterator.Permutation(GX, GIdx)
	GatheredAxpy = runtime.BinaryTransformWith(Scaled.Axpy).Over(Gathered, nil)
)

// ExampleStateful_Over runs a stateful instance over an iterator
// composition: alpha is the state given to Bind, x[idx[i]] is read through
// the composition bound for the call, without a gathered copy.
func ExampleStateful_Over() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	x := must(d, []float32{10, 20, 30})
	idx := must(d, []int64{2, 2, 0})
	y := must(d, []float32{1, 2, 3})
	out, _ := runtime.Alloc[float32](d, 3)

	in := Gathered.Bind(GX.With(x), GIdx.With(idx))
	if err := GatheredAxpy.Bind(Scaled{Alpha: 2}).Run(nil, in, y, out); err != nil {
		panic(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)
	// Output: [61 62 23]
}
