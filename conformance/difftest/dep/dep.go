// Package dep holds operators that conformance/difftest calls from another
// package of the module: cross-package calls of //gocccl:op functions, with
// a struct type and a constant of their own.
package dep

// Bias is a package-level constant used by an operator of this package.
const Bias int32 = -17

// Point is a struct declared outside the package that uses it.
type Point struct {
	X, Y float32
	Tag  int16
}

// Clamp8 saturates x to the range of int8.
//
//gocccl:op
func Clamp8(x int32) int8 {
	if x > 127 {
		return 127
	} else if x < -128 {
		return -128
	}
	return int8(x)
}

// Mix64 is a wrapping hash step; it calls another operator of this package.
//
//gocccl:op
func Mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return rot(x)
}

//gocccl:op
func rot(x uint64) uint64 { return x<<13 | x>>51 }

// Scale multiplies a point by k and shifts its tag by the package's bias.
//
//gocccl:op
func Scale(p Point, k float32) Point {
	return Point{X: p.X * k, Y: p.Y * k, Tag: p.Tag + int16(Bias)}
}

// SplitSum returns the sum and the wrapping difference: two results.
//
//gocccl:op
func SplitSum(a, b int32) (sum, diff int32) {
	sum = a + b
	diff = a - b
	return
}
