package difftest

import "github.com/gocccl/gocccl/runtime"

// Division: truncation toward zero, MinInt / -1 wrapping, constant and
// power-of-two divisors. Divisors of zero panic in Go and are kept out of
// the inputs; TestGPUSemantics checks the GPU's defined results for them.

//gocccl:op
func DivInt8(a, b int8) int8 { return a / b }

//gocccl:op
func RemInt16(a, b int16) int16 { return a % b }

//gocccl:op
func DivInt32(a, b int32) int32 { return a / b }

//gocccl:op
func RemInt32(a, b int32) int32 { return a % b }

//gocccl:op
func DivRemInt64(a, b int64) int64 { return a/b*b + a%b - a }

//gocccl:op
func DivUint64(a, b uint64) uint64 { return a/b ^ a%b }

//gocccl:op
func DivUint8(a, b uint8) uint8 { return a/b + a%b }

//gocccl:op
func DivConst(x int32) int32 { return x/7 + x%-3 + x/-5 }

//gocccl:op
func DivPow2(x int64) int64 { return x/8 + x%16 + x/-4 }

//gocccl:op
func DivAssign(x int, y int) int {
	x /= y
	x %= 1000003
	return x
}

var (
	_ = runtime.BinaryTransform(DivInt8)
	_ = runtime.BinaryTransform(RemInt16)
	_ = runtime.BinaryTransform(DivInt32)
	_ = runtime.BinaryTransform(RemInt32)
	_ = runtime.BinaryTransform(DivRemInt64)
	_ = runtime.BinaryTransform(DivUint64)
	_ = runtime.BinaryTransform(DivUint8)
	_ = runtime.UnaryTransform(DivConst)
	_ = runtime.UnaryTransform(DivPow2)
	_ = runtime.BinaryTransform(DivAssign)
)
