package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// LessInt is a //gocccl:op comparison in a package that gocccl-gen runs on.
func LessInt(a, b int) bool { return a < b }

var merge = runtime.Merge(LessInt)

func ExampleMerge() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	a, _ := runtime.FromHost(d, []int{1, 4, 4, 9})
	b, _ := runtime.FromHost(d, []int{0, 4, 10})
	out, _ := runtime.Alloc[int](d, 7)
	if err := merge.Run(nil, a, b, out); err != nil {
		panic(err)
	}
	merged, _ := out.ToHost()
	fmt.Println(merged)
	// Output: [0 1 4 4 4 9 10]
}
