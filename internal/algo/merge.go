package algo

import "github.com/gocccl/gocccl/internal/arch"

// Merge is runtime.Merge(less func(T, T) bool): a stable merge of two
// sorted sequences (ties take the first input's items first) by merge-path
// partitioning (kernels/include/gocccl/merge.cuh). Kernel 0 merges one tile
// of the output per block through shared memory; kernel 1 finds the
// merge-path split of every tile boundary first, one thread per boundary.
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
	// 256 threads; 32 bytes of keys per thread: 8 four-byte keys per tile
	// of 2048, as CUB's sm_90 merge tuning keeps.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) },
})
