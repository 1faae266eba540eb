package algo

import "github.com/gocccl/gocccl/internal/arch"

// The top-k selections are radix selects (AIR top-k, as cub::DeviceTopK of
// CCCL 3.2 runs it): each key's ordered bits (the radix sort's, flipped for
// the largest) and its input position form a distinct composite, selected
// MSB first in 11-bit digits. One pass kernel per digit level histograms the
// candidates (keys whose prefix equals the threshold's so far), writes the
// keys already known to be selected, and compacts the candidates into a
// buffer; the last block of each launch chooses the digit, so no count goes
// back to the host. Large inputs with small k are first filtered by a bound
// sampled from every 256th key, so one read of the input leaves a few
// thousand candidates. Inputs of at most one tile are selected by one block;
// the sorted variant sorts the k results in one block when they fit it
// (k <= 4096), else with Onesweep over 64-bit items of their ordered bits
// and positions, the radix sort's kernels instantiated in the instance
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
	window := []Param{{Name: "begin_bit", Kind: Size}, {Name: "end_bit", Kind: Size}, {Name: "descending", Kind: Value, Type: "bool"}}
	return []Kernel{
		{Suffix: "init", Template: "::gocccl::topk_init", Params: []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "words", Kind: Size}}},
		{Suffix: "pass", Template: stem + "pass", Params: cat(data, nk, []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "cap", Kind: Size}, {Name: "sorted", Kind: Size},
			{Name: "level", Kind: Size}}, largest)},
		// The prefilter of large selections, before level 0: one template
		// for keys and pairs, which reads the keys alone.
		{Suffix: "filter", Template: "::gocccl::topk_filter", Params: cat(data[:1], nk, []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "d_sample", Kind: Scratch}, {Name: "cap", Kind: Size},
			{Name: "stride", Kind: Size}, {Name: "rank", Kind: Size}, {Name: "phase", Kind: Size}}, largest)},
		{Suffix: "single", Template: stem + "single", Params: cat(data, nk, []Param{{Name: "d_scratch", Kind: Scratch}}, largest)},
		{Suffix: "sort", Template: stem + "sort", Params: cat(data, nk, []Param{{Name: "d_positions", Kind: Scratch}}, largest)},
		// Sorted selections of more than the block sort holds: the sort
		// items of the results, a Onesweep over them (the parameters of
		// radixKernels' histogram and onesweep), then the results.
		{Suffix: "order", Template: stem + "order", Params: cat(data, nk, []Param{
			{Name: "d_positions", Kind: Scratch}, {Name: "d_bits", Kind: Scratch}, {Name: "shift", Kind: Size}}, largest)},
		{Suffix: "sort_histogram", Template: "::gocccl::topk_sort_histogram", Params: cat([]Param{
			{Name: "d_sort_keys", Kind: Scratch}, {Name: "count", Kind: Size}, {Name: "d_sort_scratch", Kind: Scratch}}, window)},
		{Suffix: "sort_onesweep", Template: "::gocccl::topk_sort_onesweep", Params: cat([]Param{
			{Name: "d_sort_keys_in", Kind: Scratch}, {Name: "d_sort_keys_out", Kind: Scratch},
			{Name: "d_sort_values_in", Kind: Scratch}, {Name: "d_sort_values_out", Kind: Scratch},
			{Name: "count", Kind: Size}, {Name: "d_sort_scratch", Kind: Scratch}, {Name: "pass", Kind: Size}}, window)},
		{Suffix: "gather", Template: stem + "gather", Params: cat(data, nk, []Param{
			{Name: "d_bits", Kind: Scratch}, {Name: "d_idx", Kind: Scratch}, {Name: "shift", Kind: Size}}, largest)},
	}
}

// TopKPolicy is the tuning of top-k selections: 256 threads (one sort item
// per thread of SORT_ITEMS = 16 gives a block-sorted k of up to 4096) and 16
// items a thread for the single-block path (a tile of 4096 keys). The pass
// kernels stride over their source in tiles of the same size, and the
// Onesweep of larger sorted selections sorts tiles of the same 4096 items
// (so it never needs a single-tile kernel). Not yet timed on a GPU.
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
