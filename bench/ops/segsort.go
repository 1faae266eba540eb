package ops

import "github.com/gocccl/gocccl/runtime"

// Benchmarked segmented sorts (no operator), as bench/cub/segsort.cu.
var (
	SegmentedSortKeysUint32  = runtime.SegmentedSortKeys[uint32]()
	SegmentedSortPairsUint32 = runtime.SegmentedSortPairs[uint32, uint32]()
	SegmentedSortKeysUint64  = runtime.SegmentedSortKeys[uint64]()
	SegmentedSortPairsUint64 = runtime.SegmentedSortPairs[uint64, uint32]()
)
