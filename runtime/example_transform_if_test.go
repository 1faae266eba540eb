package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// isNeg selects the elements TransformIf changes; negate changes them.
func isNeg(x int32) bool   { return x < 0 }
func negate(x int32) int32 { return -x }

var absInPlace = runtime.TransformIf(negate, isNeg)

func ExampleTransformIf() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []int32{3, -1, 4, -1, -5, 9})
	// In place: the elements pred rejects are never written.
	if err := absInPlace.Run(nil, xs, xs); err != nil {
		panic(err)
	}
	h, _ := xs.ToHost()
	fmt.Println(h)
	// Output: [3 1 4 1 5 9]
}
