package algo

import "github.com/gocccl/gocccl/internal/arch"

// The segmented sorts partition their segments into size classes, as
// cub::DeviceSegmentedSort does, and sort each class with its own engine
// (kernels/include/gocccl/segmented_sort.cuh): a warp per small segment, a
// block per medium or big segment sorting in shared memory in one launch,
// and Onesweep over the tiles of all large segments at once: one launch per
// digit pass and portion index, launch = pass*portions + r sorting portion r
// (of fewer than 2^29 items) of every large segment, portions bounding any
// segment's. Few segments take the fallback instead (cub's
// DeviceSegmentedSortFallbackKernel): one launch, a block per segment, with
// the engine of its length, segments longer than the tile sorted by their
// block alone through global memory (an alternate buffer of n keys and
// values). The policies are the radix sorts' tiles (RadixKeysPolicy,
// RadixPairsPolicy): the tile bounds the big class and is Onesweep's tile.
// Their minimum of blocks per multiprocessor is the radix sorts' Onesweep's
// alone (timed there only): the segmented sorts' kernels keep every register
// they ask for.

// segmentedSortKernels returns the entry points of a segmented sort: with
// values when pairs.
func segmentedSortKernels(pairs bool) []Kernel {
	stem := "::gocccl::segmented_sort_keys_"
	data := []Param{{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_keys_out", Kind: Out, Type: "K"}}
	if pairs {
		stem = "::gocccl::segmented_sort_pairs_"
		data = append(data, Param{Name: "d_values_in", Kind: In, Type: "V"}, Param{Name: "d_values_out", Kind: Out, Type: "V"})
	}
	segs := []Param{{Name: "d_begin", Kind: In, Type: "int64"}, {Name: "d_end", Kind: In, Type: "int64"}, {Name: "n", Kind: Size}}
	lists := []Param{{Name: "d_lists", Kind: Scratch}, {Name: "num_segments", Kind: Size},
		{Name: "cap_medium", Kind: Size}, {Name: "cap_big", Kind: Size}, {Name: "cap_large", Kind: Size}}
	desc := []Param{{Name: "descending", Kind: Value, Type: "bool"}}
	alt := []Param{{Name: "num_segments", Kind: Size}, {Name: "d_keys_alt", Kind: Scratch}}
	if pairs {
		alt = append(alt, Param{Name: "d_values_alt", Kind: Scratch})
	}
	cat := func(ps ...[]Param) []Param {
		var out []Param
		for _, p := range ps {
			out = append(out, p...)
		}
		return out
	}
	return []Kernel{
		{Suffix: "init", Template: "::gocccl::radix_sort_init", Params: []Param{
			{Name: "d_scratch", Kind: Scratch}, {Name: "words", Kind: Size}}},
		{Suffix: "classify", Template: stem + "classify", Params: cat(data, segs, lists)},
		{Suffix: "small", Template: stem + "small", Params: cat(data, segs, lists, desc)},
		{Suffix: "medium", Template: stem + "medium", Params: cat(data, segs, lists, desc)},
		{Suffix: "big", Template: stem + "big", Params: cat(data, segs, lists, desc)},
		{Suffix: "plan", Template: "::gocccl::segmented_sort_plan", Params: cat(segs, lists)},
		{Suffix: "histogram", Template: "::gocccl::segmented_sort_histogram", Params: cat(
			[]Param{{Name: "d_keys_in", Kind: In, Type: "K"}}, segs, lists, []Param{{Name: "d_bins", Kind: Scratch}}, desc)},
		{Suffix: "onesweep", Template: stem + "onesweep", Params: cat(data, segs, lists,
			[]Param{{Name: "d_bins", Kind: Scratch}, {Name: "d_lookback", Kind: Scratch},
				{Name: "portions", Kind: Size}, {Name: "launch", Kind: Size}}, desc)},
		// Last, so that the others keep their indices.
		{Suffix: "each", Template: stem + "each", Params: cat(data, segs, alt, desc)},
	}
}

// SegmentedSortKeys is runtime.SegmentedSortKeys[K]().
var SegmentedSortKeys = register(&Algorithm{
	Name:       "SegmentedSortKeys",
	Stem:       "segmented_sort_keys",
	Header:     "segmented_sort.cuh",
	TypeParams: []string{"K"},
	Kernels:    segmentedSortKernels(false),
	Policy:     withoutMinBlocks(RadixKeysPolicy),
})

// SegmentedSortPairs is runtime.SegmentedSortPairs[K, V]().
var SegmentedSortPairs = register(&Algorithm{
	Name:       "SegmentedSortPairs",
	Stem:       "segmented_sort_pairs",
	Header:     "segmented_sort.cuh",
	TypeParams: []string{"K", "V"},
	Kernels:    segmentedSortKernels(true),
	Policy:     withoutMinBlocks(RadixPairsPolicy),
})

// withoutMinBlocks returns policy with no minimum of blocks per multiprocessor.
func withoutMinBlocks(policy func(size int64, a int) arch.Policy) func(size int64, a int) arch.Policy {
	return func(size int64, a int) arch.Policy {
		p := policy(size, a)
		p.MinBlocks = 0
		return p
	}
}
