package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

var gather = runtime.BatchedCopy[byte]()

func ExampleBatchedCopy() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	src, _ := runtime.FromHost(d, []byte("hello, batched world"))
	dst, _ := runtime.FromHost(d, []byte("...................."))
	// Three ranges (source offset, destination offset, size), one call:
	// "world" to the front, "batched" after it, "hello" at the end.
	srcOff, _ := runtime.FromHost(d, []int64{15, 7, 0})
	dstOff, _ := runtime.FromHost(d, []int64{0, 6, 15})
	sizes, _ := runtime.FromHost(d, []int64{5, 7, 5})
	if err := gather.Run(nil, src, dst, srcOff, dstOff, sizes); err != nil {
		panic(err)
	}
	h, _ := dst.ToHost()
	fmt.Println(string(h))
	// A range outside its buffer is an error, before anything is copied.
	bad, _ := runtime.FromHost(d, []int64{16})
	fmt.Println(gather.Run(nil, src, dst, bad, dstOff.Range(0, 1), sizes.Range(0, 1)))
	// Output:
	// world.batched..hello
	// gocccl: BatchedCopy[uint8]: range 0: source elements [16, 21) are outside the source's 20
}
