package ops

import "github.com/gocccl/gocccl/runtime"

// Needle is the value FindIfUint32 looks for; the benchmark plants it once
// and removes it everywhere else.
const Needle = 0xFFFFFFFF

// IsNeedle is FindIfUint32's predicate.
//
//gocccl:op
func IsNeedle(x uint32) bool { return x == Needle }

// Benchmarked searches and extrema, as bench/cub/find.cu: FindIf against a
// reduction to the least matching index (CCCL 3.0 has no cub::DeviceFind),
// ArgMin and ArgMax against cub::DeviceReduce::ArgMin / ArgMax.
var (
	FindIfUint32  = runtime.FindIf(IsNeedle)
	ArgMinUint32  = runtime.ArgMin(LessUint32)
	ArgMaxUint32  = runtime.ArgMax(LessUint32)
	ArgMinFloat32 = runtime.ArgMin(LessFloat32)
	ArgMaxFloat32 = runtime.ArgMax(LessFloat32)
	ArgMinFloat64 = runtime.ArgMin(LessFloat64)
)
