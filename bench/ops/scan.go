package ops

import "github.com/gocccl/gocccl/runtime"

// AddUint32 is the wrapping sum of the uint32 scans and reductions.
//
//gocccl:op
func AddUint32(a, b uint32) uint32 { return a + b }

// EqUint32 is the key equality of the by-key algorithms.
//
//gocccl:op
func EqUint32(a, b uint32) bool { return a == b }

// Benchmarked scans, as cub::DeviceScan::{Inclusive,Exclusive}Sum(ByKey) in
// bench/cub/scan.cu.
var (
	InclusiveScanUint32       = runtime.InclusiveScan(AddUint32)
	InclusiveScanFloat32      = runtime.InclusiveScan(AddFloat32)
	ExclusiveScanUint32       = runtime.ExclusiveScan(AddUint32)
	ExclusiveScanFloat32      = runtime.ExclusiveScan(AddFloat32)
	InclusiveScanByKeyUint32  = runtime.InclusiveScanByKey(EqUint32, AddUint32)
	InclusiveScanByKeyFloat32 = runtime.InclusiveScanByKey(EqUint32, AddFloat32)
	ExclusiveScanByKeyUint32  = runtime.ExclusiveScanByKey(EqUint32, AddUint32)
	ExclusiveScanByKeyFloat32 = runtime.ExclusiveScanByKey(EqUint32, AddFloat32)
	InclusiveScanUint64       = runtime.InclusiveScan(AddUint64)
	InclusiveScanFloat64      = runtime.InclusiveScan(AddFloat64)
	ExclusiveScanUint64       = runtime.ExclusiveScan(AddUint64)
	ExclusiveScanFloat64      = runtime.ExclusiveScan(AddFloat64)
	InclusiveScanByKeyUint64  = runtime.InclusiveScanByKey(EqUint32, AddUint64)
	InclusiveScanByKeyFloat64 = runtime.InclusiveScanByKey(EqUint32, AddFloat64)
	ExclusiveScanByKeyUint64  = runtime.ExclusiveScanByKey(EqUint32, AddUint64)
	ExclusiveScanByKeyFloat64 = runtime.ExclusiveScanByKey(EqUint32, AddFloat64)
)
