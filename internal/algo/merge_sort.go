package algo

import "github.com/gocccl/gocccl/internal/arch"

// mergeSortPolicy is CUB's sm_60+ DeviceMergeSort tuning: 256 threads and
// 17 items of 4 bytes per thread (an odd count keeps the shared-memory
// merges free of bank conflicts), scaled by the widest element as
// cub::Nominal4BItemsToItems does: 8 items of 8 bytes, 4 of 16, 1 of 64+.
// One tile is BlockThreads × ItemsPerThread keys; the block-sort, partition
// and merge kernels share the policy, and the single-tile kernel its block
// size (it sorts a small input in a smaller tile of as many threads:
// kernels/include/gocccl/merge_sort.cuh, MergeSortSingleItems).
func mergeSortPolicy(size int64, a int) arch.Policy {
	const nominal = 17
	size = max(size, 1)
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: int(min(nominal, max(1, nominal*4/size)))}
}

// keyLessOp is the comparator of the merge sorts: less(a, b) reports whether a
// is ordered before b, a strict weak order.
var keyLessOp = []Operator{{Role: "comparator", Params: []string{"K", "K"}, Results: []string{"bool"}}}

// MergeSortKeys is runtime.MergeSortKeys(less func(K, K) bool): a stable
// in-place sort of keys with a user comparator, as cub::DeviceMergeSort
// does it (kernels/include/gocccl/merge_sort.cuh). Up to one tile of keys
// is sorted by one block in one launch (the single kernel, in the smallest
// tile that holds them); above, every tile is sorted by one block, then
// each pass computes merge-path splits per output tile (a
// partition kernel, or, for up to four waves of resident merge blocks, each
// merge block its own) and merges pairs of sorted runs of 2^pass tiles,
// ping-ponging between the keys and a scratch copy so that the last pass
// writes the keys. The block sort and the single kernel
// read d_keys_in: the keys themselves for Run, or, for RunCopy (as
// cub::DeviceMergeSort::SortKeysCopy), another Slice or an input iterator
// the instance declared with Over; the keys they sort into stay pointers
// (Fixed), since the merge passes read them back.
var MergeSortKeys = register(&Algorithm{
	Name:       "MergeSortKeys",
	Stem:       "merge_sort_keys",
	Header:     "merge_sort.cuh",
	TypeParams: []string{"K"},
	Ops:        keyLessOp,
	Kernels: []Kernel{
		{Suffix: "block", Template: "::gocccl::merge_sort_keys_block", Params: []Param{
			{Name: "d_keys_in", Kind: In, Type: "K"},
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "d_tmp_keys", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "to_tmp", Kind: Size}}},
		{Suffix: "partition", Template: "::gocccl::merge_sort_keys_partition", Params: []Param{
			{Name: "d_keys", Kind: In, Type: "K", Fixed: true}, {Name: "d_tmp_keys", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "d_partitions", Kind: Scratch},
			{Name: "from_tmp", Kind: Size}, {Name: "merged_tiles", Kind: Size}}},
		{Suffix: "merge", Template: "::gocccl::merge_sort_keys_merge", Params: []Param{
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "d_tmp_keys", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "d_partitions", Kind: Scratch},
			{Name: "from_tmp", Kind: Size}, {Name: "merged_tiles", Kind: Size}}},
		// Last, so that the others keep their indices.
		{Suffix: "single", Template: "::gocccl::merge_sort_keys_single", Params: []Param{
			{Name: "d_keys_in", Kind: In, Type: "K"},
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "n", Kind: Size}}},
	},
	Policy: mergeSortPolicy,
})

// MergeSortPairs is runtime.MergeSortPairs[K, V](less func(K, K) bool):
// MergeSortKeys that moves a value with each key. V appears in no operator,
// so instances name their types: runtime.MergeSortPairs[uint32, float32](Less).
var MergeSortPairs = register(&Algorithm{
	Name:       "MergeSortPairs",
	Stem:       "merge_sort_pairs",
	Header:     "merge_sort.cuh",
	TypeParams: []string{"K", "V"},
	Ops:        keyLessOp,
	Kernels: []Kernel{
		{Suffix: "block", Template: "::gocccl::merge_sort_pairs_block", Params: []Param{
			{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_values_in", Kind: In, Type: "V"},
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "d_values", Kind: Out, Type: "V", Fixed: true},
			{Name: "d_tmp_keys", Kind: Scratch}, {Name: "d_tmp_values", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "to_tmp", Kind: Size}}},
		{Suffix: "partition", Template: "::gocccl::merge_sort_pairs_partition", Params: []Param{
			{Name: "d_keys", Kind: In, Type: "K", Fixed: true}, {Name: "d_tmp_keys", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "d_partitions", Kind: Scratch},
			{Name: "from_tmp", Kind: Size}, {Name: "merged_tiles", Kind: Size}}},
		{Suffix: "merge", Template: "::gocccl::merge_sort_pairs_merge", Params: []Param{
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "d_values", Kind: Out, Type: "V", Fixed: true},
			{Name: "d_tmp_keys", Kind: Scratch}, {Name: "d_tmp_values", Kind: Scratch},
			{Name: "n", Kind: Size}, {Name: "d_partitions", Kind: Scratch},
			{Name: "from_tmp", Kind: Size}, {Name: "merged_tiles", Kind: Size}}},
		// Last, so that the others keep their indices.
		{Suffix: "single", Template: "::gocccl::merge_sort_pairs_single", Params: []Param{
			{Name: "d_keys_in", Kind: In, Type: "K"}, {Name: "d_values_in", Kind: In, Type: "V"},
			{Name: "d_keys", Kind: Out, Type: "K", Fixed: true}, {Name: "d_values", Kind: Out, Type: "V", Fixed: true},
			{Name: "n", Kind: Size}}},
	},
	Policy: mergeSortPolicy,
})
