// Package mergesort holds the comparators and the MergeSortKeys /
// MergeSortPairs instances that the GPU conformance tests run, compared on
// the GPU against the CPU backend and both against slices.SortStableFunc.
//
// Float keys are ordered by a total order (their bits, sign-magnitude):
// x < y on floats is not a strict weak order once NaNs appear, and a sort
// with such a comparator has no single right answer.
package mergesort

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func LessUint32(a, b uint32) bool { return a < b }

//gocccl:op
func LessUint64(a, b uint64) bool { return a < b }

//gocccl:op
func LessInt8(a, b int8) bool { return a < b }

// TotalLessFloat32 orders float32s by their bits as signed magnitudes:
// -NaN < -Inf < … < -0 < +0 < … < +Inf < +NaN.
//
//gocccl:op
func TotalLessFloat32(a, b float32) bool {
	x, y := int32(math.Float32bits(a)), int32(math.Float32bits(b))
	if x < 0 {
		x ^= math.MaxInt32
	}
	if y < 0 {
		y ^= math.MaxInt32
	}
	return x < y
}

// TotalLessFloat64 is TotalLessFloat32 for float64.
//
//gocccl:op
func TotalLessFloat64(a, b float64) bool {
	x, y := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if x < 0 {
		x ^= math.MaxInt64
	}
	if y < 0 {
		y ^= math.MaxInt64
	}
	return x < y
}

// Record is a struct key: ordered by Group ascending, then Score
// descending; ID is not part of the order, so equal records keep their
// input order.
type Record struct {
	Group int32
	Score float64
	ID    uint16
}

//gocccl:op
func LessRecord(a, b Record) bool {
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	return a.Score > b.Score
}

// Payload is a wide value: with it a tile holds one pair per thread.
type Payload struct {
	Index int64
	Pad   [4]float64
}

var (
	KeysUint32   = runtime.MergeSortKeys(LessUint32)
	KeysUint64   = runtime.MergeSortKeys(LessUint64)
	KeysInt8     = runtime.MergeSortKeys(LessInt8)
	KeysFloat32  = runtime.MergeSortKeys(TotalLessFloat32)
	KeysFloat64  = runtime.MergeSortKeys(TotalLessFloat64)
	KeysRecord   = runtime.MergeSortKeys(LessRecord)
	PairsUint32  = runtime.MergeSortPairs[uint32, uint32](LessUint32)
	PairsRecord  = runtime.MergeSortPairs[Record, int64](LessRecord)
	PairsPayload = runtime.MergeSortPairs[int8, Payload](LessInt8)
)
