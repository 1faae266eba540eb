// Package reject_intrinsics calls functions of math and math/bits that
// operators cannot use, and uses supported ones wrongly.
package reject_intrinsics

import (
	"math"
	"math/bits"
)

//gocccl:op
func Gamma(x float64) float64 {
	return math.Gamma(x) // want `math.Gamma is not supported in operators: the supported functions of math are Abs, Acos, .*Sqrt, Tan, Tanh, Trunc \(docs/OPERATORS.md\)`
}

//gocccl:op
func Logb(x float64) float64 {
	return math.Logb(x) // want `math.Logb is not supported in operators: use math.Frexp`
}

//gocccl:op
func Sincos(x float64) float64 {
	s, c := math.Sincos(x) // want `math.Sincos is not supported in operators: call math.Sin and math.Cos`
	return s + c
}

//gocccl:op
func Div(hi, lo, y uint64) uint64 {
	q, _ := bits.Div64(hi, lo, y) // want `bits.Div64 is not supported in operators: it panics on a zero divisor`
	return q
}

//gocccl:op
func Rem(hi, lo, y uint64) uint64 {
	return bits.Rem64(hi, lo, y) // want `bits.Rem64 is not supported in operators: it panics on a zero divisor`
}

//gocccl:op
func FuncValue(x float64) float64 {
	f := math.Sqrt // want `function values are not allowed in operators`
	return f(x)    // want `calls through function values are not allowed`
}

//gocccl:op
func Float32(x float32) float32 {
	return float32(math.Pow10(int(x))) // want `math.Pow10 is not supported in operators`
}
