package algo

import "github.com/gocccl/gocccl/internal/arch"

// searchPolicy runs one search value per thread of the binary search, 256
// threads per block; the sorted-values search's merge path tiles take
// ItemsPerThread items a thread, 2048 items of up to 8 bytes a tile and
// fewer of larger types (its tile and results fit 48 KiB of shared memory
// up to 128-byte items; the kernel searches larger ones one by one).
func searchPolicy(size int64, a int) arch.Policy {
	items := 8
	for items > 1 && int64(items)*size > 64 {
		items /= 2
	}
	return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: items}
}

// searchKernels are the entry points of LowerBound and UpperBound: the
// binary search of every value, and the merge of sorted values. The sorted
// data and the search values may be read through iterators (runtime's
// Over), the output stays a pointer.
func searchKernels(template string) []Kernel {
	params := []Param{
		{Name: "d_data", Kind: In, Type: "T"}, {Name: "n_data", Kind: Size},
		{Name: "d_values", Kind: In, Type: "T"}, {Name: "n_values", Kind: Size},
		{Name: "d_out", Kind: Out, Type: "int64", Fixed: true}}
	return []Kernel{
		{Template: template, Params: params},
		{Suffix: "sorted", Template: template + "_sorted", Params: params},
	}
}

// lessOp is a strict weak ordering: less(a, b).
var lessOp = []Operator{{Role: "comparison", Params: []string{"T", "T"}, Results: []string{"bool"}}}

// LowerBound is runtime.LowerBound(less func(T, T) bool): for every search
// value v, the first index i of the sorted data with !less(data[i], v)
// (kernels/include/gocccl/search.cuh); of sorted values, a merge of the two
// sequences.
var LowerBound = register(&Algorithm{
	Name:       "LowerBound",
	Stem:       "lower_bound",
	Header:     "search.cuh",
	TypeParams: []string{"T"},
	Ops:        lessOp,
	Kernels:    searchKernels("::gocccl::lower_bound"),
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
	Kernels:    searchKernels("::gocccl::upper_bound"),
	Policy:     searchPolicy,
})
