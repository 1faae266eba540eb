// Package select holds the operators and instances of the compaction
// conformance tests (Select, Partition, ThreeWayPartition, Unique,
// UniqueByKey, RunLengthEncode): the GPU is compared with the CPU backend,
// and the CPU backend with sequential loops, for several numeric types and a
// struct.
package selecttest

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// Item is a user struct element type.
type Item struct {
	Key    uint32
	Weight float32
}

//gocccl:op
func KeepItem(x Item) bool { return x.Key&1 == 1 }

//gocccl:op
func SecondItem(x Item) bool { return x.Weight < 0 }

//gocccl:op
func EqItem(a, b Item) bool { return a.Key == b.Key }

//gocccl:op
func KeepUint8(x uint8) bool { return x&1 == 1 }

//gocccl:op
func SecondUint8(x uint8) bool { return x%3 == 0 }

//gocccl:op
func EqUint8(a, b uint8) bool { return a == b }

//gocccl:op
func KeepInt32(x int32) bool { return x&1 == 1 }

//gocccl:op
func SecondInt32(x int32) bool { return x%3 == 0 }

//gocccl:op
func EqInt32(a, b int32) bool { return a == b }

//gocccl:op
func KeepUint32(x uint32) bool { return x&1 == 1 }

//gocccl:op
func SecondUint32(x uint32) bool { return x%3 == 0 }

//gocccl:op
func EqUint32(a, b uint32) bool { return a == b }

//gocccl:op
func KeepInt64(x int64) bool { return x&1 == 1 }

//gocccl:op
func SecondInt64(x int64) bool { return x%3 == 0 }

//gocccl:op
func EqInt64(a, b int64) bool { return a == b }

//gocccl:op
func KeepFloat32(x float32) bool { return x > 0 }

//gocccl:op
func SecondFloat32(x float32) bool { return x < -0.5 }

//gocccl:op
func EqFloat32(a, b float32) bool { return a == b }

//gocccl:op
func KeepFloat64(x float64) bool { return x > 0 }

//gocccl:op
func SecondFloat64(x float64) bool { return x < -0.5 }

//gocccl:op
func EqFloat64(a, b float64) bool { return a == b }

// The instances under test.
var (
	SelectUint8              = runtime.Select(KeepUint8)
	PartitionUint8           = runtime.Partition(KeepUint8)
	ThreeWayUint8            = runtime.ThreeWayPartition(KeepUint8, SecondUint8)
	UniqueUint8              = runtime.Unique(EqUint8)
	RLEUint8                 = runtime.RunLengthEncode(EqUint8)
	SelectInt32              = runtime.Select(KeepInt32)
	PartitionInt32           = runtime.Partition(KeepInt32)
	ThreeWayInt32            = runtime.ThreeWayPartition(KeepInt32, SecondInt32)
	UniqueInt32              = runtime.Unique(EqInt32)
	RLEInt32                 = runtime.RunLengthEncode(EqInt32)
	SelectUint32             = runtime.Select(KeepUint32)
	PartitionUint32          = runtime.Partition(KeepUint32)
	ThreeWayUint32           = runtime.ThreeWayPartition(KeepUint32, SecondUint32)
	UniqueUint32             = runtime.Unique(EqUint32)
	RLEUint32                = runtime.RunLengthEncode(EqUint32)
	SelectInt64              = runtime.Select(KeepInt64)
	PartitionInt64           = runtime.Partition(KeepInt64)
	ThreeWayInt64            = runtime.ThreeWayPartition(KeepInt64, SecondInt64)
	UniqueInt64              = runtime.Unique(EqInt64)
	RLEInt64                 = runtime.RunLengthEncode(EqInt64)
	SelectFloat32            = runtime.Select(KeepFloat32)
	PartitionFloat32         = runtime.Partition(KeepFloat32)
	ThreeWayFloat32          = runtime.ThreeWayPartition(KeepFloat32, SecondFloat32)
	UniqueFloat32            = runtime.Unique(EqFloat32)
	RLEFloat32               = runtime.RunLengthEncode(EqFloat32)
	SelectFloat64            = runtime.Select(KeepFloat64)
	PartitionFloat64         = runtime.Partition(KeepFloat64)
	ThreeWayFloat64          = runtime.ThreeWayPartition(KeepFloat64, SecondFloat64)
	UniqueFloat64            = runtime.Unique(EqFloat64)
	RLEFloat64               = runtime.RunLengthEncode(EqFloat64)
	SelectItem               = runtime.Select(KeepItem)
	PartitionItem            = runtime.Partition(KeepItem)
	ThreeWayItem             = runtime.ThreeWayPartition(KeepItem, SecondItem)
	UniqueItem               = runtime.Unique(EqItem)
	RLEItem                  = runtime.RunLengthEncode(EqItem)
	UniqueByKeyUint32Float32 = runtime.UniqueByKey[uint32, float32](EqUint32)
	UniqueByKeyFloat64Int64  = runtime.UniqueByKey[float64, int64](EqFloat64)
	UniqueByKeyItemUint8     = runtime.UniqueByKey[Item, uint8](EqItem)
	UniqueByKeyUint8Item     = runtime.UniqueByKey[uint8, Item](EqUint8)
	UniqueByKeyUint32Uint32  = runtime.UniqueByKey[uint32, uint32](EqUint32)
)
