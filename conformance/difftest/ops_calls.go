package difftest

import (
	"github.com/gocccl/gocccl/conformance/difftest/dep"
	"github.com/gocccl/gocccl/runtime"
)

// Calls: operators calling operators, multiple results (named, bare
// return, blank identifiers, f(g()) with a multi-value g), and operators,
// types and constants of another package of the module.

// DivMod has two named results and a bare return.
//
//gocccl:op
func DivMod(a, b int32) (q, r int32) {
	q = a / b
	r = a % b
	return
}

//gocccl:op
func sortPair(a, b float64) (float64, float64) {
	if b < a {
		return b, a
	}
	return a, b
}

//gocccl:op
func combine(q, r int32) int32 { return q*31 + r }

// UseDivMod calls DivMod in a tuple assignment; b == 0 is kept out.
//
//gocccl:op
func UseDivMod(a, b int32) int32 {
	q, r := DivMod(a, b)
	_, r2 := DivMod(r, 3)
	return q ^ r2
}

// PassTuple passes the two results of DivMod as the arguments of combine.
//
//gocccl:op
func PassTuple(a, b int32) int32 { return combine(DivMod(a, b)) }

//gocccl:op
func SpreadOf(a, b float64) float64 {
	lo, hi := sortPair(a, b)
	return hi - lo
}

//gocccl:op
func square(x float32) float32 { return x * x }

//gocccl:op
func norm2(x, y float32) float32 { return square(x) + square(y) }

// CallChain nests calls three deep.
//
//gocccl:op
func CallChain(x float32) float32 { return norm2(square(x), x) - square(norm2(x, 1)) }

//gocccl:op
func DepClamp(x int32) int8 { return dep.Clamp8(x) + dep.Clamp8(x>>8) }

//gocccl:op
func DepMix(x uint64) uint64 { return dep.Mix64(x) ^ dep.Mix64(x+1) }

//gocccl:op
func DepScale(p dep.Point) dep.Point { return dep.Scale(p, 1.5) }

//gocccl:op
func DepSplit(a, b int32) int32 {
	s, d := dep.SplitSum(a, b)
	return s*3 ^ d + dep.Bias
}

var (
	_ = runtime.BinaryTransform(UseDivMod)
	_ = runtime.BinaryTransform(PassTuple)
	_ = runtime.BinaryTransform(SpreadOf)
	_ = runtime.UnaryTransform(CallChain)
	_ = runtime.UnaryTransform(DepClamp)
	_ = runtime.UnaryTransform(DepMix)
	_ = runtime.UnaryTransform(DepScale)
	_ = runtime.BinaryTransform(DepSplit)

	// Instances of another package's operators: their kernels are
	// compiled into this package.
	_ = runtime.UnaryTransform(dep.Clamp8)
	_ = runtime.BinaryTransform(dep.Scale)
	_ = runtime.UnaryTransform(dep.Mix64)
)
