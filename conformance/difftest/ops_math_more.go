package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// More of package math: exact functions with two results (Frexp, Modf),
// Ldexp, Dim, Remainder, and the remaining transcendental functions.

//gocccl:op
func MathFrexp(x float64) float64 {
	f, e := math.Frexp(x)
	return f + float64(e)
}

//gocccl:op
func MathLdexp(x float64, e int8) float64 { return math.Ldexp(x, int(e)*9) }

//gocccl:op
func MathModf(x float64) float64 {
	i, f := math.Modf(x)
	return i*0.5 + f
}

//gocccl:op
func MathDim(a, b float64) float64 { return math.Dim(a, b) }

//gocccl:op
func MathRemainder(a, b float64) float64 { return math.Remainder(a, b) }

//gocccl:op
func MathExp2(x float64) float64 { return math.Exp2(x) }

//gocccl:op
func MathExpm1(x float64) float64 { return math.Expm1(x) }

//gocccl:op
func MathLog2(x float64) float64 { return math.Log2(x) }

//gocccl:op
func MathLog10(x float64) float64 { return math.Log10(x) }

//gocccl:op
func MathLog1p(x float64) float64 { return math.Log1p(x) }

//gocccl:op
func MathTan(x float64) float64 { return math.Tan(x) }

//gocccl:op
func MathAsin(x float64) float64 { return math.Asin(x) }

//gocccl:op
func MathAcos(x float64) float64 { return math.Acos(x) }

//gocccl:op
func MathAtan(x float64) float64 { return math.Atan(x) }

//gocccl:op
func MathAtan2(y, x float64) float64 { return math.Atan2(y, x) }

//gocccl:op
func MathSinh(x float64) float64 { return math.Sinh(x) }

//gocccl:op
func MathCosh(x float64) float64 { return math.Cosh(x) }

//gocccl:op
func MathAsinh(x float64) float64 { return math.Asinh(x) }

//gocccl:op
func MathAcosh(x float64) float64 { return math.Acosh(x) }

//gocccl:op
func MathAtanh(x float64) float64 { return math.Atanh(x) }

//gocccl:op
func MathCbrt(x float64) float64 { return math.Cbrt(x) }

//gocccl:op
func MathHypot(a, b float64) float64 { return math.Hypot(a, b) }

//gocccl:op
func MathErf(x float64) float64 { return math.Erf(x) }

//gocccl:op
func MathErfc(x float64) float64 { return math.Erfc(x) }

//gocccl:op
func MathSinF32(x float32) float32 { return float32(math.Sin(float64(x))) }

var (
	_ = runtime.UnaryTransform(MathFrexp)
	_ = runtime.BinaryTransform(MathLdexp)
	_ = runtime.UnaryTransform(MathModf)
	_ = runtime.BinaryTransform(MathDim)
	_ = runtime.BinaryTransform(MathRemainder)
	_ = runtime.UnaryTransform(MathExp2)
	_ = runtime.UnaryTransform(MathExpm1)
	_ = runtime.UnaryTransform(MathLog2)
	_ = runtime.UnaryTransform(MathLog10)
	_ = runtime.UnaryTransform(MathLog1p)
	_ = runtime.UnaryTransform(MathTan)
	_ = runtime.UnaryTransform(MathAsin)
	_ = runtime.UnaryTransform(MathAcos)
	_ = runtime.UnaryTransform(MathAtan)
	_ = runtime.BinaryTransform(MathAtan2)
	_ = runtime.UnaryTransform(MathSinh)
	_ = runtime.UnaryTransform(MathCosh)
	_ = runtime.UnaryTransform(MathAsinh)
	_ = runtime.UnaryTransform(MathAcosh)
	_ = runtime.UnaryTransform(MathAtanh)
	_ = runtime.UnaryTransform(MathCbrt)
	_ = runtime.BinaryTransform(MathHypot)
	_ = runtime.UnaryTransform(MathErf)
	_ = runtime.UnaryTransform(MathErfc)
	_ = runtime.UnaryTransform(MathSinF32)
)
