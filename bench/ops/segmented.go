package ops

import (
	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// MaxUint32 is the uint32 segmented reduction of bench/cub/segmented.cu.
//
//gocccl:op
func MaxUint32(a, b uint32) uint32 { return max(a, b) }

// SubUint32 is the adjacent difference a - b (wrapping).
//
//gocccl:op
func SubUint32(a, b uint32) uint32 { return a - b }

// SubFloat32 is the adjacent difference a - b.
//
//gocccl:op
func SubFloat32(a, b float32) float32 { return a - b }

// SubUint64 is the adjacent difference a - b over uint64 (wrapping).
//
//gocccl:op
func SubUint64(a, b uint64) uint64 { return a - b }

// SubFloat64 is the adjacent difference a - b over float64.
//
//gocccl:op
func SubFloat64(a, b float64) float64 { return a - b }

// Low8Uint32 is the transform of the uint32 transform-reduce: x & 255.
//
//gocccl:op
func Low8Uint32(x uint32) uint32 { return x & 255 }

// SquareFloat32 is the transform of the float32 transform-reduce: x² in float64.
//
//gocccl:op
func SquareFloat32(x float32) float64 { return float64(x) * float64(x) }

// AddFloat64 sums the float64 squares.
//
//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

// Benchmarked segmented and fused reductions, as bench/cub/segmented.cu.
var (
	SegmentedMaxUint32        = runtime.SegmentedReduce(MaxUint32)
	SegmentedSumFloat32       = runtime.SegmentedReduce(AddFloat32)
	ReduceByKeyUint32         = runtime.ReduceByKey(EqUint32, AddUint32)
	ReduceByKeyFloat32        = runtime.ReduceByKey(EqUint32, AddFloat32)
	ReduceByKeyFloat32Fast    = runtime.ReduceByKey(EqUint32, AddFloat32Fast) // the cost of Go's NaNs
	ReduceByKeyUint64         = runtime.ReduceByKey(EqUint32, AddUint64)
	ReduceByKeyFloat64        = runtime.ReduceByKey(EqUint32, AddFloat64)
	AdjacentDifferenceUint32  = runtime.AdjacentDifference(SubUint32)
	AdjacentDifferenceFloat32 = runtime.AdjacentDifference(SubFloat32)
	AdjacentDifferenceUint64  = runtime.AdjacentDifference(SubUint64)
	AdjacentDifferenceFloat64 = runtime.AdjacentDifference(SubFloat64)
	TransformReduceUint32     = runtime.TransformReduce(Low8Uint32, AddUint32)
	TransformReduceFloat32    = runtime.TransformReduce(SquareFloat32, AddFloat64)
)

// SegmentLen is the length of the fixed-size segments of the segmented
// reductions, as in bench/cub/segmented.cu.
const SegmentLen = 1024

// SegmentStart is where fixed-size segment i begins.
//
//gocccl:op
func SegmentStart(i int64) int64 { return i * SegmentLen }

// The uint32 segmented max with its offsets computed as they are read, as a
// cuda.compute user writes fixed-size segments (a TransformIterator over a
// CountingIterator), beside the same reduction over an offsets buffer.
var (
	SegmentIndex           = iterator.Counting[int64]()
	SegmentStarts          = iterator.Transform(SegmentIndex, SegmentStart)
	SegmentedMaxUint32Iter = runtime.SegmentedReduce(MaxUint32).Over(iterator.Slice[uint32](), SegmentStarts, SegmentStarts)
)
