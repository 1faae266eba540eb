package difftest

import "github.com/gocccl/gocccl/runtime"

// Built-in min and max: integers of every signedness, several arguments,
// untyped constant arguments, and floats with Go's rules (any NaN argument
// gives NaN, min(-0, +0) is -0, max(-0, +0) is +0). Reduce uses them too.

//gocccl:op
func MinInt8(a, b int8) int8 { return min(a, b) }

//gocccl:op
func MaxUint64(a, b uint64) uint64 { return max(a, b, 7) }

//gocccl:op
func MinMaxInt(a, b int) int { return min(a, b, 100) - max(a>>1, b, -100) }

//gocccl:op
func MinF32(a, b float32) float32 { return min(a, b) }

//gocccl:op
func MaxF64(a, b float64) float64 { return max(a, b) }

//gocccl:op
func MaxZero(x float64) float64 { return max(x, 0) + min(x, -0.0) }

//gocccl:op
func Clamp01(x float32) float32 { return min(max(x, 0), 1) }

//gocccl:op
func MinOf3F64(a, b float64) float64 { return min(a, b, a*b) }

//gocccl:op
func MinReduceF64(a, b float64) float64 { return min(a, b) }

//gocccl:op
func MaxReduceF32(a, b float32) float32 { return max(a, b) }

//gocccl:op
func MaxReduceInt32(a, b int32) int32 { return max(a, b) }

//gocccl:op
func MaxMeters(a, b Meters) Meters { return max(a, b) }

var (
	_ = runtime.BinaryTransform(MinInt8)
	_ = runtime.BinaryTransform(MaxUint64)
	_ = runtime.BinaryTransform(MinMaxInt)
	_ = runtime.BinaryTransform(MinF32)
	_ = runtime.BinaryTransform(MaxF64)
	_ = runtime.UnaryTransform(MaxZero)
	_ = runtime.UnaryTransform(Clamp01)
	_ = runtime.BinaryTransform(MinOf3F64)
	_ = runtime.Reduce(MinReduceF64)
	_ = runtime.Reduce(MaxReduceF32)
	_ = runtime.Reduce(MaxReduceInt32)
	_ = runtime.Reduce(MaxMeters)
)
