package topk

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestGPUAllocations: a top-k on the GPU allocates nothing on the Go heap
// per call: unsorted, sorted in one block (k up to runtime.TopKSortedMax),
// and sorted past it, where the k results are radix sorted (the large-k
// path, with its scratch from the pool), smallest and largest, keys only
// and pairs, and a one-tile input selected by one block. Without a GPU it
// skips.
func TestGPUAllocations(t *testing.T) {
	d := devcheck.OpenGPU(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	r := devcheck.Rand(t)
	const n = 1 << 20
	m := runtime.TopKSortedMax
	i32s, f32s, pos := gen[int32](r, n), gen[float32](r, n), make([]int64, n)
	for i := range pos {
		pos[i] = int64(i)
	}
	keys32, keysF := devcheck.Upload(t, d, i32s), devcheck.Upload(t, d, f32s)
	values := devcheck.Upload(t, d, pos)
	out32, outF, outV := devcheck.Alloc[int32](t, d, n), devcheck.Alloc[float32](t, d, n), devcheck.Alloc[int64](t, d, n)
	small, smallOut := devcheck.Upload(t, d, i32s[:1000]), devcheck.Alloc[int32](t, d, 1000)
	sorted := runtime.TopKOptions{Sorted: true}
	largestSorted := runtime.TopKOptions{Sorted: true, Largest: true}
	type call struct {
		name string
		run  func() error
	}
	var calls []call
	for _, k := range []int{100, m, m + 1, 1 << 16, n / 2} {
		calls = append(calls,
			call{fmt.Sprintf("TopKKeys[int32] k=%d", k), func() error { return KeysInt32.Run(s, keys32, out32, k, runtime.TopKOptions{}) }},
			call{fmt.Sprintf("TopKKeys[int32] k=%d sorted", k), func() error { return KeysInt32.Run(s, keys32, out32, k, sorted) }},
			call{fmt.Sprintf("TopKKeys[float32] k=%d sorted largest", k), func() error { return KeysFloat32.Run(s, keysF, outF, k, largestSorted) }},
			call{fmt.Sprintf("TopKPairs[float32, int64] k=%d sorted", k), func() error { return PairsFloat32.Run(s, keysF, outF, values, outV, k, sorted) }},
			call{fmt.Sprintf("TopKPairs[float32, int64] k=%d sorted largest", k), func() error {
				return PairsFloat32.Run(s, keysF, outF, values, outV, k, largestSorted)
			}},
		)
	}
	calls = append(calls,
		call{"TopKKeys[int32] one tile, k=10 sorted", func() error { return KeysInt32.Run(s, small, smallOut, 10, sorted) }},
		call{"TopKKeys[int32] k=0", func() error { return KeysInt32.Run(s, keys32, out32, 0, sorted) }},
	)
	for _, c := range calls {
		devcheck.RequireNoAllocs(t, 20, c.name, c.run)
	}
	require.NoError(t, s.Synchronize())
}
