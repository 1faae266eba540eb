package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// math, exact functions: results must be bit-identical (NaN payloads
// aside).

//gocccl:op
func MathAbs(x float64) float64 { return math.Abs(x) }

//gocccl:op
func MathSqrt(x float64) float64 { return math.Sqrt(x) }

//gocccl:op
func MathSqrtF32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

//gocccl:op
func MathFloor(x float64) float64 { return math.Floor(x) }

//gocccl:op
func MathCeil(x float64) float64 { return math.Ceil(x) }

//gocccl:op
func MathTrunc(x float64) float64 { return math.Trunc(x) }

//gocccl:op
func MathRound(x float64) float64 { return math.Round(x) }

//gocccl:op
func MathRoundToEven(x float64) float64 { return math.RoundToEven(x) }

//gocccl:op
func MathRoundF32(x float32) float32 {
	return float32(math.Round(float64(x))) + float32(math.Floor(float64(x)))
}

//gocccl:op
func MathCopysign(a, b float64) float64 { return math.Copysign(a, b) }

//gocccl:op
func MathFMA(a, b float64) float64 { return math.FMA(a, b, -a) }

//gocccl:op
func MathMod(a, b float64) float64 { return math.Mod(a, b) }

//gocccl:op
func MathMin(a, b float64) float64 { return math.Min(a, b) }

// MathMax differs from the built-in max: math.Max(NaN, +Inf) is +Inf.
//
//gocccl:op
func MathMax(a, b float64) float64 { return math.Max(a, b) }

//gocccl:op
func MathInfNaN(x float64) float64 {
	if x > 1e300 {
		return math.Inf(1)
	}
	if x < -1e300 {
		return math.Inf(-1)
	}
	if x == 0 {
		return math.NaN()
	}
	return x
}

//gocccl:op
func MathClassify(x float64) uint8 {
	var r uint8
	if math.IsNaN(x) {
		r |= 1
	}
	if math.IsInf(x, 0) {
		r |= 2
	}
	if math.IsInf(x, 1) {
		r |= 4
	}
	if math.IsInf(x, -1) {
		r |= 8
	}
	if math.Signbit(x) {
		r |= 16
	}
	return r
}

// MathBits64 passes the bits of its input through unchanged.
//
//gocccl:op
func MathBits64(x float64) uint64 { return math.Float64bits(x) }

//gocccl:op
func MathBits32(x float32) uint32 { return math.Float32bits(x) }

//gocccl:op
func MathFromBits64(u uint64) float64 { return math.Float64frombits(u &^ (1 << 63)) }

//gocccl:op
func MathFromBits32(u uint32) float32 { return math.Float32frombits(u ^ 0x80000000) }

var (
	_ = runtime.UnaryTransform(MathAbs)
	_ = runtime.UnaryTransform(MathSqrt)
	_ = runtime.UnaryTransform(MathSqrtF32)
	_ = runtime.UnaryTransform(MathFloor)
	_ = runtime.UnaryTransform(MathCeil)
	_ = runtime.UnaryTransform(MathTrunc)
	_ = runtime.UnaryTransform(MathRound)
	_ = runtime.UnaryTransform(MathRoundToEven)
	_ = runtime.UnaryTransform(MathRoundF32)
	_ = runtime.BinaryTransform(MathCopysign)
	_ = runtime.BinaryTransform(MathFMA)
	_ = runtime.BinaryTransform(MathMod)
	_ = runtime.BinaryTransform(MathMin)
	_ = runtime.BinaryTransform(MathMax)
	_ = runtime.UnaryTransform(MathInfNaN)
	_ = runtime.UnaryTransform(MathClassify)
	_ = runtime.UnaryTransform(MathBits64)
	_ = runtime.UnaryTransform(MathBits32)
	_ = runtime.UnaryTransform(MathFromBits64)
	_ = runtime.UnaryTransform(MathFromBits32)
)
