package runtime_test

import (
	"fmt"
	"log"

	"github.com/gocccl/gocccl/runtime"
)

// IsOdd is the predicate of the selection examples.
//
//gocccl:op
func IsOdd(x int32) bool { return x&1 == 1 }

// IsNegative is the second predicate of the three-way partition example.
//
//gocccl:op
func IsNegative(x int32) bool { return x < 0 }

// Same is the equality of the deduplication examples.
//
//gocccl:op
func Same(a, b int32) bool { return a == b }

// show prints the first k elements of s.
func show[T any](s *runtime.Slice[T], k int64) {
	xs, err := s.ToHost()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(xs[:k])
}

// must returns a Slice of xs on d.
func must[T any](d *runtime.Device, xs []T) *runtime.Slice[T] {
	s, err := runtime.FromHost(d, xs)
	if err != nil {
		log.Fatal(err)
	}
	return s
}

// count reads a count from device memory.
func count(s *runtime.Slice[int64], i int) int64 {
	xs, err := s.ToHost()
	if err != nil {
		log.Fatal(err)
	}
	return xs[i]
}

func ExampleSelect() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in := must(d, []int32{4, 7, 1, 8, -3, 6})
	out := must(d, make([]int32, 6))
	n := must(d, []int64{0})
	if err := runtime.Select(IsOdd).Run(nil, in, out, n); err != nil {
		log.Fatal(err)
	}
	show(out, count(n, 0))
	// Output: [7 1 -3]
}

func ExamplePartition() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in := must(d, []int32{4, 7, 1, 8, -3, 6})
	out := must(d, make([]int32, 6))
	n := must(d, []int64{0})
	if err := runtime.Partition(IsOdd).Run(nil, in, out, n); err != nil {
		log.Fatal(err)
	}
	fmt.Println(count(n, 0))
	show(out, 6) // the rejected elements follow in reverse order
	// Output:
	// 3
	// [7 1 -3 6 8 4]
}

func ExampleThreeWayPartition() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in := must(d, []int32{4, 7, -2, 8, -3, 6})
	odd, neg, rest := must(d, make([]int32, 6)), must(d, make([]int32, 6)), must(d, make([]int32, 6))
	n := must(d, []int64{0, 0})
	if err := runtime.ThreeWayPartition(IsOdd, IsNegative).Run(nil, in, odd, neg, rest, n); err != nil {
		log.Fatal(err)
	}
	show(odd, count(n, 0))
	show(neg, count(n, 1))
	show(rest, 6-count(n, 0)-count(n, 1))
	// Output:
	// [7 -3]
	// [-2]
	// [4 8 6]
}

func ExampleUnique() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in := must(d, []int32{1, 1, 2, 2, 2, 1, 3})
	out := must(d, make([]int32, 7))
	n := must(d, []int64{0})
	if err := runtime.Unique(Same).Run(nil, in, out, n); err != nil {
		log.Fatal(err)
	}
	show(out, count(n, 0))
	// Output: [1 2 1 3]
}

func ExampleUniqueByKey() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	keys := must(d, []int32{1, 1, 2, 2, 2, 1})
	values := must(d, []float32{0.5, 1.5, 2.5, 3.5, 4.5, 5.5})
	keysOut, valuesOut := must(d, make([]int32, 6)), must(d, make([]float32, 6))
	n := must(d, []int64{0})
	if err := runtime.UniqueByKey[int32, float32](Same).Run(nil, keys, values, keysOut, valuesOut, n); err != nil {
		log.Fatal(err)
	}
	show(keysOut, count(n, 0))
	show(valuesOut, count(n, 0))
	// Output:
	// [1 2 1]
	// [0.5 2.5 5.5]
}

func ExampleRunLengthEncode() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	in := must(d, []int32{5, 5, 5, 2, 9, 9})
	unique, lengths := must(d, make([]int32, 6)), must(d, make([]int64, 6))
	n := must(d, []int64{0})
	rle := runtime.RunLengthEncode(Same)
	if err := rle.Run(nil, in, unique, lengths, n); err != nil {
		log.Fatal(err)
	}
	show(unique, count(n, 0))
	show(lengths, count(n, 0))

	// The runs of more than one element: where they start, how long they are.
	offsets := must(d, make([]int64, 3))
	if err := rle.RunNonTrivial(nil, in, offsets, lengths.Range(0, 3), n); err != nil {
		log.Fatal(err)
	}
	show(offsets, count(n, 0))
	show(lengths, count(n, 0))
	// Output:
	// [5 2 9]
	// [3 1 2]
	// [0 4]
	// [3 2]
}
