// Package names shadows variables and uses C++ keywords as names: the model
// keeps Go names unique within each operator; the emitter makes them C++.
package names

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Shadow(x int32) int32 {
	if x := x * 2; x > 0 {
		x := x + 1
		{
			x := x + 2
			x_1 := x
			_ = x_1
		}
		return x
	}
	{
		x := x - 1
		return x
	}
}

//gocccl:op
func Keywords(int, float int64) int64 {
	auto, new, delete, this, class := int, float, int+1, float+1, int*2
	char, template := auto+new, delete+this
	int_ := class
	return char + template + int_
}

//gocccl:op
func Reserved(min, max uint32) uint32 {
	threadIdx, gocccl_x := min, max
	Keywords := threadIdx + gocccl_x
	return Keywords
}

//gocccl:op
func Unicode(π, __x, _X float32) float32 {
	return π + __x + _X
}

var _ = runtime.UnaryTransform(Shadow)
