package algo

import "github.com/gocccl/gocccl/internal/arch"

// The segmented top-k selections run a group of threads per segment (a
// warp for short segments, a block for long ones, as the segmented
// reduction dispatches): each group radix-selects the k-th best key of its
// segment over the keys' ordered bits (the radix sort's, flipped for the
// largest), 8 bits a pass, MSB first, counting digits in shared memory and
// reading the segment from global memory once a pass; a last pass writes,
// in input order, every key better than the threshold and the first of
// those equal to it (ties broken by the lower position). Sorted selections
// stage the k results in shared memory and rank them
// (kernels/include/gocccl/segmented_topk.cuh).

// segTopKKernels returns the entry points of a segmented top-k: with
// values when pairs.
func segTopKKernels(pairs bool) []Kernel {
	stem := "::gocccl::segmented_topk_keys_"
	data := []Param{{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_keys_out", Kind: Out, Type: "K"}}
	if pairs {
		stem = "::gocccl::segmented_topk_pairs_"
		data = append(data, Param{Name: "d_values_in", Kind: In, Type: "V"}, Param{Name: "d_values_out", Kind: Out, Type: "V"})
	}
	params := append(data,
		Param{Name: "d_begin", Kind: In, Type: "int64"}, Param{Name: "d_end", Kind: In, Type: "int64"},
		Param{Name: "n", Kind: Size}, Param{Name: "num_segments", Kind: Size}, Param{Name: "k", Kind: Size},
		Param{Name: "sorted", Kind: Size}, Param{Name: "largest", Kind: Value, Type: "bool"})
	return []Kernel{
		{Suffix: "warp", Template: stem + "warp", Params: params},
		{Suffix: "block", Template: stem + "block", Params: params},
	}
}

// SegmentedTopKPolicy is the tuning of segmented top-k selections: 256
// threads (8 warps, each staging up to 256 sorted results; a block stages
// up to 1024). ItemsPerThread only sizes the dispatch's tile. Not yet timed
// on a GPU.
func SegmentedTopKPolicy(size int64, a int) arch.Policy {
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 4}
}

// SegmentedTopKKeys is runtime.SegmentedTopKKeys[K]().
var SegmentedTopKKeys = register(&Algorithm{
	Name:       "SegmentedTopKKeys",
	Stem:       "segmented_topk_keys",
	Header:     "segmented_topk.cuh",
	TypeParams: []string{"K"},
	Kernels:    segTopKKernels(false),
	Policy:     SegmentedTopKPolicy,
})

// SegmentedTopKPairs is runtime.SegmentedTopKPairs[K, V]().
var SegmentedTopKPairs = register(&Algorithm{
	Name:       "SegmentedTopKPairs",
	Stem:       "segmented_topk_pairs",
	Header:     "segmented_topk.cuh",
	TypeParams: []string{"K", "V"},
	Kernels:    segTopKKernels(true),
	Policy:     SegmentedTopKPolicy,
})
