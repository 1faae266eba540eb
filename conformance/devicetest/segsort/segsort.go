// Package segsort holds the segmented sort instances that the GPU
// conformance tests run: SegmentedSortKeys for every key type and
// SegmentedSortPairs over a few value types, structs included, compared on
// the GPU against the CPU backend and both against slices.SortStableFunc per
// segment.
package segsort

//go:generate gocccl-gen
//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// Payload is a user struct carried as a value.
type Payload struct {
	Index uint32
	Tag   int16
	F     [3]float64
}

// Big is a value too large for Onesweep's shared-memory exchange: it is
// scattered from registers, and its policy's tile is smaller than the
// medium class.
type Big struct {
	Index uint64
	Pad   [24]uint64
}

// The instances.
var (
	KeysInt8    = runtime.SegmentedSortKeys[int8]()
	KeysInt16   = runtime.SegmentedSortKeys[int16]()
	KeysInt32   = runtime.SegmentedSortKeys[int32]()
	KeysInt64   = runtime.SegmentedSortKeys[int64]()
	KeysInt     = runtime.SegmentedSortKeys[int]()
	KeysUint8   = runtime.SegmentedSortKeys[uint8]()
	KeysUint16  = runtime.SegmentedSortKeys[uint16]()
	KeysUint32  = runtime.SegmentedSortKeys[uint32]()
	KeysUint64  = runtime.SegmentedSortKeys[uint64]()
	KeysUint    = runtime.SegmentedSortKeys[uint]()
	KeysUintptr = runtime.SegmentedSortKeys[uintptr]()
	KeysFloat32 = runtime.SegmentedSortKeys[float32]()
	KeysFloat64 = runtime.SegmentedSortKeys[float64]()

	PairsInt8    = runtime.SegmentedSortPairs[int8, uint32]()
	PairsInt16   = runtime.SegmentedSortPairs[int16, uint32]()
	PairsInt64   = runtime.SegmentedSortPairs[int64, uint32]()
	PairsUint32  = runtime.SegmentedSortPairs[uint32, uint32]()
	PairsUint64  = runtime.SegmentedSortPairs[uint64, uint32]()
	PairsFloat32 = runtime.SegmentedSortPairs[float32, uint32]()
	PairsFloat64 = runtime.SegmentedSortPairs[float64, uint32]()
	PairsPayload = runtime.SegmentedSortPairs[int32, Payload]()
	PairsBig     = runtime.SegmentedSortPairs[uint16, Big]()
)
