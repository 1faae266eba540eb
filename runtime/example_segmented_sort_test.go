package runtime_test

import (
	"fmt"
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// Instances of the segmented sorts are declared with their types; gocccl-gen
// generates their kernels, and the CPU backend runs them anywhere.
var (
	segSortKeys  = runtime.SegmentedSortKeys[float32]()
	segSortPairs = runtime.SegmentedSortPairs[int32, string8]()
)

// Three segments of one offsets buffer: [0, 4), [4, 4) (empty) and [4, 7).
func ExampleSegmentedSortKeys() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	nan, negZero := float32(math.NaN()), float32(math.Copysign(0, -1))
	in, _ := runtime.FromHost(d, []float32{3, nan, -1.5, 0, negZero, float32(math.Inf(-1)), 2})
	out, _ := runtime.Alloc[float32](d, in.Len())
	offsets, _ := runtime.FromHost(d, []int64{0, 4, 4, 7})
	begin, end := offsets.Range(0, 3), offsets.Range(1, 4)
	if err := segSortKeys.Run(nil, in, out, begin, end, runtime.SegmentedSortOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	keys, _ := out.ToHost()
	fmt.Println(keys)
	_ = segSortKeys.Run(nil, in, out, begin, end, runtime.SegmentedSortOptions{Descending: true})
	keys, _ = out.ToHost()
	fmt.Println(keys)
	// Output:
	// [-1.5 0 3 NaN -Inf -0 2]
	// [NaN 3 0 -1.5 2 -0 -Inf]
}

// The sort is stable: equal keys keep their values' input order.
func ExampleSegmentedSortPairs() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	keys, _ := runtime.FromHost(d, []int32{2, 1, 2, 1, 9, 5, 5})
	vals, _ := runtime.FromHost(d, []string8{{'a'}, {'b'}, {'c'}, {'d'}, {'e'}, {'f'}, {'g'}})
	keysOut, _ := runtime.Alloc[int32](d, 7)
	valsOut, _ := runtime.Alloc[string8](d, 7)
	begin, _ := runtime.FromHost(d, []int64{0, 4})
	end, _ := runtime.FromHost(d, []int64{4, 7})
	if err := segSortPairs.Run(nil, keys, keysOut, vals, valsOut, begin, end, runtime.SegmentedSortOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	k, _ := keysOut.ToHost()
	v, _ := valsOut.ToHost()
	for i := range k {
		fmt.Printf("%d%c ", k[i], v[i][0])
	}
	fmt.Println()
	// Output: 1b 1d 2a 2c 5f 5g 9e
}
