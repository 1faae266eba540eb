// Package histogram holds the instances that the GPU conformance tests of
// the histogram, search and merge family run, compared on the GPU against
// the CPU backend; without a GPU the tests run against the CPU backend alone.
package histogram

//go:generate gocccl-gen
//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// The histogram instances under test: typed, no operator.
var (
	EvenUint8    = runtime.HistogramEven[uint8]()
	EvenInt16    = runtime.HistogramEven[int16]()
	EvenUint32   = runtime.HistogramEven[uint32]()
	EvenInt64    = runtime.HistogramEven[int64]()
	EvenFloat32  = runtime.HistogramEven[float32]()
	EvenFloat64  = runtime.HistogramEven[float64]()
	RangeUint32  = runtime.HistogramRange[uint32]()
	RangeFloat32 = runtime.HistogramRange[float32]()
	RangeFloat64 = runtime.HistogramRange[float64]()
)

//gocccl:op
func LessUint32(a, b uint32) bool { return a < b }

//gocccl:op
func LessFloat64(a, b float64) bool { return a < b }

// ByHigh orders by the high 16 bits only: equal keys are distinguishable,
// which shows stability and the choice among equal data.
//
//gocccl:op
func ByHigh(a, b uint32) bool { return a>>16 < b>>16 }

// The search and merge instances under test.
var (
	LowerUint32  = runtime.LowerBound(LessUint32)
	UpperUint32  = runtime.UpperBound(LessUint32)
	LowerFloat64 = runtime.LowerBound(LessFloat64)
	UpperFloat64 = runtime.UpperBound(LessFloat64)
	LowerByHigh  = runtime.LowerBound(ByHigh)
	UpperByHigh  = runtime.UpperBound(ByHigh)
	MergeUint32  = runtime.Merge(LessUint32)
	MergeByHigh  = runtime.Merge(ByHigh)
	MergeFloat64 = runtime.Merge(LessFloat64)
)

// The multi-channel histogram instances under test.
var (
	MultiEvenUint8    = runtime.MultiHistogramEven[uint8]()
	MultiEvenUint16   = runtime.MultiHistogramEven[uint16]()
	MultiEvenFloat32  = runtime.MultiHistogramEven[float32]()
	MultiRangeUint16  = runtime.MultiHistogramRange[uint16]()
	MultiRangeFloat32 = runtime.MultiHistogramRange[float32]()
)
