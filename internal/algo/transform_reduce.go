package algo

import "github.com/gocccl/gocccl/internal/arch"

// TransformReduce is runtime.TransformReduce(transform func(In) T, op
// func(T, T) T): op(init, fold of transform(in[i])) without an intermediate
// buffer. Reduce's single pass ("last block finishes") with the transform
// applied as items are loaded, and a single-block kernel for inputs of at
// most one tile (kernels/include/gocccl/transform_reduce.cuh); "det" is
// runtime.GPUToGPU's fixed tree, as Reduce's.
var TransformReduce = register(&Algorithm{
	Name:       "TransformReduce",
	Stem:       "transform_reduce",
	Header:     "transform_reduce.cuh",
	TypeParams: []string{"In", "T"},
	Ops: []Operator{
		{Role: "transform", Params: []string{"In"}, Results: []string{"T"}},
		{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}},
	},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::transform_reduce_single_pass", Params: []Param{
			{Name: "d_in", Kind: In, Type: "In"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"},
			{Name: "init", Kind: Value, Type: "T"}, {Name: "d_scratch", Kind: Scratch}}},
		{Suffix: "single", Template: "::gocccl::transform_reduce_single", Params: []Param{
			{Name: "d_in", Kind: In, Type: "In"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "init", Kind: Value, Type: "T"}}},
		{Suffix: "det", Template: "::gocccl::transform_reduce_deterministic", Params: []Param{
			{Name: "d_in", Kind: In, Type: "In"}, {Name: "n", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T"},
			{Name: "init", Kind: Value, Type: "T"}, {Name: "d_scratch", Kind: Scratch}}},
	},
	// Reduce's tuning over the widest of In and T.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) },
})
