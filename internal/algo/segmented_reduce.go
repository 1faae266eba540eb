package algo

import "github.com/gocccl/gocccl/internal/arch"

// segmentedParams are the parameters of the SegmentedReduce kernels: the
// values and both offsets may be read through iterators (runtime's Over),
// the output stays a pointer.
var segmentedParams = []Param{
	{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
	{Name: "d_begin", Kind: In, Type: "int64"}, {Name: "d_end", Kind: In, Type: "int64"},
	{Name: "num_segments", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T", Fixed: true}, {Name: "init", Kind: Value, Type: "T"},
}

// segmentedFixedParams are the parameters of the fixed-size kernels:
// segment s is [s*segment_size, min((s+1)*segment_size, n)), no offsets read.
var segmentedFixedParams = []Param{
	{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size}, {Name: "segment_size", Kind: Size},
	{Name: "num_segments", Kind: Size}, {Name: "d_out", Kind: Out, Type: "T", Fixed: true}, {Name: "init", Kind: Value, Type: "T"},
}

// SegmentedReduce is runtime.SegmentedReduce(op func(T, T) T): out[s] =
// op(init, fold of in[begin[s]:end[s]]). Four kernels with the same
// parameters, a warp per segment and a block per segment, which the runtime
// picks between per call from the average segment length, and a thread and
// a sub-warp of 8 lanes per segment, which it picks for tiny and small
// segments when it knows their maximum length (a MaxSegmentSize hint, or
// RunFixed's size) (kernels/include/gocccl/segmented_reduce.cuh). Their
// "_fixed" twins serve RunFixed: segments of one size, computed instead of
// read.
var SegmentedReduce = register(&Algorithm{
	Name:       "SegmentedReduce",
	Stem:       "segmented_reduce",
	Header:     "segmented_reduce.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels: []Kernel{
		{Suffix: "warp", Template: "::gocccl::segmented_reduce_warp", Params: segmentedParams},
		{Suffix: "block", Template: "::gocccl::segmented_reduce_block", Params: segmentedParams},
		{Suffix: "warp_fixed", Template: "::gocccl::segmented_reduce_warp_fixed", Params: segmentedFixedParams},
		{Suffix: "block_fixed", Template: "::gocccl::segmented_reduce_block_fixed", Params: segmentedFixedParams},
		{Suffix: "thread", Template: "::gocccl::segmented_reduce_thread", Params: segmentedParams},
		{Suffix: "subwarp", Template: "::gocccl::segmented_reduce_subwarp", Params: segmentedParams},
		{Suffix: "thread_fixed", Template: "::gocccl::segmented_reduce_thread_fixed", Params: segmentedFixedParams},
		{Suffix: "subwarp_fixed", Template: "::gocccl::segmented_reduce_subwarp_fixed", Params: segmentedFixedParams},
	},
	// Reduce's tuning: 64 bytes in flight per thread (a warp's lane keeps
	// ITEMS_PER_THREAD items, four 16-byte chunks of 4-byte items, in flight).
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) },
})
