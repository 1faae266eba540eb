// Package fill holds the operators and instances of the Fill, Generate,
// TransformIf and BatchedCopy conformance tests: the GPU is compared with
// the CPU backend, and the CPU backend with sequential loops, over numeric
// types and structs, plainly, through iterators and with per-call state.
// Without a GPU both sides run on the CPU.
package fill

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Item is a 12-byte user struct (two bytes of padding): not an access size,
// so its kernels take the per-item paths.
type Item struct {
	Key    uint32
	Weight float32
	Tag    int16
}

// Pair is a 16-byte user struct: one access per item.
type Pair struct {
	Lo, Hi uint64
}

// Mix is an index scrambled, the values of the Generate tests.
//
//gocccl:op
func Mix(i int64) uint64 {
	x := uint64(i)*0x9E3779B97F4A7C15 + 12345
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>32
}

//gocccl:op
func GenInt8(i int64) int8 { return int8(Mix(i)) }

//gocccl:op
func GenInt16(i int64) int16 { return int16(Mix(i)) }

//gocccl:op
func GenInt32(i int64) int32 { return int32(Mix(i)) }

//gocccl:op
func GenInt64(i int64) int64 { return int64(Mix(i)) }

//gocccl:op
func GenUint8(i int64) uint8 { return uint8(Mix(i)) }

//gocccl:op
func GenUint32(i int64) uint32 { return uint32(Mix(i)) }

//gocccl:op
func GenUint64(i int64) uint64 { return Mix(i) }

//gocccl:op
func GenFloat32(i int64) float32 { return float32(Mix(i)>>40) * 0.25 }

//gocccl:op
func GenFloat64(i int64) float64 { return float64(Mix(i)>>11) / (1 << 53) }

//gocccl:op
func GenItem(i int64) Item {
	m := Mix(i)
	return Item{Key: uint32(m), Weight: float32(m>>40) * 0.5, Tag: int16(i)}
}

//gocccl:op
func GenPair(i int64) Pair { return Pair{Lo: uint64(i), Hi: Mix(i)} }

// Affine is the state of a Generate: a*i + b, chosen per call.
type Affine struct{ A, B int64 }

// At is the state's value at index i.
//
//gocccl:op
func (f Affine) At(i int64) int64 { return f.A*i + f.B }

//gocccl:op
func Half(x int32) float64 { return float64(x) * 0.5 }

//gocccl:op
func OddInt32(x int32) bool { return x&1 != 0 }

//gocccl:op
func SquareInt32(x int32) int32 { return x * x }

//gocccl:op
func PositiveFloat64(x float64) bool { return x > 0 }

//gocccl:op
func SqrtishFloat64(x float64) float64 { return x*0.5 + 1 }

//gocccl:op
func NegativeInt8(x int8) bool { return x < 0 }

//gocccl:op
func WidenInt8(x int8) int64 { return int64(x) * 1000003 }

//gocccl:op
func HeavyItem(x Item) bool { return x.Weight > 100 }

//gocccl:op
func ItemKey(x Item) uint64 { return uint64(x.Key)<<16 | uint64(uint16(x.Tag)) }

//gocccl:op
func OddUint64(x uint64) bool { return x&1 != 0 }

//gocccl:op
func SquareUint64(x uint64) uint64 { return x * x }

// Leaves, bound per call.
var (
	OutI32 = it.Slice[int32]()
	OutF64 = it.Slice[float64]()
	Index  = it.Counting[int64]()
	Size   = it.Constant[int64]()
)

// Compositions.
var (
	RevI32  = it.ReverseOutput(OutI32)
	Halved  = it.TransformOutput(OutF64, Half)
	Mixed   = it.Transform(Index, Mix)
	Strided = it.Transform(Index, Stride)
)

// Stride is the offset of range i when every range is 1000 elements long.
//
//gocccl:op
func Stride(i int64) int64 { return i * 1000 }

var (
	FillInt8    = runtime.Fill[int8]()
	FillInt16   = runtime.Fill[int16]()
	FillInt32   = runtime.Fill[int32]()
	FillInt64   = runtime.Fill[int64]()
	FillUint8   = runtime.Fill[uint8]()
	FillUint16  = runtime.Fill[uint16]()
	FillUint32  = runtime.Fill[uint32]()
	FillUint64  = runtime.Fill[uint64]()
	FillFloat32 = runtime.Fill[float32]()
	FillFloat64 = runtime.Fill[float64]()
	FillItem    = runtime.Fill[Item]()
	FillPair    = runtime.Fill[Pair]()
	FillRev     = runtime.Fill[int32]().Into(RevI32)

	GenerateInt8    = runtime.Generate(GenInt8)
	GenerateInt16   = runtime.Generate(GenInt16)
	GenerateInt32   = runtime.Generate(GenInt32)
	GenerateInt64   = runtime.Generate(GenInt64)
	GenerateUint8   = runtime.Generate(GenUint8)
	GenerateUint32  = runtime.Generate(GenUint32)
	GenerateUint64  = runtime.Generate(GenUint64)
	GenerateFloat32 = runtime.Generate(GenFloat32)
	GenerateFloat64 = runtime.Generate(GenFloat64)
	GenerateItem    = runtime.Generate(GenItem)
	GeneratePair    = runtime.Generate(GenPair)
	GenerateHalved  = runtime.Generate(GenInt32).Into(Halved)
	GenerateAffine  = runtime.GenerateWith(Affine.At)

	TransformIfInt32   = runtime.TransformIf(SquareInt32, OddInt32)
	TransformIfRev     = runtime.TransformIf(SquareInt32, OddInt32).Into(RevI32)
	TransformIfFloat64 = runtime.TransformIf(SqrtishFloat64, PositiveFloat64)
	TransformIfWiden   = runtime.TransformIf(WidenInt8, NegativeInt8)
	TransformIfItem    = runtime.TransformIf(ItemKey, HeavyItem)
	TransformIfMixed   = runtime.TransformIf(SquareUint64, OddUint64).Over(Mixed)

	BatchedCopyUint8   = runtime.BatchedCopy[uint8]()
	BatchedCopyUint16  = runtime.BatchedCopy[uint16]()
	BatchedCopyInt32   = runtime.BatchedCopy[int32]()
	BatchedCopyFloat64 = runtime.BatchedCopy[float64]()
	BatchedCopyItem    = runtime.BatchedCopy[Item]()
	BatchedCopyPair    = runtime.BatchedCopy[Pair]()
	BatchedCopyStrided = runtime.BatchedCopy[uint8]().Over(Strided, nil, Size)
)
