package algo

import "github.com/gocccl/gocccl/internal/arch"

// searchPolicy runs one search value per thread, 256 threads per block.
func searchPolicy(size int64, a int) arch.Policy {
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 1}
}

// searchKernel is the one entry point of LowerBound and UpperBound: the
// sorted data and the search values may be read through iterators
// (runtime's Over), the output stays a pointer.
func searchKernel(template string) []Kernel {
	return []Kernel{{Template: template, Params: []Param{
		{Name: "d_data", Kind: In, Type: "T"}, {Name: "n_data", Kind: Size},
		{Name: "d_values", Kind: In, Type: "T"}, {Name: "n_values", Kind: Size},
		{Name: "d_out", Kind: Out, Type: "int64", Fixed: true}}}}
}

// lessOp is a strict weak ordering: less(a, b).
var lessOp = []Operator{{Role: "comparison", Params: []string{"T", "T"}, Results: []string{"bool"}}}

// LowerBound is runtime.LowerBound(less func(T, T) bool): for every search
// value v, the first index i of the sorted data with !less(data[i], v)
// (kernels/include/gocccl/search.cuh).
var LowerBound = register(&Algorithm{
	Name:       "LowerBound",
	Stem:       "lower_bound",
	Header:     "search.cuh",
	TypeParams: []string{"T"},
	Ops:        lessOp,
	Kernels:    searchKernel("::gocccl::lower_bound"),
	Policy:     searchPolicy,
})

// UpperBound is runtime.UpperBound(less func(T, T) bool): for every search
// value v, the first index i of the sorted data with less(v, data[i]).
var UpperBound = register(&Algorithm{
	Name:       "UpperBound",
	Stem:       "upper_bound",
	Header:     "search.cuh",
	TypeParams: []string{"T"},
	Ops:        lessOp,
	Kernels:    searchKernel("::gocccl::upper_bound"),
	Policy:     searchPolicy,
})
