package algo

import "github.com/gocccl/gocccl/internal/arch"

// Merge is runtime.Merge(less func(T, T) bool): a stable merge of two
// sorted sequences (ties take the first input's items first) by merge-path
// partitioning (kernels/include/gocccl/merge.cuh). Kernel 0 merges one tile
// of the output per block through shared memory, finding its two splits
// itself when d_splits is null (the runtime's choice for up to one wave of
// resident blocks); kernel 1 finds the merge-path split of every tile
// boundary first, one thread per boundary, for larger grids.
var Merge = register(&Algorithm{
	Name:       "Merge",
	Stem:       "merge",
	Header:     "merge.cuh",
	TypeParams: []string{"T"},
	Ops:        lessOp,
	Kernels: []Kernel{
		{Suffix: "tiles", Template: "::gocccl::merge_tiles", Params: []Param{
			{Name: "d_a", Kind: In, Type: "T"}, {Name: "n_a", Kind: Size},
			{Name: "d_b", Kind: In, Type: "T"}, {Name: "n_b", Kind: Size},
			{Name: "d_out", Kind: Out, Type: "T"}, {Name: "d_splits", Kind: In, Type: "int64"}}},
		{Suffix: "partition", Template: "::gocccl::merge_partition", Params: []Param{
			{Name: "d_a", Kind: In, Type: "T"}, {Name: "n_a", Kind: Size},
			{Name: "d_b", Kind: In, Type: "T"}, {Name: "n_b", Kind: Size},
			{Name: "d_splits", Kind: Out, Type: "int64"}, {Name: "tiles", Kind: Size}}},
	},
	Policy: mergePolicy,
})

// mergeTileBytes bounds a merge tile's shared memory (the kernel stages the
// tile's inputs there, in TILE + 1 slots: the serial merge reads one key past
// a spent input): within the 48 KiB of static shared memory, with room for a
// second block on the SM. At the floor of 32 threads a tile of wider keys
// may exceed it; keys over 1489 bytes (33 slots) do not fit 48 KiB at all.
const mergeTileBytes = 40 << 10

// mergePolicy is cub::DeviceMerge's tuning for sm_60 and later (CCCL 3's
// tuning_merge.cuh): 512 threads and 15 four-byte items per thread, scaled
// as Nominal4BItemsToItems does (60 bytes per thread, 1 to 15 items), with
// half as many threads while a tile of wide items would not fit in
// mergeTileBytes. On sm_90 and newer, 4- and 8-byte keys take the shapes
// bench/cub/tune/merge_tune.cu timed fastest on the H200 (bench/NOTES.md,
// 2026-12-02 and 2026-12-03): 256 × 15 four-byte keys with 8 blocks an SM
// (32 registers, as CUB's kernel has, against 58 without the bound: 0.97×
// CUB at 2^24 and 2^28; without it 1.04× and 1.14×) and 128 × 15 eight-byte
// keys (0.91× and 0.95×), both 15 KiB tiles.
func mergePolicy(size int64, a int) arch.Policy {
	size = max(size, 1)
	if a >= 90 && (size == 4 || size == 8) {
		p := arch.Policy{Arch: a, BlockThreads: int(1024 / size), ItemsPerThread: 15}
		if size == 4 {
			p.MinBlocks = 8
		}
		return p
	}
	items := int(min(15, max(1, 60/size)))
	threads := 512
	for threads > 32 && int64(threads*items)*size > mergeTileBytes {
		threads /= 2
	}
	return arch.Policy{Arch: a, BlockThreads: threads, ItemsPerThread: items}
}
