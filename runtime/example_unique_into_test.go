package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Count first, then allocate (cuda.compute's unique_by_key with
// DiscardIterators): an instance that writes its keys and values nowhere
// only counts the runs.
var (
	KeysDropped   = iterator.Discard[int32]()
	ValuesDropped = iterator.Discard[float64]()
	CountRuns     = runtime.UniqueByKey[int32, float64](Same).Into(KeysDropped, ValuesDropped)
	FirstOfRuns   = runtime.UniqueByKey[int32, float64](Same)
)

// ExampleUniqueByKeyOp_Into counts the runs of equal keys without any
// memory for the kept keys and values, allocates the outputs, and then
// keeps the first key of every run with the value beside it. The outputs of
// the second pass hold as many elements as the input, as every compaction's
// do: the count is in device memory when the pass is enqueued, so gocccl
// checks the outputs against the input's length; the first pass's count
// says how many of them to keep.
func ExampleUniqueByKeyOp_Into() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	keys := must(d, []int32{4, 4, 7, 7, 7, 4, 9})
	values := must(d, []float64{0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5})
	n, _ := runtime.Alloc[int64](d, 1)

	if err := CountRuns.Run(nil, keys, values, KeysDropped.Bind(), ValuesDropped.Bind(), n); err != nil {
		panic(err)
	}
	runs := count(n, 0)
	fmt.Println(runs, "runs of", keys.Len(), "keys")

	firsts, _ := runtime.Alloc[int32](d, keys.Len())
	vals, _ := runtime.Alloc[float64](d, keys.Len())
	if err := FirstOfRuns.Run(nil, keys, values, firsts, vals, n); err != nil {
		panic(err)
	}
	show(firsts, runs)
	show(vals, runs)
	// Output:
	// 4 runs of 7 keys
	// [4 7 4 9]
	// [0.5 2.5 5.5 6.5]
}
