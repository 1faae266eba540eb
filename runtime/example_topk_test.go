package runtime_test

import (
	"fmt"
	"math"

	"github.com/gocccl/gocccl/runtime"
)

var (
	topScores = runtime.TopKPairs[float32, int64]()
	topKeys   = runtime.TopKKeys[int32]()
)

func ExampleTopKPairs() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	// Scores and the ids they belong to; the three best, best first.
	scores, _ := runtime.FromHost(d, []float32{0.25, 0.9, 0.5, 0.9, 0.1, 0.75})
	ids, _ := runtime.FromHost(d, []int64{100, 101, 102, 103, 104, 105})
	best, _ := runtime.Alloc[float32](d, 3)
	who, _ := runtime.Alloc[int64](d, 3)
	if err := topScores.Run(nil, scores, best, ids, who, 3, runtime.TopKOptions{Largest: true, Sorted: true}); err != nil {
		panic(err)
	}
	b, _ := best.ToHost()
	w, _ := who.ToHost()
	fmt.Println(b, w) // the tie at 0.9: the lower position first
	// NaN (sign bit clear) orders after +Inf, as in a radix sort.
	odd, _ := runtime.FromHost(d, []float32{1, float32(math.NaN()), float32(math.Inf(1)), -2})
	if err := topScores.Run(nil, odd, best, ids.Range(0, 4), who, 2, runtime.TopKOptions{Largest: true, Sorted: true}); err != nil {
		panic(err)
	}
	b, _ = best.ToHost()
	fmt.Println(b[:2])
	// Output:
	// [0.9 0.9 0.75] [101 103 105]
	// [NaN +Inf]
}

func ExampleTopKKeys() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []int32{7, -3, 12, 0, -3, 5, 9})
	out, _ := runtime.Alloc[int32](d, 4)
	if err := topKeys.Run(nil, xs, out, 4, runtime.TopKOptions{Sorted: true}); err != nil {
		panic(err)
	}
	o, _ := out.ToHost()
	fmt.Println("four smallest:", o)
	// Unsorted, the CPU backend keeps the input order (a GPU need not).
	if err := topKeys.Run(nil, xs, out, 2, runtime.TopKOptions{Largest: true}); err != nil {
		panic(err)
	}
	o, _ = out.ToHost()
	fmt.Println("two largest:", o[:2])
	// Output:
	// four smallest: [-3 -3 0 5]
	// two largest: [12 9]
}

// A sorted selection takes any k: past runtime.TopKSortedMax (the k a GPU
// sorts in one block) a GPU radix sorts the k selected keys, with the same
// order and the same tie rule.
func ExampleTopKKeys_sortedLarge() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	const n, k = 20_000, 5_000
	keys := make([]int32, n)
	for i := range keys {
		keys[i] = int32(i * 7919 % n) // a permutation of 0 .. n-1
	}
	xs, _ := runtime.FromHost(d, keys)
	out, _ := runtime.Alloc[int32](d, k)
	if err := topKeys.Run(nil, xs, out, k, runtime.TopKOptions{Largest: true, Sorted: true}); err != nil {
		panic(err)
	}
	o, _ := out.ToHost()
	fmt.Println(k > runtime.TopKSortedMax, o[:3], o[k-1])
	// Output:
	// true [19999 19998 19997] 15000
}
