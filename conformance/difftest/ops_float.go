package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// Floats: IEEE arithmetic at float32 and float64 with round to nearest, no
// flush to zero, signed zeros, NaN comparisons, no FMA contraction.

//gocccl:op
func AddF32(a, b float32) float32 { return a + b }

//gocccl:op
func SubF64(a, b float64) float64 { return a - b }

//gocccl:op
func MulF32(a, b float32) float32 { return a * b }

//gocccl:op
func DivF64(a, b float64) float64 { return a / b }

//gocccl:op
func DivF32(a, b float32) float32 { return a / b }

// ChainF32 rounds every step to float32: a C++ compiler must not keep
// intermediates in double.
//
//gocccl:op
func ChainF32(a, b float32) float32 { return (a + b) * (a - b) / (a + 1) }

// MulAddSeparate forbids the fusion with an explicit conversion.
//
//gocccl:op
func MulAddSeparate(a, b float64) float64 { return float64(a*b) + b }

// MulAddPlain is a*b + c as written: Go on amd64 (GOAMD64 < v3) does not
// fuse it and the GPU code is compiled with -fmad=false; the case runs only
// where Go does not fuse (see fusion_*_test.go).
//
//gocccl:op
func MulAddPlain(a, b float32) float32 { return a*b + b }

// NegZero: -x flips the sign of zero, 0 - x does not.
//
//gocccl:op
func NegZero(x float32) float32 { return -x * (0 - x) }

//gocccl:op
func NegF64(x float64) float64 { return -x }

//gocccl:op
func SubZeroF64(x float64) float64 { return 0 - x }

//gocccl:op
func CompareF64(a, b float64) uint8 {
	var r uint8
	if a < b {
		r |= 1
	}
	if a <= b {
		r |= 2
	}
	if a == b {
		r |= 4
	}
	if a != b {
		r |= 8
	}
	if a > b {
		r |= 16
	}
	if a >= b {
		r |= 32
	}
	if !(a < b) {
		r |= 64
	}
	return r
}

// IsNaNSelf detects NaN by self-comparison, which fast-math C++ folds away.
//
//gocccl:op
func IsNaNSelf(x float32) bool { return x != x }

//gocccl:op
func ConstMulF32(x float32) float32 { return float32(x*0.1) + 0.2 }

//gocccl:op
func AssignOpsF64(x float64) float64 {
	x += 0.5
	x *= 3
	x -= 1e-300
	x /= 7
	return x
}

//gocccl:op
func SubnormalF32(a, b float32) float32 { return float32(a*0x1p-100) + float32(b*0x1p-30) }

// NegBits32: -x flips the sign bit alone, also of a NaN, whose payload Go
// keeps; the result's bits are compared exactly.
//
//gocccl:op
func NegBits32(b uint32) uint32 { return math.Float32bits(-math.Float32frombits(b)) }

// NegBits64 is NegBits32 for float64.
//
//gocccl:op
func NegBits64(b uint64) uint64 { return math.Float64bits(-math.Float64frombits(b)) }

var (
	_ = runtime.UnaryTransform(NegBits32)
	_ = runtime.UnaryTransform(NegBits64)
	_ = runtime.BinaryTransform(AddF32)
	_ = runtime.BinaryTransform(SubF64)
	_ = runtime.BinaryTransform(MulF32)
	_ = runtime.BinaryTransform(DivF64)
	_ = runtime.BinaryTransform(DivF32)
	_ = runtime.BinaryTransform(ChainF32)
	_ = runtime.BinaryTransform(MulAddSeparate)
	_ = runtime.BinaryTransform(MulAddPlain)
	_ = runtime.UnaryTransform(NegZero)
	_ = runtime.UnaryTransform(NegF64)
	_ = runtime.UnaryTransform(SubZeroF64)
	_ = runtime.BinaryTransform(CompareF64)
	_ = runtime.UnaryTransform(IsNaNSelf)
	_ = runtime.UnaryTransform(ConstMulF32)
	_ = runtime.UnaryTransform(AssignOpsF64)
	_ = runtime.BinaryTransform(SubnormalF32)
)
