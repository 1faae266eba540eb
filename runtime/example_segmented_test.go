package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// segAdd is an operator of the examples; in a program it is a //gocccl:op
// function and gocccl-gen generates its kernels.
func segAdd(a, b int32) int32 { return a + b }

func square(x int32) int64 { return int64(x) * int64(x) }

func add64(a, b int64) int64 { return a + b }

// Three segments of one offsets buffer: [0, 2), [2, 2) (empty) and [2, 5).
func ExampleSegmentedReduce() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in, _ := runtime.FromHost(d, []int32{1, 2, 3, 4, 5})
	offsets, _ := runtime.FromHost(d, []int64{0, 2, 2, 5})
	out, _ := runtime.Alloc[int32](d, 3)
	sum := runtime.SegmentedReduce(segAdd)
	if err := sum.Run(nil, in, offsets.Range(0, 3), offsets.Range(1, 4), out, 100); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := out.ToHost()
	fmt.Println(res)
	// Output: [103 100 112]
}

// Segments of at most four items, promised: a GPU then folds every segment
// with one thread instead of a warp. The CPU backend checks the promise.
func ExampleSegmentedReduceOp_RunWith() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in, _ := runtime.FromHost(d, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9})
	offsets, _ := runtime.FromHost(d, []int64{0, 3, 7, 9})
	out, _ := runtime.Alloc[int32](d, 3)
	sum := runtime.SegmentedReduce(segAdd)
	small := runtime.SegmentedReduceOptions{MaxSegmentSize: 4}
	if err := sum.RunWith(nil, in, offsets.Range(0, 3), offsets.Range(1, 4), out, 0, small); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := out.ToHost()
	fmt.Println(res)

	// A segment longer than promised is an error, before anything is written.
	small.MaxSegmentSize = 3
	fmt.Println(sum.RunWith(nil, in, offsets.Range(0, 3), offsets.Range(1, 4), out, 0, small))
	// Output:
	// [6 22 17]
	// gocccl: SegmentedReduce(github.com/gocccl/gocccl/runtime_test.segAdd): segment 1 is [3, 7) of 4 items, longer than MaxSegmentSize 3
}

// The sum of squares, without a buffer of squares.
func ExampleTransformReduce() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in, _ := runtime.FromHost(d, []int32{1, 2, 3, 4})
	out, _ := runtime.Alloc[int64](d, 1)
	sumSquares := runtime.TransformReduce(square, add64)
	if err := sumSquares.Run(nil, in, out, 0); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := out.ToHost()
	fmt.Println(res[0])
	// Output: 30
}

func sub(a, b int32) int32 { return a - b }

// Differences of neighbours, as CUB's SubtractLeftCopy and SubtractRightCopy:
// the current element is the operator's first argument.
func ExampleAdjacentDifference() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in, _ := runtime.FromHost(d, []int32{1, 4, 9, 16})
	out, _ := runtime.Alloc[int32](d, 4)
	diff := runtime.AdjacentDifference(sub)
	diff.Run(nil, in, out)
	left, _ := out.ToHost()
	diff.RunRight(nil, in, out)
	right, _ := out.ToHost()
	fmt.Println(left, right)
	// Output: [1 3 5 7] [-3 -5 -7 16]
}

func double(x int32) int32 { return 2 * x }

// ForEach applies an operator in place, here to part of a Slice.
func ExampleForEach() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	data, _ := runtime.FromHost(d, []int32{1, 2, 3, 4})
	if err := runtime.ForEach(double).Run(nil, data.Range(1, 3)); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := data.ToHost()
	fmt.Println(res)
	// Output: [1 4 6 4]
}

func sameCode(a, b string2) bool { return a == b }

// string2 stands for a key type: operators take plain data.
type string2 = [2]byte

// Runs of equal consecutive keys, each with the sum of its values; the
// number of runs is written to device memory.
func ExampleReduceByKey() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	keys, _ := runtime.FromHost(d, []string2{{'a', 'x'}, {'a', 'x'}, {'b', 'y'}, {'a', 'x'}})
	vals, _ := runtime.FromHost(d, []int32{1, 2, 3, 4})
	unique, _ := runtime.Alloc[string2](d, 4)
	sums, _ := runtime.Alloc[int32](d, 4)
	count, _ := runtime.Alloc[int64](d, 1)
	byKey := runtime.ReduceByKey(sameCode, segAdd)
	if err := byKey.Run(nil, keys, vals, unique, sums, count); err != nil {
		fmt.Println(err)
		return
	}
	n, _ := count.ToHost()
	u, _ := unique.ToHost()
	s, _ := sums.ToHost()
	for i := range n[0] {
		fmt.Printf("%s %d\n", u[i][:], s[i])
	}
	// Output:
	// ax 3
	// by 3
	// ax 4
}
