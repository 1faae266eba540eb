// Package find holds the operators and instances of the FindIf, ArgMin,
// ArgMax, SegmentedArgMin and SegmentedArgMax conformance tests: the GPU is
// compared with the CPU backend, and the CPU backend with sequential loops,
// for every numeric type and a struct, plainly, through an iterator and with
// per-call state. Without a GPU both sides run on the CPU.
package find

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Mark is the value the FindIf tests plant: random inputs stay below it.
const Mark = 101

// Item is a user struct element type, ordered by Key alone (so that many
// items are equivalent and ties go to the lowest index).
type Item struct {
	Key    uint32
	Weight float32
}

//gocccl:op
func MarkItem(x Item) bool { return x.Key == Mark }

//gocccl:op
func LessItem(a, b Item) bool { return a.Key < b.Key }

// LessNaNFloat32 orders NaNs after every number: a strict weak order with
// NaNs, unlike a < b.
//
//gocccl:op
func LessNaNFloat32(a, b float32) bool { return a < b || (b != b && a == a) }

// Key is the state of a search: the value looked for, chosen per call.
type Key struct{ V int32 }

// Is reports whether x is the key.
//
//gocccl:op
func (k Key) Is(x int32) bool { return x == k.V }

// Hash is a pseudo-random value in [0, 100) for an index: the values of an
// iterator input.
//
//gocccl:op
func Hash(i int64) int64 {
	x := uint64(i)*0x9E3779B97F4A7C15 + 12345
	x ^= x >> 29
	return int64(x % 100)
}

//gocccl:op
func MarkInt8(x int8) bool { return x == Mark }

//gocccl:op
func LessInt8(a, b int8) bool { return a < b }

//gocccl:op
func MarkInt16(x int16) bool { return x == Mark }

//gocccl:op
func LessInt16(a, b int16) bool { return a < b }

//gocccl:op
func MarkInt32(x int32) bool { return x == Mark }

//gocccl:op
func LessInt32(a, b int32) bool { return a < b }

//gocccl:op
func MarkInt64(x int64) bool { return x == Mark }

//gocccl:op
func LessInt64(a, b int64) bool { return a < b }

//gocccl:op
func MarkUint8(x uint8) bool { return x == Mark }

//gocccl:op
func LessUint8(a, b uint8) bool { return a < b }

//gocccl:op
func MarkUint16(x uint16) bool { return x == Mark }

//gocccl:op
func LessUint16(a, b uint16) bool { return a < b }

//gocccl:op
func MarkUint32(x uint32) bool { return x == Mark }

//gocccl:op
func LessUint32(a, b uint32) bool { return a < b }

//gocccl:op
func MarkUint64(x uint64) bool { return x == Mark }

//gocccl:op
func LessUint64(a, b uint64) bool { return a < b }

//gocccl:op
func MarkFloat32(x float32) bool { return x == Mark }

//gocccl:op
func LessFloat32(a, b float32) bool { return a < b }

//gocccl:op
func MarkFloat64(x float64) bool { return x == Mark }

//gocccl:op
func LessFloat64(a, b float64) bool { return a < b }

var (
	FindInt8   = runtime.FindIf(MarkInt8)
	ArgMinInt8 = runtime.ArgMin(LessInt8)
	ArgMaxInt8 = runtime.ArgMax(LessInt8)
	SegMinInt8 = runtime.SegmentedArgMin(LessInt8)
	SegMaxInt8 = runtime.SegmentedArgMax(LessInt8)

	FindInt16   = runtime.FindIf(MarkInt16)
	ArgMinInt16 = runtime.ArgMin(LessInt16)
	ArgMaxInt16 = runtime.ArgMax(LessInt16)
	SegMinInt16 = runtime.SegmentedArgMin(LessInt16)
	SegMaxInt16 = runtime.SegmentedArgMax(LessInt16)

	FindInt32   = runtime.FindIf(MarkInt32)
	ArgMinInt32 = runtime.ArgMin(LessInt32)
	ArgMaxInt32 = runtime.ArgMax(LessInt32)
	SegMinInt32 = runtime.SegmentedArgMin(LessInt32)
	SegMaxInt32 = runtime.SegmentedArgMax(LessInt32)

	FindInt64   = runtime.FindIf(MarkInt64)
	ArgMinInt64 = runtime.ArgMin(LessInt64)
	ArgMaxInt64 = runtime.ArgMax(LessInt64)
	SegMinInt64 = runtime.SegmentedArgMin(LessInt64)
	SegMaxInt64 = runtime.SegmentedArgMax(LessInt64)

	FindUint8   = runtime.FindIf(MarkUint8)
	ArgMinUint8 = runtime.ArgMin(LessUint8)
	ArgMaxUint8 = runtime.ArgMax(LessUint8)
	SegMinUint8 = runtime.SegmentedArgMin(LessUint8)
	SegMaxUint8 = runtime.SegmentedArgMax(LessUint8)

	FindUint16   = runtime.FindIf(MarkUint16)
	ArgMinUint16 = runtime.ArgMin(LessUint16)
	ArgMaxUint16 = runtime.ArgMax(LessUint16)
	SegMinUint16 = runtime.SegmentedArgMin(LessUint16)
	SegMaxUint16 = runtime.SegmentedArgMax(LessUint16)

	FindUint32   = runtime.FindIf(MarkUint32)
	ArgMinUint32 = runtime.ArgMin(LessUint32)
	ArgMaxUint32 = runtime.ArgMax(LessUint32)
	SegMinUint32 = runtime.SegmentedArgMin(LessUint32)
	SegMaxUint32 = runtime.SegmentedArgMax(LessUint32)

	FindUint64   = runtime.FindIf(MarkUint64)
	ArgMinUint64 = runtime.ArgMin(LessUint64)
	ArgMaxUint64 = runtime.ArgMax(LessUint64)
	SegMinUint64 = runtime.SegmentedArgMin(LessUint64)
	SegMaxUint64 = runtime.SegmentedArgMax(LessUint64)

	FindFloat32   = runtime.FindIf(MarkFloat32)
	ArgMinFloat32 = runtime.ArgMin(LessFloat32)
	ArgMaxFloat32 = runtime.ArgMax(LessFloat32)
	SegMinFloat32 = runtime.SegmentedArgMin(LessFloat32)
	SegMaxFloat32 = runtime.SegmentedArgMax(LessFloat32)

	FindFloat64   = runtime.FindIf(MarkFloat64)
	ArgMinFloat64 = runtime.ArgMin(LessFloat64)
	ArgMaxFloat64 = runtime.ArgMax(LessFloat64)
	SegMinFloat64 = runtime.SegmentedArgMin(LessFloat64)
	SegMaxFloat64 = runtime.SegmentedArgMax(LessFloat64)

	FindItem   = runtime.FindIf(MarkItem)
	ArgMinItem = runtime.ArgMin(LessItem)
	ArgMaxItem = runtime.ArgMax(LessItem)
	SegMinItem = runtime.SegmentedArgMin(LessItem)
	SegMaxItem = runtime.SegmentedArgMax(LessItem)

	ArgMinNaN = runtime.ArgMin(LessNaNFloat32)
	ArgMaxNaN = runtime.ArgMax(LessNaNFloat32)

	FindKey = runtime.FindIfWith(Key.Is)

	CountI64   = it.Counting[int64]()
	Hashed     = it.Transform(CountI64, Hash)
	FindHashed = runtime.FindIf(MarkInt64).Over(Hashed)
	MinHashed  = runtime.ArgMin(LessInt64).Over(Hashed)
	MaxHashed  = runtime.ArgMax(LessInt64).Over(Hashed)
)
