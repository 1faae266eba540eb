// Package calls has operators that call other operators.
package calls

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Square(x float32) float32 { return x * x }

//gocccl:op fastmath
func Norm2(a, b float32) float32 { return Square(a) + Square(b) }

//gocccl:op
func Clamp(x float32) float32 {
	if n := Norm2(x, 0); n > 1 {
		return (Square)(1)
	}
	return x
}

var (
	Sum     = runtime.Reduce(Norm2)
	Clamped = runtime.UnaryTransform(Clamp)
)
