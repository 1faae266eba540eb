package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

var (
	segTopScores = runtime.SegmentedTopKPairs[float32, int64]()
	segTopKeys   = runtime.SegmentedTopKKeys[int32]()
)

func ExampleSegmentedTopKPairs() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	// Three users' scores, back to back, with the item each belongs to;
	// the best two of every user, best first.
	scores, _ := runtime.FromHost(d, []float32{0.5, 0.9, 0.1, 0.7, 0.3, 0.8, 0.8, 0.2})
	items, _ := runtime.FromHost(d, []int64{10, 11, 12, 20, 21, 30, 31, 32})
	begin, _ := runtime.FromHost(d, []int64{0, 3, 5})
	end, _ := runtime.FromHost(d, []int64{3, 5, 8})
	best, _ := runtime.Alloc[float32](d, 3*2)
	which, _ := runtime.Alloc[int64](d, 3*2)
	if err := segTopScores.Run(nil, scores, best, items, which, begin, end, 2, runtime.TopKOptions{Largest: true, Sorted: true}); err != nil {
		panic(err)
	}
	b, _ := best.ToHost()
	w, _ := which.ToHost()
	for u := range 3 {
		fmt.Println("user", u, b[2*u:2*u+2], w[2*u:2*u+2]) // user 2's tie at 0.8: the lower position first
	}
	// Output:
	// user 0 [0.9 0.5] [11 10]
	// user 1 [0.7 0.3] [20 21]
	// user 2 [0.8 0.8] [30 31]
}

func ExampleSegmentedTopKKeys() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs, _ := runtime.FromHost(d, []int32{7, -3, 12, 0, 5, 9, 4})
	// Segments may come in any order, overlap or be empty; one of fewer
	// than k keys writes them all and leaves the rest of its k places.
	begin, _ := runtime.FromHost(d, []int64{3, 0, 2, 6})
	end, _ := runtime.FromHost(d, []int64{7, 4, 2, 7})
	out, _ := runtime.FromHost(d, make([]int32, 4*3))
	if err := segTopKeys.Run(nil, xs, out, begin, end, 3, runtime.TopKOptions{Sorted: true}); err != nil {
		panic(err)
	}
	o, _ := out.ToHost()
	fmt.Println(o[0:3], o[3:6], o[6:9], o[9:12])
	// Output:
	// [0 4 5] [-3 0 7] [0 0 0] [4 0 0]
}
