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

// KeepUint64 keeps odd values over uint64, as KeepUint32.
//
//gocccl:op
func KeepUint64(x uint64) bool { return x&1 != 0 }

// KeepFloat64 keeps values below one half, as KeepFloat32.
//
//gocccl:op
func KeepFloat64(x float64) bool { return x < 0.5 }

// FirstUint64 is the first predicate of the uint64 three-way partition.
//
//gocccl:op
func FirstUint64(x uint64) bool { return x%3 == 0 }

// SecondUint64 is the second predicate of the uint64 three-way partition.
//
//gocccl:op
func SecondUint64(x uint64) bool { return x%3 == 1 }

// FirstFloat64 is the first predicate of the float64 three-way partition.
//
//gocccl:op
func FirstFloat64(x float64) bool { return x < 1.0/3 }

// SecondFloat64 is the second predicate of the float64 three-way partition.
//
//gocccl:op
func SecondFloat64(x float64) bool { return x < 2.0/3 }

// EqUint64 is the equality of uint64 runs.
//
//gocccl:op
func EqUint64(a, b uint64) bool { return a == b }

// EqFloat64 is the equality of float64 runs.
//
//gocccl:op
func EqFloat64(a, b float64) bool { return a == b }

// The same compactions over 8-byte items.
var (
	SelectUint64           = runtime.Select(KeepUint64)
	SelectFloat64          = runtime.Select(KeepFloat64)
	PartitionUint64        = runtime.Partition(KeepUint64)
	PartitionFloat64       = runtime.Partition(KeepFloat64)
	ThreeWayUint64         = runtime.ThreeWayPartition(FirstUint64, SecondUint64)
	ThreeWayFloat64        = runtime.ThreeWayPartition(FirstFloat64, SecondFloat64)
	UniqueUint64           = runtime.Unique(EqUint64)
	UniqueFloat64          = runtime.Unique(EqFloat64)
	UniqueByKeyUint64      = runtime.UniqueByKey[uint64, uint64](EqUint64)
	UniqueByKeyFloat64     = runtime.UniqueByKey[float64, float64](EqFloat64)
	RunLengthEncodeUint64  = runtime.RunLengthEncode(EqUint64)
	RunLengthEncodeFloat64 = runtime.RunLengthEncode(EqFloat64)
)
