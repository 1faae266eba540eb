package difftest

import (
	"math"
	goruntime "runtime"
)

// Go leaves float-to-integer conversions of NaN and of values out of the
// range of the target type to the implementation; the GPU reproduces what
// Go does on amd64 (docs/OPERATORS.md). Elsewhere those inputs are kept out.
var onAMD64 = goruntime.GOARCH == "amd64"

// fits returns a filter that keeps x when its truncation lies in [lo, hi],
// or always on amd64.
func fits[F float32 | float64](lo, hi float64) func(F) bool {
	return func(x F) bool {
		t := math.Trunc(float64(x))
		return onAMD64 || t >= lo && t <= hi
	}
}

func init() {
	addCases(
		unary("NarrowInt64", NarrowInt64),
		unary("WidenInt8", WidenInt8),
		unary("WidenUint16", WidenUint16),
		unary("IntToUintptr", IntToUintptr),
		unary("Int64ToFloat32", Int64ToFloat32),
		unary("Int64ToFloat64", Int64ToFloat64),
		unary("Uint64ToFloat32", Uint64ToFloat32),
		unary("Uint64ToFloat64", Uint64ToFloat64),
		unary("Int8ToFloat32", Int8ToFloat32),
		unary("Float64ToFloat32", Float64ToFloat32),
		unary("Float32ToFloat64", Float32ToFloat64),
		unary("Float64ToInt64", Float64ToInt64, where(fits[float64](math.MinInt64, 0x1p63-1024))),
		unary("Float64ToInt32", Float64ToInt32, where(fits[float64](math.MinInt32, math.MaxInt32))),
		unary("Float32ToInt", Float32ToInt, where(fits[float32](math.MinInt64, 0x1p63-1024))),
		unary("Float64ToInt8", Float64ToInt8, where(fits[float64](math.MinInt8, math.MaxInt8))),
		unary("Float32ToUint8", Float32ToUint8, where(fits[float32](0, math.MaxUint8))),
		unary("Float64ToUint16", Float64ToUint16, where(fits[float64](0, math.MaxUint16))),
		unary("Float64ToUint32", Float64ToUint32, where(fits[float64](0, math.MaxUint32))),
		unary("Float64ToUint64", Float64ToUint64, where(fits[float64](0, 0x1p64-2048))),
		unary("Float32ToUint64", Float32ToUint64, where(fits[float32](0, 0x1p64-2048))),
		unary("RoundTrip", RoundTrip),
	)
}
