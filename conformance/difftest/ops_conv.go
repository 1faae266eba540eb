package difftest

import "github.com/gocccl/gocccl/runtime"

// Conversions: integer narrowing and widening (sign and zero extension),
// integer to float (round to nearest even), float to float (rounding,
// overflow to ±Inf, subnormals), float to integer (truncation; out of range
// and NaN follow Go on amd64, see docs/OPERATORS.md).

//gocccl:op
func NarrowInt64(x int64) int32 {
	return int32(int8(x)) + int32(int16(x)) ^ int32(x) + int32(uint8(x>>8))
}

//gocccl:op
func WidenInt8(x int8) uint64 { return uint64(x) ^ uint64(uint8(x))<<32 }

//gocccl:op
func WidenUint16(x uint16) int64 { return int64(x) - int64(int16(x)) }

//gocccl:op
func IntToUintptr(x int32) uintptr { return uintptr(x) + uintptr(uint32(x)) }

//gocccl:op
func Int64ToFloat32(x int64) float32 { return float32(x) }

//gocccl:op
func Int64ToFloat64(x int64) float64 { return float64(x) }

//gocccl:op
func Uint64ToFloat32(x uint64) float32 { return float32(x) }

//gocccl:op
func Uint64ToFloat64(x uint64) float64 { return float64(x) }

//gocccl:op
func Int8ToFloat32(x int8) float32 { return float32(x) / 3 }

//gocccl:op
func Float64ToFloat32(x float64) float32 { return float32(x) }

//gocccl:op
func Float32ToFloat64(x float32) float64 { return float64(x) * 3 }

//gocccl:op
func Float64ToInt64(x float64) int64 { return int64(x) }

//gocccl:op
func Float64ToInt32(x float64) int32 { return int32(x) }

//gocccl:op
func Float32ToInt(x float32) int { return int(x) }

//gocccl:op
func Float64ToInt8(x float64) int8 { return int8(x) }

//gocccl:op
func Float32ToUint8(x float32) uint8 { return uint8(x) }

//gocccl:op
func Float64ToUint16(x float64) uint16 { return uint16(x) }

//gocccl:op
func Float64ToUint32(x float64) uint32 { return uint32(x) }

//gocccl:op
func Float64ToUint64(x float64) uint64 { return uint64(x) }

//gocccl:op
func Float32ToUint64(x float32) uint64 { return uint64(x) }

// RoundTrip converts through several types in one expression.
//
//gocccl:op
func RoundTrip(x int32) int32 { return int32(float32(float64(x)*0.5)) + int32(int16(uint8(x))) }

var (
	_ = runtime.UnaryTransform(NarrowInt64)
	_ = runtime.UnaryTransform(WidenInt8)
	_ = runtime.UnaryTransform(WidenUint16)
	_ = runtime.UnaryTransform(IntToUintptr)
	_ = runtime.UnaryTransform(Int64ToFloat32)
	_ = runtime.UnaryTransform(Int64ToFloat64)
	_ = runtime.UnaryTransform(Uint64ToFloat32)
	_ = runtime.UnaryTransform(Uint64ToFloat64)
	_ = runtime.UnaryTransform(Int8ToFloat32)
	_ = runtime.UnaryTransform(Float64ToFloat32)
	_ = runtime.UnaryTransform(Float32ToFloat64)
	_ = runtime.UnaryTransform(Float64ToInt64)
	_ = runtime.UnaryTransform(Float64ToInt32)
	_ = runtime.UnaryTransform(Float32ToInt)
	_ = runtime.UnaryTransform(Float64ToInt8)
	_ = runtime.UnaryTransform(Float32ToUint8)
	_ = runtime.UnaryTransform(Float64ToUint16)
	_ = runtime.UnaryTransform(Float64ToUint32)
	_ = runtime.UnaryTransform(Float64ToUint64)
	_ = runtime.UnaryTransform(Float32ToUint64)
	_ = runtime.UnaryTransform(RoundTrip)
)
