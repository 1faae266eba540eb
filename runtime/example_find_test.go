package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// isNegative is FindIf's predicate.
func isNegative(x int32) bool { return x < 0 }

// point is a position on a grid.
type point struct{ X, Y int32 }

// closer orders points by their distance from the origin; points equally
// far are tied, and the lowest index wins.
func closer(a, b point) bool { return a.X*a.X+a.Y*a.Y < b.X*b.X+b.Y*b.Y }

var (
	firstNegative = runtime.FindIf(isNegative)
	nearest       = runtime.ArgMin(closer)
	farthest      = runtime.ArgMax(closer)
	lowest        = runtime.SegmentedArgMin(func(a, b float32) bool { return a < b })
)

func ExampleFindIf() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []int32{4, 8, 15, -16, 23, -42})
	at, _ := runtime.Alloc[int64](d, 1)
	if err := firstNegative.Run(nil, xs, at); err != nil {
		panic(err)
	}
	i, _ := at.ToHost()
	fmt.Println("first negative at", i[0])
	// With no match the index is the input's length.
	none, _ := runtime.FromHost(d, []int32{1, 2, 3})
	if err := firstNegative.Run(nil, none, at); err != nil {
		panic(err)
	}
	i, _ = at.ToHost()
	fmt.Println("none:", i[0])
	// Output:
	// first negative at 3
	// none: 3
}

func ExampleArgMin() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	pts, _ := runtime.FromHost(d, []point{{3, 4}, {1, 1}, {-1, 1}, {0, 9}, {9, 0}})
	v, _ := runtime.Alloc[point](d, 1)
	i, _ := runtime.Alloc[int64](d, 1)
	for _, c := range []struct {
		name string
		op   *runtime.ArgReduceOp[point]
	}{{"nearest", nearest}, {"farthest", farthest}} {
		if err := c.op.Run(nil, pts, v, i); err != nil {
			panic(err)
		}
		pv, _ := v.ToHost()
		pi, _ := i.ToHost()
		fmt.Println(c.name, pv[0], "at", pi[0])
	}
	// Output:
	// nearest {1 1} at 1
	// farthest {0 9} at 3
}

func ExampleSegmentedArgMin() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []float32{5, 2, 7, 2, 9, 1, 3})
	// Segments [0, 4), [4, 4) (empty) and [4, 7), from one offsets buffer.
	offsets, _ := runtime.FromHost(d, []int64{0, 4, 4, 7})
	v, _ := runtime.Alloc[float32](d, 3)
	i, _ := runtime.Alloc[int64](d, 3)
	if err := lowest.Run(nil, xs, offsets.Range(0, 3), offsets.Range(1, 4), v, i); err != nil {
		panic(err)
	}
	vs, _ := v.ToHost()
	is, _ := i.ToHost()
	// Indices count from each segment's begin; an empty segment gives -1.
	fmt.Println(vs, is)
	// Output: [2 0 1] [1 -1 1]
}
