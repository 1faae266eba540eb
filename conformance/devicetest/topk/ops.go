// Package topk holds the TopKKeys and TopKPairs instances of the top-k
// conformance tests: the GPU is compared with a plain Go oracle (a stable
// sort by the radix sort's order, then the first k) and the CPU backend,
// for every numeric key type, smallest and largest, sorted and not. Without
// a GPU only the CPU backend is checked.
package topk

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import "github.com/gocccl/gocccl/runtime"

// The keys-only instances, one per numeric key type.
var (
	KeysInt8    = runtime.TopKKeys[int8]()
	KeysInt16   = runtime.TopKKeys[int16]()
	KeysInt32   = runtime.TopKKeys[int32]()
	KeysInt64   = runtime.TopKKeys[int64]()
	KeysUint8   = runtime.TopKKeys[uint8]()
	KeysUint16  = runtime.TopKKeys[uint16]()
	KeysUint32  = runtime.TopKKeys[uint32]()
	KeysUint64  = runtime.TopKKeys[uint64]()
	KeysFloat32 = runtime.TopKKeys[float32]()
	KeysFloat64 = runtime.TopKKeys[float64]()
)

// Payload is a struct value carried by a pair.
type Payload struct {
	Pos int64
	Tag uint16
}

// The key-value instances: values are the keys' input positions (or carry
// them), so the tests see which key each value came with.
var (
	PairsFloat32 = runtime.TopKPairs[float32, int64]()
	PairsInt16   = runtime.TopKPairs[int16, int64]()
	PairsUint64  = runtime.TopKPairs[uint64, Payload]()
)
