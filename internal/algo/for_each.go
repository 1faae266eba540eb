package algo

import "github.com/gocccl/gocccl/internal/arch"

// ForEach is runtime.ForEach(op func(T) T): data[i] = op(data[i]) in place
// (kernels/include/gocccl/for_each.cuh).
var ForEach = register(&Algorithm{
	Name:       "ForEach",
	Stem:       "for_each",
	Header:     "for_each.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T"}, Results: []string{"T"}}},
	Kernels: []Kernel{{Template: "::gocccl::for_each", Params: []Param{
		{Name: "d_data", Kind: Out, Type: "T"}, {Name: "n", Kind: Size}}}},
	// A transform's tuning: 32 bytes in flight per thread.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 32, a) },
})
