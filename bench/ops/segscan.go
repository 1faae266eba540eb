package ops

import "github.com/gocccl/gocccl/runtime"

// Benchmarked segmented scans, as bench/cub/segscan.cu: SegmentLen-item
// segments, given by offsets (Run) or by their size (RunFixed), against
// cub::DeviceScan's scans by key over segment ids (CCCL 3.0 has no
// cub::DeviceSegmentedScan).
var (
	SegmentedInclusiveScanUint32  = runtime.SegmentedInclusiveScan(AddUint32)
	SegmentedInclusiveScanFloat32 = runtime.SegmentedInclusiveScan(AddFloat32)
	SegmentedExclusiveScanUint32  = runtime.SegmentedExclusiveScan(AddUint32)
	SegmentedInclusiveScanUint64  = runtime.SegmentedInclusiveScan(AddUint64)
)
