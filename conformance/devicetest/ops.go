// Package devicetest holds the operators and algorithm instances that the
// GPU conformance tests run: a Reduce, a UnaryTransform and a BinaryTransform
// for every numeric element type, compared on the GPU against the CPU
// backend.
//
// Floating-point operators write every product that is followed by an
// addition as an explicit conversion, T(a*b) + c: Go may fuse a*b + c into
// one FMA on arm64 and amd64 v3, while the GPU code is compiled without
// contraction, and an explicit conversion is Go's way to forbid the fusion.
//
// Like the family packages beside it, it is built for the H200 the GPU
// suites run on (sm_90) alone: images for every default target added 13 MB
// to every copy of the repository and were never loaded; examples/sum and
// examples/particles keep the default targets.
package devicetest

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func AddInt8(a, b int8) int8 { return a + b }

//gocccl:op
func MaxInt8(a, b int8) int8 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineInt8(x int8) int8 { return int8(x+7) * 3 }

//gocccl:op
func MixInt8(a, b int8) int8 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddInt16(a, b int16) int16 { return a + b }

//gocccl:op
func MaxInt16(a, b int16) int16 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineInt16(x int16) int16 { return int16(x+7) * 3 }

//gocccl:op
func MixInt16(a, b int16) int16 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

