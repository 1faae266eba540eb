package difftest

import "github.com/gocccl/gocccl/runtime"

// Control flow, if: else-if chains with init statements, shadowing, nested
// blocks, named results with bare returns.

//gocccl:op
func IfInitChain(x int32) int32 {
	if y := x * 3; y > 100 {
		return y
	} else if z := y - x; z < -5 {
		return z + y
	} else {
		x := z ^ y // shadows the parameter
		return x
	}
}

//gocccl:op
func IfNested(a, b float64) (r int8) {
	r = -1
	if a > 0 {
		if b > 0 {
			r = 1
		} else if b < 0 {
			r = 2
		}
	} else {
		{
			r := int8(7) // inner block shadows the result
			_ = r
		}
		if a != a {
			r = 3
			return
		}
	}
	return
}

var (
	_ = runtime.UnaryTransform(IfInitChain)
	_ = runtime.BinaryTransform(IfNested)
)
