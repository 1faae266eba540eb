package main

// The operators and instances the sweep runs, one set per element type.

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func CopyInt32(x int32) int32 { return x }

//gocccl:op
func MaxInt32(a, b int32) int32 { return max(a, b) }

//gocccl:op
func LessInt32(a, b int32) bool { return a < b }

//gocccl:op
func EqInt32(a, b int32) bool { return a == b }

//gocccl:op
func KeepInt32(x int32) bool { return x > 0 }

//gocccl:op
func CopyUint32(x uint32) uint32 { return x }

//gocccl:op
func MaxUint32(a, b uint32) uint32 { return max(a, b) }

//gocccl:op
func LessUint32(a, b uint32) bool { return a < b }

//gocccl:op
func EqUint32(a, b uint32) bool { return a == b }

//gocccl:op
func KeepUint32(x uint32) bool { return x%2 == 0 }

//gocccl:op
func CopyInt64(x int64) int64 { return x }

//gocccl:op
func MaxInt64(a, b int64) int64 { return max(a, b) }

//gocccl:op
func LessInt64(a, b int64) bool { return a < b }

//gocccl:op
func EqInt64(a, b int64) bool { return a == b }

//gocccl:op
func KeepInt64(x int64) bool { return x > 0 }

//gocccl:op
func CopyUint64(x uint64) uint64 { return x }

//gocccl:op
func MaxUint64(a, b uint64) uint64 { return max(a, b) }

//gocccl:op
func LessUint64(a, b uint64) bool { return a < b }

//gocccl:op
func EqUint64(a, b uint64) bool { return a == b }

//gocccl:op
func KeepUint64(x uint64) bool { return x%2 == 0 }

//gocccl:op
func CopyFloat32(x float32) float32 { return x }

//gocccl:op
func MaxFloat32(a, b float32) float32 { return max(a, b) }

//gocccl:op
func LessFloat32(a, b float32) bool { return a < b }

//gocccl:op
func EqFloat32(a, b float32) bool { return a == b }

//gocccl:op
func KeepFloat32(x float32) bool { return x > 0 }

//gocccl:op
func CopyFloat64(x float64) float64 { return x }

//gocccl:op
func MaxFloat64(a, b float64) float64 { return max(a, b) }

//gocccl:op
func LessFloat64(a, b float64) bool { return a < b }

//gocccl:op
func EqFloat64(a, b float64) bool { return a == b }

//gocccl:op
func KeepFloat64(x float64) bool { return x > 0 }

//gocccl:op
func CopyInt8(x int8) int8 { return x }

//gocccl:op
func MaxInt8(a, b int8) int8 { return max(a, b) }

//gocccl:op
func LessInt8(a, b int8) bool { return a < b }

//gocccl:op
func EqInt8(a, b int8) bool { return a == b }

//gocccl:op
func KeepInt8(x int8) bool { return x > 0 }

//gocccl:op
func CopyUint8(x uint8) uint8 { return x }

//gocccl:op
func MaxUint8(a, b uint8) uint8 { return max(a, b) }

//gocccl:op
func LessUint8(a, b uint8) bool { return a < b }

//gocccl:op
func EqUint8(a, b uint8) bool { return a == b }

//gocccl:op
func KeepUint8(x uint8) bool { return x%2 == 0 }

//gocccl:op
func CopyInt16(x int16) int16 { return x }

//gocccl:op
func MaxInt16(a, b int16) int16 { return max(a, b) }

//gocccl:op
func LessInt16(a, b int16) bool { return a < b }

//gocccl:op
func EqInt16(a, b int16) bool { return a == b }

//gocccl:op
func KeepInt16(x int16) bool { return x > 0 }

//gocccl:op
func CopyUint16(x uint16) uint16 { return x }

//gocccl:op
func MaxUint16(a, b uint16) uint16 { return max(a, b) }

//gocccl:op
func LessUint16(a, b uint16) bool { return a < b }

//gocccl:op
func EqUint16(a, b uint16) bool { return a == b }

//gocccl:op
func KeepUint16(x uint16) bool { return x%2 == 0 }

