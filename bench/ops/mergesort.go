package ops

import "github.com/gocccl/gocccl/runtime"

// MergeSortLessUint32 is the comparator of cub::DeviceMergeSort over uint32
// keys in bench/cub/mergesort.cu.
//
//gocccl:op
func MergeSortLessUint32(a, b uint32) bool { return a < b }

// MergeSortLessFloat32 is the comparator over float32 keys (the inputs hold
// no NaN, so a < b is a strict weak order there).
//
//gocccl:op
func MergeSortLessFloat32(a, b float32) bool { return a < b }

// MergeSortIdentityUint32 copies an input into the work buffer of an
// in-place sort.
//
//gocccl:op
func MergeSortIdentityUint32(x uint32) uint32 { return x }

// MergeSortIdentityFloat32 is MergeSortIdentityUint32 for float32.
//
//gocccl:op
func MergeSortIdentityFloat32(x float32) float32 { return x }

// Benchmarked merge sorts, and the copies that load their work buffers.
var (
	MergeSortUint32       = runtime.MergeSortKeys(MergeSortLessUint32)
	MergeSortFloat32      = runtime.MergeSortKeys(MergeSortLessFloat32)
	MergeSortPairsUint32  = runtime.MergeSortPairs[uint32, uint32](MergeSortLessUint32)
	MergeSortPairsFloat32 = runtime.MergeSortPairs[float32, uint32](MergeSortLessFloat32)
	MergeSortCopyUint32   = runtime.UnaryTransform(MergeSortIdentityUint32)
	MergeSortCopyFloat32  = runtime.UnaryTransform(MergeSortIdentityFloat32)
)
