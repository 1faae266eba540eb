package ops

import "github.com/gocccl/gocccl/runtime"

// KeepUint32 keeps odd values, as bench/cub/select.cu.
//
//gocccl:op
func KeepUint32(x uint32) bool { return x&1 != 0 }

// KeepFloat32 keeps values below one half.
//
//gocccl:op
func KeepFloat32(x float32) bool { return x < 0.5 }

// FirstUint32 is the first predicate of the three-way partition.
//
//gocccl:op
func FirstUint32(x uint32) bool { return x%3 == 0 }

// SecondUint32 is the second predicate of the three-way partition.
//
//gocccl:op
func SecondUint32(x uint32) bool { return x%3 == 1 }

// FirstFloat32 is the first predicate of the three-way partition.
//
//gocccl:op
func FirstFloat32(x float32) bool { return x < float32(1.0)/3 }

// SecondFloat32 is the second predicate of the three-way partition.
//
//gocccl:op
func SecondFloat32(x float32) bool { return x < float32(2.0)/3 }

// EqFloat32 is the equality of float32 runs.
//
//gocccl:op
func EqFloat32(a, b float32) bool { return a == b }

// Benchmarked compactions, as bench/cub/select.cu.
var (
	SelectUint32           = runtime.Select(KeepUint32)
	SelectFloat32          = runtime.Select(KeepFloat32)
	PartitionUint32        = runtime.Partition(KeepUint32)
	PartitionFloat32       = runtime.Partition(KeepFloat32)
	ThreeWayUint32         = runtime.ThreeWayPartition(FirstUint32, SecondUint32)
	ThreeWayFloat32        = runtime.ThreeWayPartition(FirstFloat32, SecondFloat32)
	UniqueUint32           = runtime.Unique(EqUint32)
	UniqueFloat32          = runtime.Unique(EqFloat32)
	UniqueByKeyUint32      = runtime.UniqueByKey[uint32, uint32](EqUint32)
	UniqueByKeyFloat32     = runtime.UniqueByKey[float32, float32](EqFloat32)
	RunLengthEncodeUint32  = runtime.RunLengthEncode(EqUint32)
	RunLengthEncodeFloat32 = runtime.RunLengthEncode(EqFloat32)
)
