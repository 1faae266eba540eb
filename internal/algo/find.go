package algo

import "github.com/gocccl/gocccl/internal/arch"

// FindIf is runtime.FindIf(pred func(T) bool): the index of the first item
// where pred holds, or n (cub::DeviceFind::FindIf of CCCL 3.1). One launch
// (kernels/include/gocccl/find.cuh): blocks walk their tiles in increasing
// order and stop at a tile that starts past the first hit found so far (an
// atomic in the stream's scratch); the last block to finish writes the
// index and clears the scratch.
var FindIf = register(&Algorithm{
	Name:       "FindIf",
	Stem:       "find_if",
	Header:     "find.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "predicate", Params: []string{"T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		{Suffix: "sweep", Template: "::gocccl::find_if", Params: []Param{
			{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
			{Name: "d_out", Kind: Out, Type: "int64", Fixed: true}, {Name: "d_scratch", Kind: Scratch}}},
	},
	// Reduce's tuning: 256 threads × 64 bytes in flight.
	Policy: func(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) },
})

// argParams are the parameters of the ArgMin and ArgMax sweeps: the input
// (through an iterator or not), the extremum and its index (pointers), the
// per-block partials in the stream's scratch.
var argParams = []Param{
	{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
	{Name: "d_value", Kind: Out, Type: "T", Fixed: true}, {Name: "d_index", Kind: Out, Type: "int64", Fixed: true},
	{Name: "d_scratch", Kind: Scratch},
}

// argPolicy is Reduce's tuning for the items (the index travels beside).
func argPolicy(size int64, a int) arch.Policy { return arch.MemBound(size, 64, a) }

// ArgMin is runtime.ArgMin(less func(T, T) bool): the least item by less
// and its index, the lowest index among equivalent ones
// (cub::DeviceReduce::ArgMin). One launch, the last block finishes
// (kernels/include/gocccl/argminmax.cuh).
var ArgMin = register(&Algorithm{
	Name:       "ArgMin",
	Stem:       "argmin",
	Header:     "argminmax.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "less", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels:    []Kernel{{Suffix: "sweep", Template: "::gocccl::argmin_single_pass", Params: argParams}},
	Policy:     argPolicy,
})

// ArgMax is runtime.ArgMax(less func(T, T) bool): the greatest item by less
// and its index, the lowest index among equivalent ones
// (cub::DeviceReduce::ArgMax).
var ArgMax = register(&Algorithm{
	Name:       "ArgMax",
	Stem:       "argmax",
	Header:     "argminmax.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "less", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels:    []Kernel{{Suffix: "sweep", Template: "::gocccl::argmax_single_pass", Params: argParams}},
	Policy:     argPolicy,
})

// segmentedArgParams are the parameters of the segmented ArgMin and ArgMax
// kernels: as SegmentedReduce's, with an index output beside the values.
var segmentedArgParams = []Param{
	{Name: "d_in", Kind: In, Type: "T"}, {Name: "n", Kind: Size},
	{Name: "d_begin", Kind: In, Type: "int64"}, {Name: "d_end", Kind: In, Type: "int64"},
	{Name: "num_segments", Kind: Size},
	{Name: "d_value", Kind: Out, Type: "T", Fixed: true}, {Name: "d_index", Kind: Out, Type: "int64", Fixed: true},
}

// SegmentedArgMin is runtime.SegmentedArgMin(less func(T, T) bool): ArgMin
// of every segment in[begin[s]:end[s]], its index relative to begin[s]
// (cub::DeviceSegmentedReduce::ArgMin). A warp per segment or a block per
// segment, picked per call as SegmentedReduce picks.
var SegmentedArgMin = register(&Algorithm{
	Name:       "SegmentedArgMin",
	Stem:       "segmented_argmin",
	Header:     "argminmax.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "less", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		{Suffix: "warp", Template: "::gocccl::segmented_argmin_warp", Params: segmentedArgParams},
		{Suffix: "block", Template: "::gocccl::segmented_argmin_block", Params: segmentedArgParams},
	},
	Policy: argPolicy,
})

// SegmentedArgMax is runtime.SegmentedArgMax(less func(T, T) bool), as
// SegmentedArgMin with ArgMax's order (cub::DeviceSegmentedReduce::ArgMax).
var SegmentedArgMax = register(&Algorithm{
	Name:       "SegmentedArgMax",
	Stem:       "segmented_argmax",
	Header:     "argminmax.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "less", Params: []string{"T", "T"}, Results: []string{"bool"}}},
	Kernels: []Kernel{
		{Suffix: "warp", Template: "::gocccl::segmented_argmax_warp", Params: segmentedArgParams},
		{Suffix: "block", Template: "::gocccl::segmented_argmax_block", Params: segmentedArgParams},
	},
	Policy: argPolicy,
})