//gocccl:op
func MaxInt32(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineInt32(x int32) int32 { return int32(x+7) * 3 }

//gocccl:op
func MixInt32(a, b int32) int32 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddInt64(a, b int64) int64 { return a + b }

//gocccl:op
func MaxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineInt64(x int64) int64 { return int64(x+7) * 3 }

//gocccl:op
func MixInt64(a, b int64) int64 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddInt(a, b int) int { return a + b }

//gocccl:op
func MaxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineInt(x int) int { return int(x+7) * 3 }

//gocccl:op
func MixInt(a, b int) int {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUint8(a, b uint8) uint8 { return a + b }

//gocccl:op
func MaxUint8(a, b uint8) uint8 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUint8(x uint8) uint8 { return uint8(x+7) * 3 }

//gocccl:op
func MixUint8(a, b uint8) uint8 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUint16(a, b uint16) uint16 { return a + b }

//gocccl:op
func MaxUint16(a, b uint16) uint16 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUint16(x uint16) uint16 { return uint16(x+7) * 3 }

//gocccl:op
func MixUint16(a, b uint16) uint16 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUint32(a, b uint32) uint32 { return a + b }

//gocccl:op
func MaxUint32(a, b uint32) uint32 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUint32(x uint32) uint32 { return uint32(x+7) * 3 }

//gocccl:op
func MixUint32(a, b uint32) uint32 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUint64(a, b uint64) uint64 { return a + b }

//gocccl:op
func MaxUint64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUint64(x uint64) uint64 { return uint64(x+7) * 3 }

//gocccl:op
func MixUint64(a, b uint64) uint64 {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUint(a, b uint) uint { return a + b }

//gocccl:op
func MaxUint(a, b uint) uint {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUint(x uint) uint { return uint(x+7) * 3 }

//gocccl:op
func MixUint(a, b uint) uint {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddUintptr(a, b uintptr) uintptr { return a + b }

//gocccl:op
func MaxUintptr(a, b uintptr) uintptr {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineUintptr(x uintptr) uintptr { return uintptr(x+7) * 3 }

//gocccl:op
func MixUintptr(a, b uintptr) uintptr {
	if a < b {
		return a*b - (a ^ b)
	}
	return a - b&^7
}

//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func MaxFloat32(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineFloat32(x float32) float32 { return float32(x+0.25) * 1.5 }

//gocccl:op
func MixFloat32(a, b float32) float32 {
	d := b + 3
	if a < 0 {
		return float32(a*b) - a/d
	}
	return a/d + b
}

//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

//gocccl:op
func MaxFloat64(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

//gocccl:op
func AffineFloat64(x float64) float64 { return float64(x+0.25) * 1.5 }

//gocccl:op
func MixFloat64(a, b float64) float64 {
	d := b + 3
	if a < 0 {
		return float64(a*b) - a/d
	}
	return a/d + b
}

//gocccl:op
func Widen(x int32) float64 { return float64(x) * 0.5 }

// Shifty shifts by an untyped non-constant count, which Go computes as a
// uint: (1 << s) % 7 is never negative, whatever s.
//
//gocccl:op
func Shifty(a int64) int64 {
	s := uint(a) & 127
	return a>>((1<<s)%7) + int64(uint8(a)<<(s&15))
}

//gocccl:op
func Blend(a uint8, b float32) float32 { return float32(float32(a)*b) + 1 }

// The instances under test.
var (
	SumInt8        = runtime.Reduce(AddInt8)
	MaxOfInt8      = runtime.Reduce(MaxInt8)
	AffineTInt8    = runtime.UnaryTransform(AffineInt8)
	MixTInt8       = runtime.BinaryTransform(MixInt8)
	SumInt16       = runtime.Reduce(AddInt16)
	MaxOfInt16     = runtime.Reduce(MaxInt16)
	AffineTInt16   = runtime.UnaryTransform(AffineInt16)
	MixTInt16      = runtime.BinaryTransform(MixInt16)
	SumInt32       = runtime.Reduce(AddInt32)
	MaxOfInt32     = runtime.Reduce(MaxInt32)
	AffineTInt32   = runtime.UnaryTransform(AffineInt32)
	MixTInt32      = runtime.BinaryTransform(MixInt32)
	SumInt64       = runtime.Reduce(AddInt64)
	MaxOfInt64     = runtime.Reduce(MaxInt64)
	AffineTInt64   = runtime.UnaryTransform(AffineInt64)
	MixTInt64      = runtime.BinaryTransform(MixInt64)
	SumInt         = runtime.Reduce(AddInt)
	MaxOfInt       = runtime.Reduce(MaxInt)
	AffineTInt     = runtime.UnaryTransform(AffineInt)
	MixTInt        = runtime.BinaryTransform(MixInt)
	SumUint8       = runtime.Reduce(AddUint8)
	MaxOfUint8     = runtime.Reduce(MaxUint8)
	AffineTUint8   = runtime.UnaryTransform(AffineUint8)
	MixTUint8      = runtime.BinaryTransform(MixUint8)
	SumUint16      = runtime.Reduce(AddUint16)
	MaxOfUint16    = runtime.Reduce(MaxUint16)
	AffineTUint16  = runtime.UnaryTransform(AffineUint16)
	MixTUint16     = runtime.BinaryTransform(MixUint16)
	SumUint32      = runtime.Reduce(AddUint32)
	MaxOfUint32    = runtime.Reduce(MaxUint32)
	AffineTUint32  = runtime.UnaryTransform(AffineUint32)
	MixTUint32     = runtime.BinaryTransform(MixUint32)
	SumUint64      = runtime.Reduce(AddUint64)
	MaxOfUint64    = runtime.Reduce(MaxUint64)
	AffineTUint64  = runtime.UnaryTransform(AffineUint64)
	MixTUint64     = runtime.BinaryTransform(MixUint64)
	SumUint        = runtime.Reduce(AddUint)
	MaxOfUint      = runtime.Reduce(MaxUint)
	AffineTUint    = runtime.UnaryTransform(AffineUint)
	MixTUint       = runtime.BinaryTransform(MixUint)
	SumUintptr     = runtime.Reduce(AddUintptr)
	MaxOfUintptr   = runtime.Reduce(MaxUintptr)
	AffineTUintptr = runtime.UnaryTransform(AffineUintptr)
	MixTUintptr    = runtime.BinaryTransform(MixUintptr)
	SumFloat32     = runtime.Reduce(AddFloat32)
	MaxOfFloat32   = runtime.Reduce(MaxFloat32)
	AffineTFloat32 = runtime.UnaryTransform(AffineFloat32)
	MixTFloat32    = runtime.BinaryTransform(MixFloat32)
	SumFloat64     = runtime.Reduce(AddFloat64)
	MaxOfFloat64   = runtime.Reduce(MaxFloat64)
	AffineTFloat64 = runtime.UnaryTransform(AffineFloat64)
	MixTFloat64    = runtime.BinaryTransform(MixFloat64)
	WidenT         = runtime.UnaryTransform(Widen)
	ShiftyT        = runtime.UnaryTransform(Shifty)
	BlendT         = runtime.BinaryTransform(Blend)
)
