// Package iterseg holds the GPU conformance tests of iterators in
// SegmentedReduce (values and begin/end offsets), HistogramEven and
// HistogramRange (samples) and LowerBound/UpperBound (sorted data and search
// values), over int32 and float64, on random inputs, compared on the GPU
// against the CPU backend and both against a sequential loop. Without a GPU
// both sides run on the CPU.
package iterseg

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// ShortSeg and LongSeg are the lengths of the fixed-size segments: short
// ones a warp reduces, long ones that cross a tile (4096 int32 items).
const (
	ShortSeg = 37
	LongSeg  = 5003
)

//gocccl:op
func AddI32(a, b int32) int32 { return a + b }

//gocccl:op
func AddF64(a, b float64) float64 { return a + b }

//gocccl:op
func LessI32(a, b int32) bool { return a < b }

//gocccl:op
func LessF64(a, b float64) bool { return a < b }

// Mix scrambles a counter into a value in [1, 1000003]: never zero.
//
//gocccl:op
func Mix(x int32) int32 { return int32(uint32(x)*7919%1000003) + 1 }

// Triple is a sorted haystack from a counter.
//
//gocccl:op
func Triple(x int32) int32 { return 3 * x }

// Half is a float64 transform.
//
//gocccl:op
func Half(x float64) float64 { return x / 2 }

// TimesShort and TimesLong are the begin offsets of segment i.
//
//gocccl:op
func TimesShort(i int64) int64 { return i * ShortSeg }

//gocccl:op
func TimesLong(i int64) int64 { return i * LongSeg }

// EndsSomeEmpty ends segment i where TimesShort begins it when i is a
// multiple of 4 (an empty segment), else one segment later.
//
//gocccl:op
func EndsSomeEmpty(i int64) int64 {
	if i%4 == 0 {
		return i * ShortSeg
	}
	return (i + 1) * ShortSeg
}

// Leaves, bound per call.
var (
	CountI32 = it.Counting[int32]()
	CountF64 = it.Counting[float64]()
	CountI64 = it.Counting[int64]()
	ConstI32 = it.Constant[int32]()
	ConstF64 = it.Constant[float64]()
	ConstI64 = it.Constant[int64]()
	XsI32    = it.Slice[int32]()
	XsF64    = it.Slice[float64]()
	Idx      = it.Slice[int64]()
)

// Compositions.
var (
	Mixed      = it.Transform(CountI32, Mix)    // never zero
	Tripled    = it.Transform(CountI32, Triple) // sorted
	GatherF64  = it.Permutation(XsF64, Idx)     // with repeats
	HalvesF64  = it.Transform(it.Reverse(XsF64), Half)
	ShortStart = it.Transform(CountI64, TimesShort)
	LongStart  = it.Transform(CountI64, TimesLong)
	SomeEmpty  = it.Transform(CountI64, EndsSomeEmpty)
)

// SegmentedReduce instances.
var (
	// Fixed-size segments: begin and end offsets from one composition.
	SegShort = runtime.SegmentedReduce(AddI32).Over(it.Slice[int32](), ShortStart, ShortStart)
	SegLong  = runtime.SegmentedReduce(AddI32).Over(it.Slice[int32](), LongStart, LongStart)
	// Every fourth segment empty.
	SegSomeEmpty = runtime.SegmentedReduce(AddI32).Over(XsI32, ShortStart, SomeEmpty)
	// Values through a composition, offsets in Slices (any layout).
	SegMixed  = runtime.SegmentedReduce(AddI32).Over(Mixed, it.Slice[int64](), it.Slice[int64]())
	SegGather = runtime.SegmentedReduce(AddF64).Over(GatherF64, it.Slice[int64](), it.Slice[int64]())
	// Prefixes [0, end[s]) of a constant: begin from a Constant.
	SegPrefix = runtime.SegmentedReduce(AddF64).Over(ConstF64, ConstI64, it.Slice[int64]())
	// Segments of one item: begin and end from Countings.
	SegUnit = runtime.SegmentedReduce(AddF64).Over(HalvesF64, CountI64, CountI64)
)

// Histogram instances.
var (
	EvenMixed   = runtime.HistogramEven[int32]().Over(Mixed)
	EvenGather  = runtime.HistogramEven[float64]().Over(GatherF64)
	RangeConst  = runtime.HistogramRange[int32]().Over(ConstI32)
	RangeHalves = runtime.HistogramRange[float64]().Over(HalvesF64)
)

// Search instances.
var (
	LowerMixed   = runtime.LowerBound(LessI32).Over(it.Slice[int32](), Mixed)
	UpperTripled = runtime.UpperBound(LessI32).Over(Tripled, it.Slice[int32]())
	LowerCount   = runtime.LowerBound(LessF64).Over(CountF64, GatherF64)
	UpperConst   = runtime.UpperBound(LessF64).Over(it.Slice[float64](), ConstF64)
)
