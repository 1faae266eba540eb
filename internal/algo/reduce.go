package algo

import "github.com/gocccl/gocccl/internal/arch"

// Reduce is runtime.Reduce(op func(T, T) T) (kernels/include/gocccl/reduce.cuh):
// one launch either way. Over more than one tile, every block reduces its
// share and the last block to finish reduces the partials, which it finds
// in the stream's scratch, with the init value; within one tile a single
// block reduces the input. The "det" kernel is runtime.GPUToGPU's fixed
// reduction tree (reduce_deterministic), one launch of any grid.
var Reduce = register(&Algorithm{
	Name:       "Reduce",
	Stem:       "reduce",
	Header:     "reduce.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::reduce_single_pass", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"},
			{Name: "init", Kind: Value, Type: "T"}, {Name: "d_scratch", Kind: Scratch}}},
		{Suffix: "final", Template: "::gocccl::reduce_final", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "init", Kind: Value, Type: "T"}}},
		{Suffix: "det", Template: "::gocccl::reduce_deterministic", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"},
			{Name: "init", Kind: Value, Type: "T"}, {Name: "d_scratch", Kind: Scratch}}},
	},
	// 256 threads × 64 bytes in flight: 16 items of 4 bytes, 8 of 8.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) },
})
