package ops

import "github.com/gocccl/gocccl/runtime"

// Benchmarked radix sorts (no operator), as bench/cub/radix.cu.
var (
	RadixSortKeysUint32   = runtime.RadixSortKeys[uint32]()
	RadixSortKeysFloat32  = runtime.RadixSortKeys[float32]()
	RadixSortKeysUint64   = runtime.RadixSortKeys[uint64]()
	RadixSortKeysFloat64  = runtime.RadixSortKeys[float64]()
	RadixSortPairsUint32  = runtime.RadixSortPairs[uint32, uint32]()
	RadixSortPairsFloat32 = runtime.RadixSortPairs[float32, uint32]()
	RadixSortPairsUint64  = runtime.RadixSortPairs[uint64, uint32]()
	RadixSortPairsFloat64 = runtime.RadixSortPairs[float64, uint32]()
)
