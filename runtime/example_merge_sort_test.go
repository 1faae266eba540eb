package runtime_test

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Job is a key ordered by two fields.
type Job struct {
	Priority int32
	Due      float32
}

// ByPriorityThenDue is the comparator; in a package that runs gocccl-gen it
// carries the //gocccl:op annotation.
func ByPriorityThenDue(a, b Job) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority // highest priority first
	}
	return a.Due < b.Due
}

// Ascending orders uint32 keys ascending.
func Ascending(a, b uint32) bool { return a < b }

func ExampleMergeSortKeys() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	sortJobs := runtime.MergeSortKeys(ByPriorityThenDue)

	jobs, err := runtime.FromHost(d, []Job{{1, 3.5}, {2, 9}, {1, 0.5}, {2, 1}, {0, 2}})
	if err != nil {
		panic(err)
	}
	defer jobs.Free()
	if err := sortJobs.Run(nil, jobs); err != nil {
		panic(err)
	}
	got, err := jobs.ToHost()
	if err != nil {
		panic(err)
	}
	fmt.Println(got)
	// Output: [{2 1} {2 9} {1 0.5} {1 3.5} {0 2}]
}

func ExampleMergeSortPairs() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	sortPairs := runtime.MergeSortPairs[uint32, float32](Ascending)

	keys, _ := runtime.FromHost(d, []uint32{3, 1, 2, 1, 3})
	defer keys.Free()
	values, _ := runtime.FromHost(d, []float32{3.0, 1.0, 2.0, 1.1, 3.1})
	defer values.Free()
	// The sort is stable: equal keys keep the order of their values.
	if err := sortPairs.Run(nil, keys, values); err != nil {
		panic(err)
	}
	k, _ := keys.ToHost()
	v, _ := values.ToHost()
	fmt.Println(k, v)
	// Output: [1 1 2 3 3] [1 1.1 2 3 3.1]
}
