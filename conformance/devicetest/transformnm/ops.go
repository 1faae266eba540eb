// Package transformnm holds the operators and instances of the N×M
// transform conformance tests (runtime.Transform3 … Transform4x3, their
// ...With constructors) and of TransformIfWith: the GPU is compared with the
// CPU backend, and the CPU backend with sequential loops, over every arity,
// numeric types and structs, plainly, in place, through iterators and with
// per-call state. Without a GPU both sides run on the CPU.
package transformnm

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Item is a 12-byte user struct (two bytes of padding): not an access size,
// so the kernels of the arities that read or write it take the per-item
// paths.
type Item struct {
	Key    uint32
	Weight float32
	Tag    int16
}

// Pair is a 16-byte user struct: one access per item.
type Pair struct {
	Lo, Hi uint64
}

// Axpb is the three-input, one-output float32 shape of the bench.
//
//gocccl:op
func Axpb(a, x, b float32) float32 { return a*x + b }

// Lerp2 is the three-input, two-output float32 shape of the bench: a
// blend and its complement.
//
//gocccl:op
func Lerp2(a, b, w float32) (float32, float32) { return a + (b-a)*w, b + (a-b)*w }

//gocccl:op
func Mix4(a int8, b uint16, c float64, d Item) float64 {
	return float64(a)*c + float64(b) - float64(d.Weight) + float64(d.Key>>8)
}

//gocccl:op
func Split(x uint64) (uint32, uint32) { return uint32(x), uint32(x >> 32) }

//gocccl:op
func DivMod(a, b int32) (int32, int32) { return a / b, a % b }

//gocccl:op
func Spread3(x uint8) (uint8, int16, float32) { return x ^ 0x5A, int16(x) * -3, float32(x) * 0.125 }

//gocccl:op
func Fan3(a int64, b float32) (int8, float64, Pair) {
	return int8(a), float64(b) * float64(a&0xFFFF), Pair{Lo: uint64(a), Hi: uint64(a) * 0x9E3779B97F4A7C15}
}

//gocccl:op
func Weigh(a uint32, b float32, c int16) (Item, float64) {
	return Item{Key: a ^ uint32(c), Weight: b * 2, Tag: c}, float64(a) + float64(b)
}

//gocccl:op
func Stats3(a, b, c float64) (float64, float64, float64) {
	return min(a, b, c), max(a, b, c), a + b + c
}

//gocccl:op
func Pack4(a uint8, b uint8, c uint16, d uint32) (uint64, uint32) {
	w := uint64(a) | uint64(b)<<8 | uint64(c)<<16 | uint64(d)<<32
	return w, uint32(w>>7) ^ d
}

//gocccl:op
func Four3(a int32, b int64, c float32, d Item) (int64, float32, uint16) {
	return b - int64(a)*int64(d.Tag), c*d.Weight + float32(a), uint16(d.Key) + uint16(a)
}

// Blend is the state of a stateful N×M transform: a weight and an offset
// chosen per call.
type Blend struct {
	W      float32
	Offset float32
}

// Apply blends a and b by the state's weight, and offsets c.
//
//gocccl:op
func (s Blend) Apply(a, b, c float32) (float32, float32) {
	return a + (b-a)*s.W, c + s.Offset
}

// Window is the state of a TransformIfWith: the elements in [Lo, Hi) are
// scaled by K, the others left as they are.
type Window struct {
	Lo, Hi int32
	K      float64
}

// Scale is TransformIfWith's operator.
//
//gocccl:op
func (w Window) Scale(x int32) float64 { return float64(x) * w.K }

// Inside is TransformIfWith's predicate.
//
//gocccl:op
func (w Window) Inside(x int32) bool { return x >= w.Lo && x < w.Hi }

// Leaves, bound per call.
var (
	Index  = it.Counting[int32]()
	OutI32 = it.Slice[int32]()
)

// Compositions.
var (
	RevI32 = it.ReverseOutput(OutI32)
	Drop   = it.Discard[int32]()
)

var (
	Transform3F32   = runtime.Transform3(Axpb)
	Transform4Mixed = runtime.Transform4(Mix4)
	Transform1x2U64 = runtime.Transform1x2(Split)
	Transform2x2I32 = runtime.Transform2x2(DivMod)
	Transform3x2F32 = runtime.Transform3x2(Lerp2)
	Transform4x2U8  = runtime.Transform4x2(Pack4)
	Transform1x3U8  = runtime.Transform1x3(Spread3)
	Transform2x3Fan = runtime.Transform2x3(Fan3)
	Transform3x3F64 = runtime.Transform3x3(Stats3)
	Transform4x3Mix = runtime.Transform4x3(Four3)
	Transform3x2Itm = runtime.Transform3x2(Weigh)

	// DivMod of a counting sequence by b: quotients written backwards,
	// remainders dropped.
	Transform2x2Iter = runtime.Transform2x2(DivMod).Over(Index, it.Slice[int32]()).Into(RevI32, Drop)

	Transform3x2Blend = runtime.Transform3x2With(Blend.Apply)
	TransformIfWindow = runtime.TransformIfWith(Window.Scale, Window.Inside)
)
