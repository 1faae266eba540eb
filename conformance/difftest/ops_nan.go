package difftest

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// NaN payloads. Go on amd64 returns, for float + - * / whose result is a
// NaN, the first SSE source operand quieted when it is a NaN, else the
// second quieted, else (Inf - Inf, 0 * Inf, 0 / 0, Inf / Inf) the default
// NaN with the sign bit set; conversions between float32 and float64 keep
// a NaN's sign and payload, quieted; math.FMA takes the first NaN of x, y
// and z. The GPU code reproduces each (gosem.cuh's fadd, fsub, fmul, fquo,
// conv). The edge values hold signalling and quiet NaNs of both signs with
// payloads, and invalid operations come from ±Inf and ±0.
//
// For + and *, gc picks the destination register itself; for these
// operators, each a single expression over its parameters in order, that is
// the left operand, as the emitter assumes (see docs/OPERATORS.md).

//gocccl:op
func NaNAdd32(a, b float32) float32 { return a + b }

//gocccl:op
func NaNSub32(a, b float32) float32 { return a - b }

//gocccl:op
func NaNMul32(a, b float32) float32 { return a * b }

//gocccl:op
func NaNQuo32(a, b float32) float32 { return a / b }

//gocccl:op
func NaNAdd64(a, b float64) float64 { return a + b }

//gocccl:op
func NaNSub64(a, b float64) float64 { return a - b }

//gocccl:op
func NaNMul64(a, b float64) float64 { return a * b }

//gocccl:op
func NaNQuo64(a, b float64) float64 { return a / b }

// NaNWiden converts a float32 NaN to float64 (payload shifted up, quieted)
// and subtracts: both conversions' NaNs meet the subtraction's rule.
//
//gocccl:op
func NaNWiden(a float32, b float64) float64 { return float64(a) - b }

// NaNNarrow converts a float64 NaN to float32 (payload truncated, quieted).
//
//gocccl:op
func NaNNarrow(a float64, b float32) float32 { return float32(a) / b }

// NaNRoundTrip widens and narrows: a quieted float32 NaN comes back.
//
//gocccl:op
func NaNRoundTrip(a float32) float32 { return float32(float64(a)) }

// NaNInvalid makes the default NaN from Inf - Inf and 0 * Inf, then meets
// it with other NaNs.
//
//gocccl:op
func NaNInvalid(a, b float64) float64 {
	d := a - a   // NaN for ±Inf and NaN a
	p := b * 0   // NaN for ±Inf and NaN b
	return d / p // d first, then p, else 0/0
}

// NaNNegate flips the sign of a computed NaN, then adds.
//
//gocccl:op
func NaNNegate(a, b float32) float32 { return -(a - b) - b }

// NaNMath runs NaNs through math functions built on arithmetic and
// through FMA.
//
//gocccl:op
func NaNMath(a, b float64) float64 {
	return math.FMA(a, b, math.Dim(b, a)) - math.Sqrt(a) + math.Floor(b)
}

// NaNStruct keeps NaNs in fields.
//
//gocccl:op
func NaNStruct(a, b Vec3) Vec3 { return Vec3{X: a.X - b.Y, Y: a.Y / b.Z, Z: a.Z - b.X} }

var (
	_ = runtime.BinaryTransform(NaNAdd32)
	_ = runtime.BinaryTransform(NaNSub32)
	_ = runtime.BinaryTransform(NaNMul32)
	_ = runtime.BinaryTransform(NaNQuo32)
	_ = runtime.BinaryTransform(NaNAdd64)
	_ = runtime.BinaryTransform(NaNSub64)
	_ = runtime.BinaryTransform(NaNMul64)
	_ = runtime.BinaryTransform(NaNQuo64)
	_ = runtime.BinaryTransform(NaNWiden)
	_ = runtime.BinaryTransform(NaNNarrow)
	_ = runtime.UnaryTransform(NaNRoundTrip)
	_ = runtime.BinaryTransform(NaNInvalid)
	_ = runtime.BinaryTransform(NaNNegate)
	_ = runtime.BinaryTransform(NaNMath)
	_ = runtime.BinaryTransform(NaNStruct)
)
