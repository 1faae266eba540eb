package algo

import "github.com/gocccl/gocccl/internal/arch"

// transformPolicy keeps 32 bytes in flight per thread: 8 items of 4 bytes.
func transformPolicy(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) }

// UnaryTransform is runtime.UnaryTransform(op func(In) Out): out[i] =
// op(in[i]) (kernels/include/gocccl/transform.cuh).
var UnaryTransform = register(&Algorithm{
	Name:       "UnaryTransform",
	Stem:       "transform",
	Header:     "transform.cuh",
	TypeParams: []string{"In", "Out"},
	Ops:        []Operator{{Role: "operator", Params: []string{"In"}, Results: []string{"Out"}}},
	Kernels: []Kernel{{Template: "::gocccl::transform", Params: []Param{
		{Name: "d_in", Kind: In, Type: "In"}, {Name: "d_out", Kind: Out, Type: "Out"}, {Name: "n", Kind: Size}}}},
	Policy: transformPolicy,
})

// BinaryTransform is runtime.BinaryTransform(op func(A, B) Out): out[i] =
// op(a[i], b[i]).
var BinaryTransform = register(&Algorithm{
	Name:       "BinaryTransform",
	Stem:       "transform2",
	Header:     "transform.cuh",
	TypeParams: []string{"A", "B", "Out"},
	Ops:        []Operator{{Role: "operator", Params: []string{"A", "B"}, Results: []string{"Out"}}},
	Kernels: []Kernel{{Template: "::gocccl::transform2", Params: []Param{
		{Name: "d_a", Kind: In, Type: "A"}, {Name: "d_b", Kind: In, Type: "B"}, {Name: "d_out", Kind: Out, Type: "Out"}, {Name: "n", Kind: Size}}}},
	Policy: transformPolicy,
})
