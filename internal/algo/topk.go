package algo

import "github.com/gocccl/gocccl/internal/arch"

// The top-k selections are radix selects (AIR top-k, as cub::DeviceTopK of
// CCCL 3.2 runs it): each key's ordered bits (the radix sort's, flipped for
// the largest) and its input position form a distinct composite, selected
// MSB first in 11-bit digits. One pass kernel per digit level histograms the
// candidates (keys whose prefix equals the threshold's so far), writes the
// keys already known to be selected, and compacts the candidates into a
// buffer; the last block of each launch chooses the digit, so no count goes
// back to the host. Inputs of at most one tile are selected by one block;
// the sorted variant sorts the k results in one block
// (kernels/include/gocccl/topk.cuh).

// topkKernels returns the entry points of a top-k: with values when pairs.
func topkKernels(pairs bool) []Kernel {
	stem := "::gocccl::topk_keys_"
	data := []Param{{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_keys_out", Kind: Out, Type: "K"}}
	if pairs {
		stem = "::gocccl::topk_pairs_"
		data = append(data, Param{Name: "d_values_in", Kind: In, Type: "V"}, Param{Name: "d_values_out", Kind: Out, Type: "V"})
	}
	cat := func(ps ...[]Param) []Param {
		var out []Param
		for _, p := range ps {
			out = append(out, p...)
		}
		return out
	}
	nk := []Param{{Name: "n", Kind: Size}, {Name: "k", Kind: Size}}
	largest := []Param{{Name: "largest", Kind: Value, Type: "bool"}}
	return []Kernel{
		{Suffix: "init", Template: "::gocccl::topk_init", Params: []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "words", Kind: Size}}},
		{Suffix: "pass", Template: stem + "pass", Params: cat(data, nk, []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "cap", Kind: Size}, {Name: "sorted", Kind: Size},
			{Name: "level", Kind: Size}}, largest)},
		{Suffix: "single", Template: stem + "single", Params: cat(data, nk, []Param{{Name: "d_scratch", Kind: Scratch}}, largest)},
		{Suffix: "sort", Template: stem + "sort", Params: cat(data, nk, []Param{{Name: "d_positions", Kind: Scratch}}, largest)},
	}
}

// TopKPolicy is the tuning of top-k selections: 256 threads (one sort item
// per thread of SORT_ITEMS = 16 gives a sorted k of up to 4096) and 16 items
// a thread for the single-block path (a tile of 4096 keys). The pass
// kernels stride over their source in tiles of the same size. Not yet
// timed on a GPU.
func TopKPolicy(size int64, a int) arch.Policy {
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 16}
}

// TopKKeys is runtime.TopKKeys[K]().
var TopKKeys = register(&Algorithm{
	Name:       "TopKKeys",
	Stem:       "topk_keys",
	Header:     "topk.cuh",
	TypeParams: []string{"K"},
	Kernels:    topkKernels(false),
	Policy:     TopKPolicy,
})

// TopKPairs is runtime.TopKPairs[K, V]().
var TopKPairs = register(&Algorithm{
	Name:       "TopKPairs",
	Stem:       "topk_pairs",
	Header:     "topk.cuh",
	TypeParams: []string{"K", "V"},
	Kernels:    topkKernels(true),
	Policy:     TopKPolicy,
})
