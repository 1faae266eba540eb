package ops

import "github.com/gocccl/gocccl/runtime"

// LessUint32 orders the searches and merges over uint32.
//
//gocccl:op
func LessUint32(a, b uint32) bool { return a < b }

// LessFloat32 orders the searches and merges over float32 (no NaN in the inputs).
//
//gocccl:op
func LessFloat32(a, b float32) bool { return a < b }

// LessUint64 orders the searches and merges over uint64.
//
//gocccl:op
func LessUint64(a, b uint64) bool { return a < b }

// LessFloat64 orders the searches and merges over float64 (no NaN in the inputs).
//
//gocccl:op
func LessFloat64(a, b float64) bool { return a < b }

// Benchmarked histograms, searches and merges, as bench/cub/histogram.cu.
var (
	HistogramEvenUint32   = runtime.HistogramEven[uint32]()
	HistogramEvenFloat32  = runtime.HistogramEven[float32]()
	HistogramRangeUint32  = runtime.HistogramRange[uint32]()
	HistogramRangeFloat32 = runtime.HistogramRange[float32]()
	HistogramEvenUint64   = runtime.HistogramEven[uint64]()
	HistogramEvenFloat64  = runtime.HistogramEven[float64]()
	HistogramRangeUint64  = runtime.HistogramRange[uint64]()
	HistogramRangeFloat64 = runtime.HistogramRange[float64]()
	MultiHistogramEvenU8  = runtime.MultiHistogramEven[uint8]()
	LowerBoundUint32      = runtime.LowerBound(LessUint32)
	LowerBoundFloat32     = runtime.LowerBound(LessFloat32)
	LowerBoundUint64      = runtime.LowerBound(LessUint64)
	LowerBoundFloat64     = runtime.LowerBound(LessFloat64)
	MergeUint32           = runtime.Merge(LessUint32)
	MergeFloat32          = runtime.Merge(LessFloat32)
	MergeUint64           = runtime.Merge(LessUint64)
	MergeFloat64          = runtime.Merge(LessFloat64)
)
