package algo

import "github.com/gocccl/gocccl/internal/arch"

var adjacentParams = []Param{{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "n", Kind: Size}}

// AdjacentDifference is runtime.AdjacentDifference(op func(T, T) T): out[0]
// = in[0], out[i] = op(in[i], in[i-1]) (left, CUB's SubtractLeftCopy), or
// out[i] = op(in[i], in[i+1]) with out[n-1] = in[n-1] (right)
// (kernels/include/gocccl/adjacent_difference.cuh).
var AdjacentDifference = register(&Algorithm{
	Name:       "AdjacentDifference",
	Stem:       "adjacent_difference",
	Header:     "adjacent_difference.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels: []Kernel{
		{Suffix: "left", Template: "::gocccl::adjacent_difference_left", Params: adjacentParams},
		{Suffix: "right", Template: "::gocccl::adjacent_difference_right", Params: adjacentParams},
	},
	// A transform's tuning: 32 bytes in flight per thread.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) },
})
