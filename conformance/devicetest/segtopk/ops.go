// Package segtopk holds the SegmentedTopKKeys and SegmentedTopKPairs
// instances of the segmented top-k conformance tests: the GPU is compared
// with a plain Go oracle (each segment stably sorted by the radix sort's
// order, then its first k) for every numeric key type, smallest and
// largest, sorted and not, over many small segments (empty ones, gaps,
// overlaps, any order) and a few large ones. Without a GPU only the CPU
// backend is checked.
package segtopk

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import "github.com/gocccl/gocccl/runtime"

// The keys-only instances, one per numeric key type.
var (
	KeysInt8    = runtime.SegmentedTopKKeys[int8]()
	KeysInt16   = runtime.SegmentedTopKKeys[int16]()
	KeysInt32   = runtime.SegmentedTopKKeys[int32]()
	KeysInt64   = runtime.SegmentedTopKKeys[int64]()
	KeysUint8   = runtime.SegmentedTopKKeys[uint8]()
	KeysUint16  = runtime.SegmentedTopKKeys[uint16]()
	KeysUint32  = runtime.SegmentedTopKKeys[uint32]()
	KeysUint64  = runtime.SegmentedTopKKeys[uint64]()
	KeysFloat32 = runtime.SegmentedTopKKeys[float32]()
	KeysFloat64 = runtime.SegmentedTopKKeys[float64]()
)

// Payload is a struct value carried by a pair.
type Payload struct {
	Pos int64
	Tag uint16
}

// The key-value instances: values are the keys' input positions (or carry
// them), so the tests see which key each value came with.
var (
	PairsFloat32 = runtime.SegmentedTopKPairs[float32, int64]()
	PairsInt16   = runtime.SegmentedTopKPairs[int16, int64]()
	PairsUint64  = runtime.SegmentedTopKPairs[uint64, Payload]()
)
