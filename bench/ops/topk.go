package ops

import "github.com/gocccl/gocccl/runtime"

// Benchmarked top-k selections, as bench/cub/topk.cu (a full
// cub::DeviceRadixSort::SortKeys: CCCL 3.0 has no cub::DeviceTopK) and
// torch.topk in bench/py/algos/topk.py.
var (
	TopKUint32  = runtime.TopKKeys[uint32]()
	TopKFloat32 = runtime.TopKKeys[float32]()
)

// Benchmarked segmented top-k selections, as bench/cub/topk.cu (a
// cub::DeviceSegmentedSort::SortKeysDescending of the segments: CCCL 3.0
// has no segmented top-k).
var (
	SegmentedTopKUint32  = runtime.SegmentedTopKKeys[uint32]()
	SegmentedTopKFloat32 = runtime.SegmentedTopKKeys[float32]()
)
