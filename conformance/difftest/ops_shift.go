package difftest

import "github.com/gocccl/gocccl/runtime"

// Shifts: counts of every unsigned type, counts ≥ the width (0, or -1 for a
// negative signed >>), signed counts (negative ones panic in Go and are kept
// out; TestGPUSemantics covers them), untyped shifted constants.

//gocccl:op
func ShlUint8(x uint8, s uint) uint8 { return x << s }

//gocccl:op
func ShrInt8(x int8, s uint) int8 { return x >> s }

//gocccl:op
func ShlInt32(x int32, s uint32) int32 { return x << s }

//gocccl:op
func ShrInt32(x int32, s uint16) int32 { return x >> s }

//gocccl:op
func ShrInt64(x int64, s uint64) int64 { return x >> s }

//gocccl:op
func ShlUint64(x uint64, s uint8) uint64 { return x << s }

//gocccl:op
func ShrUint16(x uint16, s uint32) uint16 { return x >> s }

// ShlSignedCount shifts by a signed count (Go 1.13+); negative counts panic
// in Go.
//
//gocccl:op
func ShlSignedCount(x int16, s int) int16 { return x << s }

//gocccl:op
func ShrSignedCount(x int64, s int8) int64 { return x >> s }

// ShiftUntypedOne shifts an untyped constant by a non-constant count: the 1
// takes the type uint64 from the context.
//
//gocccl:op
func ShiftUntypedOne(s uint) uint64 { return 1<<s - 1 }

//gocccl:op
func ShiftConstCount(x int32) int32 { return x<<3 | x>>29 ^ x>>31 }

//gocccl:op
func RotateManual(x uint32, s uint) uint32 { return x<<(s&31) | x>>(32-s&31) }

// ShiftAssign uses <<= and >>= with counts computed from the value.
//
//gocccl:op
func ShiftAssign(x uint64) uint64 {
	s := x & 127
	y := x
	y <<= s
	x >>= s >> 1
	return x ^ y
}

var (
	_ = runtime.BinaryTransform(ShlUint8)
	_ = runtime.BinaryTransform(ShrInt8)
	_ = runtime.BinaryTransform(ShlInt32)
	_ = runtime.BinaryTransform(ShrInt32)
	_ = runtime.BinaryTransform(ShrInt64)
	_ = runtime.BinaryTransform(ShlUint64)
	_ = runtime.BinaryTransform(ShrUint16)
	_ = runtime.BinaryTransform(ShlSignedCount)
	_ = runtime.BinaryTransform(ShrSignedCount)
	_ = runtime.UnaryTransform(ShiftUntypedOne)
	_ = runtime.UnaryTransform(ShiftConstCount)
	_ = runtime.BinaryTransform(RotateManual)
	_ = runtime.UnaryTransform(ShiftAssign)
)
