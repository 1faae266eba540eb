// Package radixsort holds the radix sort instances that the GPU conformance
// tests run: RadixSortKeys for every key type and RadixSortPairs over a few
// value types, structs included, compared on the GPU against the CPU backend
// and both against slices.SortStableFunc.
package radixsort

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// Payload is a user struct carried as a value.
type Payload struct {
	Index uint32
	Tag   int16
	F     [3]float64
}

// Big is a value too large for the tile's shared-memory exchange: it is
// scattered from registers.
type Big struct {
	Index uint64
	Pad   [24]uint64
}

// The instances.
var (
	KeysInt8    = runtime.RadixSortKeys[int8]()
	KeysInt16   = runtime.RadixSortKeys[int16]()
	KeysInt32   = runtime.RadixSortKeys[int32]()
	KeysInt64   = runtime.RadixSortKeys[int64]()
	KeysInt     = runtime.RadixSortKeys[int]()
	KeysUint8   = runtime.RadixSortKeys[uint8]()
	KeysUint16  = runtime.RadixSortKeys[uint16]()
	KeysUint32  = runtime.RadixSortKeys[uint32]()
	KeysUint64  = runtime.RadixSortKeys[uint64]()
	KeysUint    = runtime.RadixSortKeys[uint]()
	KeysUintptr = runtime.RadixSortKeys[uintptr]()
	KeysFloat32 = runtime.RadixSortKeys[float32]()
	KeysFloat64 = runtime.RadixSortKeys[float64]()

	PairsUint32  = runtime.RadixSortPairs[uint32, uint32]()
	PairsUint64  = runtime.RadixSortPairs[uint64, uint32]()
	PairsInt8    = runtime.RadixSortPairs[int8, uint32]()
	PairsInt16   = runtime.RadixSortPairs[int16, uint32]()
	PairsFloat32 = runtime.RadixSortPairs[float32, uint32]()
	PairsFloat64 = runtime.RadixSortPairs[float64, uint32]()
	PairsPayload = runtime.RadixSortPairs[int32, Payload]()
	PairsBig     = runtime.RadixSortPairs[uint16, Big]()
	PairsIndex64 = runtime.RadixSortPairs[uint32, uint64]()
)
