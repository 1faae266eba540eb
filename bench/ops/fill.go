package ops

import "github.com/gocccl/gocccl/runtime"

// IndexHash is Generate's operator: a hash of the index (a few integer
// operations, so the row times the stores).
//
//gocccl:op
func IndexHash(i int64) uint32 {
	x := uint32(i) * 0x9E3779B1
	return x ^ x>>15
}

// OddUint32 selects TransformIf's elements (half of random inputs).
//
//gocccl:op
func OddUint32(x uint32) bool { return x&1 != 0 }

// TripleUint32 is TransformIf's operator.
//
//gocccl:op
func TripleUint32(x uint32) uint32 { return x*3 + 1 }

// Benchmarked fills, generators, conditional transforms and batched copies,
// as bench/cub/fill.cu: Fill against cub::DeviceFor::Bulk writing a value
// (and cudaMemsetAsync where a byte pattern does), Generate against
// DeviceFor::Bulk computing the hash, TransformIf against DeviceFor::Bulk
// with the condition, BatchedCopy against cub::DeviceMemcpy::Batched.
var (
	FillUint32        = runtime.Fill[uint32]()
	FillUint64        = runtime.Fill[uint64]()
	GenerateUint32    = runtime.Generate(IndexHash)
	TransformIfUint32 = runtime.TransformIf(TripleUint32, OddUint32)
	BatchedCopyUint8  = runtime.BatchedCopy[uint8]()
)