// suites lists the algorithms of every element type.
var suites = []suite{
	newSuite(typeOps[int32]{
		name: "int32", copy: runtime.UnaryTransform(CopyInt32), max: runtime.Reduce(MaxInt32), scan: runtime.InclusiveScan(MaxInt32),
		sel: runtime.Select(KeepInt32), part: runtime.Partition(KeepInt32), unique: runtime.Unique(EqInt32),
		radix: runtime.RadixSortKeys[int32](), merge: runtime.MergeSortKeys(LessInt32), keep: KeepInt32, less: LessInt32,
	}),
	newSuite(typeOps[uint32]{
		name: "uint32", copy: runtime.UnaryTransform(CopyUint32), max: runtime.Reduce(MaxUint32), scan: runtime.InclusiveScan(MaxUint32),
		sel: runtime.Select(KeepUint32), part: runtime.Partition(KeepUint32), unique: runtime.Unique(EqUint32),
		radix: runtime.RadixSortKeys[uint32](), merge: runtime.MergeSortKeys(LessUint32), keep: KeepUint32, less: LessUint32,
	}),
	newSuite(typeOps[int64]{
		name: "int64", copy: runtime.UnaryTransform(CopyInt64), max: runtime.Reduce(MaxInt64), scan: runtime.InclusiveScan(MaxInt64),
		sel: runtime.Select(KeepInt64), part: runtime.Partition(KeepInt64), unique: runtime.Unique(EqInt64),
		radix: runtime.RadixSortKeys[int64](), merge: runtime.MergeSortKeys(LessInt64), keep: KeepInt64, less: LessInt64,
	}),
	newSuite(typeOps[uint64]{
		name: "uint64", copy: runtime.UnaryTransform(CopyUint64), max: runtime.Reduce(MaxUint64), scan: runtime.InclusiveScan(MaxUint64),
		sel: runtime.Select(KeepUint64), part: runtime.Partition(KeepUint64), unique: runtime.Unique(EqUint64),
		radix: runtime.RadixSortKeys[uint64](), merge: runtime.MergeSortKeys(LessUint64), keep: KeepUint64, less: LessUint64,
	}),
	newSuite(typeOps[float32]{
		name: "float32", copy: runtime.UnaryTransform(CopyFloat32), max: runtime.Reduce(MaxFloat32), scan: runtime.InclusiveScan(MaxFloat32),
		sel: runtime.Select(KeepFloat32), part: runtime.Partition(KeepFloat32), unique: runtime.Unique(EqFloat32),
		radix: runtime.RadixSortKeys[float32](), merge: runtime.MergeSortKeys(LessFloat32), keep: KeepFloat32, less: LessFloat32,
	}),
	newSuite(typeOps[float64]{
		name: "float64", copy: runtime.UnaryTransform(CopyFloat64), max: runtime.Reduce(MaxFloat64), scan: runtime.InclusiveScan(MaxFloat64),
		sel: runtime.Select(KeepFloat64), part: runtime.Partition(KeepFloat64), unique: runtime.Unique(EqFloat64),
		radix: runtime.RadixSortKeys[float64](), merge: runtime.MergeSortKeys(LessFloat64), keep: KeepFloat64, less: LessFloat64,
	}),
	newSuite(typeOps[int8]{
		name: "int8", copy: runtime.UnaryTransform(CopyInt8), max: runtime.Reduce(MaxInt8), scan: runtime.InclusiveScan(MaxInt8),
		sel: runtime.Select(KeepInt8), part: runtime.Partition(KeepInt8), unique: runtime.Unique(EqInt8),
		radix: runtime.RadixSortKeys[int8](), merge: runtime.MergeSortKeys(LessInt8), keep: KeepInt8, less: LessInt8,
	}),
	newSuite(typeOps[uint8]{
		name: "uint8", copy: runtime.UnaryTransform(CopyUint8), max: runtime.Reduce(MaxUint8), scan: runtime.InclusiveScan(MaxUint8),
		sel: runtime.Select(KeepUint8), part: runtime.Partition(KeepUint8), unique: runtime.Unique(EqUint8),
		radix: runtime.RadixSortKeys[uint8](), merge: runtime.MergeSortKeys(LessUint8), keep: KeepUint8, less: LessUint8,
	}),
	newSuite(typeOps[int16]{
		name: "int16", copy: runtime.UnaryTransform(CopyInt16), max: runtime.Reduce(MaxInt16), scan: runtime.InclusiveScan(MaxInt16),
		sel: runtime.Select(KeepInt16), part: runtime.Partition(KeepInt16), unique: runtime.Unique(EqInt16),
		radix: runtime.RadixSortKeys[int16](), merge: runtime.MergeSortKeys(LessInt16), keep: KeepInt16, less: LessInt16,
	}),
	newSuite(typeOps[uint16]{
		name: "uint16", copy: runtime.UnaryTransform(CopyUint16), max: runtime.Reduce(MaxUint16), scan: runtime.InclusiveScan(MaxUint16),
		sel: runtime.Select(KeepUint16), part: runtime.Partition(KeepUint16), unique: runtime.Unique(EqUint16),
		radix: runtime.RadixSortKeys[uint16](), merge: runtime.MergeSortKeys(LessUint16), keep: KeepUint16, less: LessUint16,
	}),
}
