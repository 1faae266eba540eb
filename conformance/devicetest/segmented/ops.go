// Package segmented holds the operators and instances of the segmented and
// fused reductions, adjacent difference and for-each, compared on the GPU
// against the CPU backend (and the CPU backend against sequential loops).
//
// Floating-point operators write a product followed by an addition as
// T(a*b) + c, so that Go does not fuse it into an FMA (the GPU code is
// compiled without contraction).
package segmented

//go:generate gocccl-gen
//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// Stat is a user struct: a running sum, its smallest term and a count.
type Stat struct {
	Sum   float64
	Min   float32
	Count int32
}

//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

//gocccl:op
func MaxInt32(a, b int32) int32 { return max(a, b) }

//gocccl:op
func AddUint32(a, b uint32) uint32 { return a + b }

//gocccl:op
func MaxUint32(a, b uint32) uint32 { return max(a, b) }

//gocccl:op
func AddInt64(a, b int64) int64 { return a + b }

//gocccl:op
func MinInt64(a, b int64) int64 { return min(a, b) }

//gocccl:op
func AddUint8(a, b uint8) uint8 { return a + b }

//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func MaxFloat32(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

//gocccl:op
func AddStat(a, b Stat) Stat {
	m := a.Min
	if b.Min < m {
		m = b.Min
	}
	return Stat{Sum: a.Sum + b.Sum, Min: m, Count: a.Count + b.Count}
}

//gocccl:op
func ToStat(x float32) Stat { return Stat{Sum: float64(x), Min: x, Count: 1} }

//gocccl:op
func SquareF64(x float32) float64 {
	y := float64(x)
	return y * y
}

//gocccl:op
func Low8(x uint32) uint32 { return x & 0xff }

//gocccl:op
func WidenInt(x int32) int64 { return int64(x) * 3 }

//gocccl:op
func SubInt32(a, b int32) int32 { return a - b }

//gocccl:op
func SubFloat32(a, b float32) float32 { return a - b }

//gocccl:op
func SubUint64(a, b uint64) uint64 { return a - b }

// Gap is not symmetric in its arguments: it shows their order.
//
//gocccl:op
func Gap(a, b Stat) Stat { return Stat{Sum: a.Sum - b.Sum, Min: a.Min, Count: b.Count} }

//gocccl:op
func StepUint32(x uint32) uint32 { return x*2654435761 + 7 }

//gocccl:op
func HalveFloat64(x float64) float64 { return float64(x*0.5) - 1 }

//gocccl:op
func BumpStat(x Stat) Stat { return Stat{Sum: x.Sum + 1, Min: -x.Min, Count: x.Count + 1} }

//gocccl:op
func EqUint32(a, b uint32) bool { return a == b }

//gocccl:op
func EqInt64(a, b int64) bool { return a == b }

// Span is a run's first and last position.
type Span struct{ First, Last int64 }

// Join keeps the first of a and the last of b: associative, not
// commutative, so values combined out of order show.
//
//gocccl:op
func Join(a, b Span) Span { return Span{First: a.First, Last: b.Last} }

// The instances under test.
var (
	SegSumInt32   = runtime.SegmentedReduce(AddInt32)
	SegMaxInt32   = runtime.SegmentedReduce(MaxInt32)
	SegSumUint32  = runtime.SegmentedReduce(AddUint32)
	SegMaxUint32  = runtime.SegmentedReduce(MaxUint32)
	SegSumInt64   = runtime.SegmentedReduce(AddInt64)
	SegMinInt64   = runtime.SegmentedReduce(MinInt64)
	SegSumUint8   = runtime.SegmentedReduce(AddUint8)
	SegSumFloat32 = runtime.SegmentedReduce(AddFloat32)
	SegMaxFloat32 = runtime.SegmentedReduce(MaxFloat32)
	SegSumFloat64 = runtime.SegmentedReduce(AddFloat64)
	SegStat       = runtime.SegmentedReduce(AddStat)

	SumSquares = runtime.TransformReduce(SquareF64, AddFloat64)
	Stats      = runtime.TransformReduce(ToStat, AddStat)
	SumLow8    = runtime.TransformReduce(Low8, AddUint32)
	MaxLow8    = runtime.TransformReduce(Low8, MaxUint32)
	SumWidened = runtime.TransformReduce(WidenInt, AddInt64)

	DiffInt32   = runtime.AdjacentDifference(SubInt32)
	DiffFloat32 = runtime.AdjacentDifference(SubFloat32)
	DiffUint64  = runtime.AdjacentDifference(SubUint64)
	DiffStat    = runtime.AdjacentDifference(Gap)

	ByKeySumFloat32 = runtime.ReduceByKey(EqUint32, AddFloat32)
	ByKeySumUint32  = runtime.ReduceByKey(EqUint32, AddUint32)
	ByKeyMinInt64   = runtime.ReduceByKey(EqInt64, MinInt64)
	ByKeySpan       = runtime.ReduceByKey(EqUint32, Join)
	ByKeyStat       = runtime.ReduceByKey(EqInt64, AddStat)

	StepAll   = runtime.ForEach(StepUint32)
	HalveAll  = runtime.ForEach(HalveFloat64)
	BumpStats = runtime.ForEach(BumpStat)
)
