package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// Constants: typed and untyped, package-level and local, iota, exact
// arbitrary-precision arithmetic on untyped constants, rounding of an exact
// constant straight to float32, constants of package math, rune constants.

// Package-level constants.
const (
	Scale  float32 = 1.5
	Mask   uint16  = 0xF0F0
	Big            = 1 << 100    // untyped, larger than any type
	Third          = 1.0 / 3     // untyped, exact
	Offset         = Big>>96 + 3 // 19
)

const (
	K0 = iota * 3
	K1
	K2
	_
	K4
)

// Tie32 is 1 + 2^-24 + 2^-60: rounded straight to float32 it is 1 + 2^-23,
// but through float64 it would be 1 + 2^-24, then 1.
const Tie32 = 1 + 0x1p-24 + 0x1p-60

//gocccl:op
func ConstTyped(x uint16) uint16 { return x&Mask | Mask>>4 }

//gocccl:op
func ConstScale(x float32) float32 { return x * Scale }

//gocccl:op
func ConstUntypedBig(x int64) int64 { return x + Big>>90 - Offset + K4 - K2 }

//gocccl:op
func ConstThird(x float64) float32 { return float32(x*Third) + float32(Third) }

//gocccl:op
func ConstTie32(x float32) float32 { return x * Tie32 }

// ConstNegZero: the constant -0.0 is exactly 0, so x * -0.0 is x * +0.
//
//gocccl:op
func ConstNegZero(x float64) float64 { return x * -0.0 }

//gocccl:op
func ConstLocal(x int32) int32 {
	const k = 'a' // rune constant
	const m int8 = -3
	return x*k + int32(m)
}

//gocccl:op
func ConstMath(x float64) float64 {
	if x > math.MaxFloat32 || x < math.SmallestNonzeroFloat64*4 {
		return math.Pi
	}
	return x * math.E
}

//gocccl:op
func ConstLimits(x int64) uint64 {
	if x == math.MinInt64 {
		return math.MaxUint64
	}
	return uint64(x&math.MaxInt32) + math.MaxUint32
}

//gocccl:op
func ConstFloatExpr(x float32) float32 { return x + 1e-3*1e3 - 0.1*3 }

var (
	_ = runtime.UnaryTransform(ConstTyped)
	_ = runtime.UnaryTransform(ConstScale)
	_ = runtime.UnaryTransform(ConstUntypedBig)
	_ = runtime.UnaryTransform(ConstThird)
	_ = runtime.UnaryTransform(ConstTie32)
	_ = runtime.UnaryTransform(ConstNegZero)
	_ = runtime.UnaryTransform(ConstLocal)
	_ = runtime.UnaryTransform(ConstMath)
	_ = runtime.UnaryTransform(ConstLimits)
	_ = runtime.UnaryTransform(ConstFloatExpr)
)
