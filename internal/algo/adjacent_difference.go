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
	// 16 bytes a thread (one 16-byte chunk), 256 threads. Measured on the
	// H200 (bench/cub/tune/adjacent_tune.cu, bench/NOTES.md 2026-12-04 sixth
	// session): at 2^28 the only shape at copy speed, 511 µs for uint32 and
	// 1011 µs for uint64 against 529 / 1039 with 32 bytes a thread (CUB's
	// SubtractLeftCopy: 511 / 1028, the copy 512 / 1011).
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 16, a) },
})
