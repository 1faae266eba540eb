// Package consts uses constants of every kind: each constant expression is
// one model.Const of its final type.
package consts

import (
	"math"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// Level is a named integer type.
type Level uint16

const (
	untypedInt         = 1 << 40
	untypedFloat       = 0.1
	typedF32           = float32(1) / 3
	typedLevel   Level = 7
	big                = 1 << 100
	yes                = true
)

//gocccl:op
func Floats(x float32) float32 {
	const local = 2.5
	return x*untypedFloat + typedF32 - local + float32(math.Pi) + 1e-3
}

//gocccl:op
func Ints(x int64) int64 {
	return x + untypedInt + big>>90 - 'a' + int64(unsafe.Sizeof(x)) + math.MaxInt32
}

//gocccl:op
func Levels(l Level) Level {
	if l > typedLevel && yes {
		return l - typedLevel
	}
	return -1 & 0x0f
}

//gocccl:op
func Extremes(x uint64) uint64 {
	return x&math.MaxUint64 | 1<<63
}

//gocccl:op
func Shift(x int32) int32 {
	return x << 3 >> (1 << 4)
}

//gocccl:op
func Doubles(x float64) float64 {
	return x*math.SmallestNonzeroFloat64 + math.MaxFloat64/2 - 1.0/3
}

//gocccl:op
func Small(x int8) int8 {
	return x*-128/127 + -1
}

//gocccl:op
func Flag(x uint8) bool {
	return x > 1 == yes
}

var (
	_ = runtime.UnaryTransform(Floats)
	_ = runtime.UnaryTransform(Ints)
	_ = runtime.UnaryTransform(Levels)
	_ = runtime.UnaryTransform(Extremes)
	_ = runtime.UnaryTransform(Shift)
	_ = runtime.UnaryTransform(Doubles)
	_ = runtime.UnaryTransform(Small)
	_ = runtime.UnaryTransform(Flag)
)
