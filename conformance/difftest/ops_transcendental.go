package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// math, transcendental functions: each case in cases_test.go has a bound in
// ulps; TestULPReport measures the largest difference.

//gocccl:op
func MathExp(x float64) float64 { return math.Exp(x) }

//gocccl:op
func MathLog(x float64) float64 { return math.Log(x) }

//gocccl:op
func MathPow(a, b float64) float64 { return math.Pow(a, b) }

//gocccl:op
func MathSin(x float64) float64 { return math.Sin(x) }

//gocccl:op
func MathCos(x float64) float64 { return math.Cos(x) }

//gocccl:op
func MathTanh(x float64) float64 { return math.Tanh(x) }

//gocccl:op
func MathExpF32(x float32) float32 { return float32(math.Exp(float64(x))) }

//gocccl:op
func MathLogF32(x float32) float32 { return float32(math.Log(float64(x))) }

var (
	_ = runtime.UnaryTransform(MathExp)
	_ = runtime.UnaryTransform(MathLog)
	_ = runtime.BinaryTransform(MathPow)
	_ = runtime.UnaryTransform(MathSin)
	_ = runtime.UnaryTransform(MathCos)
	_ = runtime.UnaryTransform(MathTanh)
	_ = runtime.UnaryTransform(MathExpF32)
	_ = runtime.UnaryTransform(MathLogF32)
)
