package algo

import "github.com/gocccl/gocccl/internal/arch"

// Reduce is runtime.Reduce(op func(T, T) T): a partial reduction per block,
// then one block reduces the partials with the init value
// (kernels/include/gocccl/reduce.cuh).
var Reduce = register(&Algorithm{
	Name:       "Reduce",
	Stem:       "reduce",
	Header:     "reduce.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels: []Kernel{
		{Suffix: "partial", Template: "::gocccl::reduce_partial", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "d_partials", Kind: Out, Type: "T"}}},
		{Suffix: "final", Template: "::gocccl::reduce_final", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "init", Kind: Value, Type: "T"}}},
	},
	// 256 threads × 64 bytes in flight: 16 items of 4 bytes, 8 of 8.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) },
})
