// Package histogram holds the instances that the GPU conformance tests of
// the histogram, search and merge family run, compared on the GPU against
// the CPU backend; without a GPU the tests run against the CPU backend alone.
package histogram

//go:generate gocccl-gen
//gocccl:arch sm_90,compute_90

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
