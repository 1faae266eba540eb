package algo

import "github.com/gocccl/gocccl/internal/arch"

// segmentedScanKernels are the kernels of both segmented scans
// (kernels/include/gocccl/segmented_scan.cuh): "block", a block per segment
// of begin and end offsets, and "fixed", segments of a fixed size, several
// whole ones a block when they fit a tile. The values may be read and the
// results written through iterators (runtime's Over and Into), the offsets
// read through them too.
func segmentedScanKernels(stem string) []Kernel {
	tail := []Param{{Name: "init", Kind: Value, Type: "T"}, {Name: "has_init", Kind: Value, Type: "bool"}}
	io := []Param{{Name: "d_in", Kind: In, Type: "T"}, {Name: "d_out", Kind: Out, Type: "T"}, {Name: "n", Kind: Size}}
	block := append(append(append([]Param{}, io...),
		Param{Name: "d_begin", Kind: In, Type: "int64"}, Param{Name: "d_end", Kind: In, Type: "int64"},
		Param{Name: "num_segments", Kind: Size}), tail...)
	fixed := append(append(append([]Param{}, io...), Param{Name: "segment_size", Kind: Size}), tail...)
	return []Kernel{
		{Suffix: "block", Template: "::gocccl::" + stem + "_block", Params: block},
		{Suffix: "fixed", Template: "::gocccl::" + stem + "_fixed", Params: fixed},
	}
}

// SegmentedInclusiveScan is runtime.SegmentedInclusiveScan(op func(T, T)
// T): an inclusive scan of every segment, optionally seeded with init
// (cub::DeviceSegmentedScan::InclusiveSegmentedScan, CCCL 3.3).
var SegmentedInclusiveScan = register(&Algorithm{
	Name:       "SegmentedInclusiveScan",
	Stem:       "segmented_inclusive_scan",
	Header:     "segmented_scan.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels:    segmentedScanKernels("segmented_inclusive_scan"),
	Policy:     segmentedScanPolicy,
})

// SegmentedExclusiveScan is runtime.SegmentedExclusiveScan(op func(T, T)
// T): an exclusive scan of every segment seeded with init
// (cub::DeviceSegmentedScan::ExclusiveSegmentedScan).
var SegmentedExclusiveScan = register(&Algorithm{
	Name:       "SegmentedExclusiveScan",
	Stem:       "segmented_exclusive_scan",
	Header:     "segmented_scan.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"T", "T"}, Results: []string{"T"}}},
	Kernels:    segmentedScanKernels("segmented_exclusive_scan"),
	Policy:     segmentedScanPolicy,
})

// segmentedScanPolicy is a tile of 1024 4-byte items, 128 threads × 8,
// scaled as cub::MemBoundScaling: a segment of the common 1024-item shape
// is one tile of a block, with no thread idle, and a block per segment
// keeps enough segments resident per SM to cover the memory latency. Not
// tuned on a GPU yet.
func segmentedScanPolicy(size int64, a int) arch.Policy { return memBoundScaling(128, 8, size, a) }
