// Package reject_rule_complex: complex64 and complex128 are allowed, with
// the math/cmplx functions of the table; the others are rejected, and so is
// an order on complex numbers (go/types reports that one itself).
package reject_rule_complex

import "math/cmplx"

//gocccl:op
func Tan(c complex128) complex128 {
	return cmplx.Tan(c) // want `cmplx.Tan is not supported in operators: the supported functions of math/cmplx are Abs, Conj, Cos, Cosh, Exp, Inf, IsInf, IsNaN, Log, NaN, Phase, Polar, Pow, Rect, Sin, Sinh, Sqrt \(docs/OPERATORS.md\)`
}

//gocccl:op
func Asin(c complex64) complex64 {
	return complex64(cmplx.Asin(complex128(c))) // want `cmplx.Asin is not supported in operators`
}
