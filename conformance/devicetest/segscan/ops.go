// Package segscan holds the operators and instances of the segmented scans
// (runtime.SegmentedInclusiveScan / SegmentedExclusiveScan), compared on
// the GPU against the CPU backend (and the CPU backend against sequential
// loops).
package segscan

//go:generate gocccl-gen
//gocccl:arch sm_90,compute_90

import (
	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func AddUint32(a, b uint32) uint32 { return a + b }

//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

//gocccl:op
func MaxInt64(a, b int64) int64 { return max(a, b) }

//gocccl:op
func AddUint8(a, b uint8) uint8 { return a + b }

//gocccl:op
func AddInt8(a, b int8) int8 { return a + b }

//gocccl:op
func AddInt16(a, b int16) int16 { return a + b }

//gocccl:op
func AddUint16(a, b uint16) uint16 { return a + b }

//gocccl:op
func AddInt64(a, b int64) int64 { return a + b }

//gocccl:op
func AddUint64(a, b uint64) uint64 { return a + b }

//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

// Span is a run's first and last position.
type Span struct{ First, Last int64 }

// Join keeps the first of a and the last of b: associative, not
// commutative, so values combined out of order show.
//
//gocccl:op
func Join(a, b Span) Span { return Span{First: a.First, Last: b.Last} }

// Scale is per-call state: a step added at every combination.
type Scale struct{ K uint32 }

// Op adds a, b and the step: associative for every K, as a scan needs
// (a + b*K is not, unless K is 0 or 1).
//
//gocccl:op
func (s Scale) Op(a, b uint32) uint32 { return a + b + s.K }

//gocccl:op
func Times1024(i int64) int64 { return i * 1024 }

//gocccl:op
func Twice(x uint32) uint32 { return x * 2 }

// Compositions: values doubled on the way in, fixed 1024-item offsets from
// a counting iterator, and results doubled on the way out.
var (
	Seg     = iterator.Counting[int64]()
	Starts  = iterator.Transform(Seg, Times1024)
	InU32   = iterator.Slice[uint32]()
	Doubled = iterator.Transform(InU32, Twice)
	OutU32  = iterator.Slice[uint32]()
	Written = iterator.TransformOutput(OutU32, Twice)
)

// The instances under test.
var (
	IncUint32  = runtime.SegmentedInclusiveScan(AddUint32)
	IncInt32   = runtime.SegmentedInclusiveScan(AddInt32)
	IncMax64   = runtime.SegmentedInclusiveScan(MaxInt64)
	IncUint8   = runtime.SegmentedInclusiveScan(AddUint8)
	IncInt8    = runtime.SegmentedInclusiveScan(AddInt8)
	IncInt16   = runtime.SegmentedInclusiveScan(AddInt16)
	IncUint16  = runtime.SegmentedInclusiveScan(AddUint16)
	IncInt64   = runtime.SegmentedInclusiveScan(AddInt64)
	IncUint64  = runtime.SegmentedInclusiveScan(AddUint64)
	IncFloat32 = runtime.SegmentedInclusiveScan(AddFloat32)
	IncFloat64 = runtime.SegmentedInclusiveScan(AddFloat64)
	IncSpan    = runtime.SegmentedInclusiveScan(Join)

	ExcUint32  = runtime.SegmentedExclusiveScan(AddUint32)
	ExcInt32   = runtime.SegmentedExclusiveScan(AddInt32)
	ExcMax64   = runtime.SegmentedExclusiveScan(MaxInt64)
	ExcUint8   = runtime.SegmentedExclusiveScan(AddUint8)
	ExcInt8    = runtime.SegmentedExclusiveScan(AddInt8)
	ExcInt16   = runtime.SegmentedExclusiveScan(AddInt16)
	ExcUint16  = runtime.SegmentedExclusiveScan(AddUint16)
	ExcInt64   = runtime.SegmentedExclusiveScan(AddInt64)
	ExcUint64  = runtime.SegmentedExclusiveScan(AddUint64)
	ExcFloat32 = runtime.SegmentedExclusiveScan(AddFloat32)
	ExcFloat64 = runtime.SegmentedExclusiveScan(AddFloat64)
	ExcSpan    = runtime.SegmentedExclusiveScan(Join)

	IncScaled = runtime.SegmentedInclusiveScanWith(Scale.Op)
	ExcScaled = runtime.SegmentedExclusiveScanWith(Scale.Op)

	// Through iterators: doubled values over counting offsets, and plain
	// values written doubled.
	IncIter = runtime.SegmentedInclusiveScan(AddUint32).Over(Doubled, Starts, Starts)
	ExcInto = runtime.SegmentedExclusiveScan(AddUint32).Into(Written)
)
