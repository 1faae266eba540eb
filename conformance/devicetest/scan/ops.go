// Package scan holds the GPU conformance tests of the scans: inclusive and
// exclusive, with an init value, without one and with one read from device
// memory, and by key, for several element types and a user struct whose operator is
// associative but not commutative, compared on the GPU against the CPU
// backend and both against a sequential loop. Its tests skip what needs a
// GPU when there is none, and run the same comparisons with the CPU backend
// on both sides instead.
package scan

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	"math"

	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func AddInt8(a, b int8) int8 { return a + b }

//gocccl:op
func MaxInt8(a, b int8) int8 { return max(a, b) }

//gocccl:op
func AddUint8(a, b uint8) uint8 { return a + b }

//gocccl:op
func MaxUint8(a, b uint8) uint8 { return max(a, b) }

//gocccl:op
func AddInt16(a, b int16) int16 { return a + b }

//gocccl:op
func MaxInt16(a, b int16) int16 { return max(a, b) }

//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

//gocccl:op
func MaxInt32(a, b int32) int32 { return max(a, b) }

//gocccl:op
func AddUint32(a, b uint32) uint32 { return a + b }

//gocccl:op
func MaxUint32(a, b uint32) uint32 { return max(a, b) }

//gocccl:op
func AddInt64(a, b int64) int64 { return a + b }

//gocccl:op
func MaxInt64(a, b int64) int64 { return max(a, b) }

//gocccl:op
func AddUint64(a, b uint64) uint64 { return a + b }

//gocccl:op
func MaxUint64(a, b uint64) uint64 { return max(a, b) }

//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func MaxFloat32(a, b float32) float32 { return max(a, b) }

//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

//gocccl:op
func MaxFloat64(a, b float64) float64 { return max(a, b) }

// Affine is the map x ↦ A·x + B over wrapping uint32 arithmetic.
type Affine struct{ A, B uint32 }

// Then composes f, then g: associative, not commutative, so a scan that
// reorders its operands shows.
//
//gocccl:op
func Then(f, g Affine) Affine { return Affine{f.A * g.A, f.B*g.A + g.B} }

// Stats is a 24-byte accumulator: a count, a sum and the largest value.
type Stats struct {
	N   int64
	Sum float64
	Max int32
}

// Merge adds counts and sums and keeps the larger maximum.
//
//gocccl:op
func Merge(a, b Stats) Stats { return Stats{a.N + b.N, a.Sum + b.Sum, max(a.Max, b.Max)} }

//gocccl:op
func EqInt32(a, b int32) bool { return a == b }

//gocccl:op
func EqUint64(a, b uint64) bool { return a == b }

//gocccl:op
func EqUint32(a, b uint32) bool { return a == b }

// SquareFloat32 widens x and squares it: the transform of SumSquaresFloat32.
//
//gocccl:op
func SquareFloat32(x float32) float64 { return float64(x) * float64(x) }

// AddBitsFloat32 adds like AddFloat32 but reads its operands' bits (an
// operator that reads a NaN's bits gets no twin with the GPU's NaNs): it
// keeps a's payload even where the sum is a number.
//
//gocccl:op
func AddBitsFloat32(a, b float32) float32 {
	if math.Float32bits(a)&0x7FFFFFFF > 0x7F800000 {
		return a
	}
	return a + b
}

// The instances under test.
var (
	InclAddInt8    = runtime.InclusiveScan(AddInt8)
	ExclAddInt8    = runtime.ExclusiveScan(AddInt8)
	InclMaxInt8    = runtime.InclusiveScan(MaxInt8)
	ExclMaxInt8    = runtime.ExclusiveScan(MaxInt8)
	InclAddUint8   = runtime.InclusiveScan(AddUint8)
	ExclAddUint8   = runtime.ExclusiveScan(AddUint8)
	InclMaxUint8   = runtime.InclusiveScan(MaxUint8)
	ExclMaxUint8   = runtime.ExclusiveScan(MaxUint8)
	InclAddInt16   = runtime.InclusiveScan(AddInt16)
	ExclAddInt16   = runtime.ExclusiveScan(AddInt16)
	InclMaxInt16   = runtime.InclusiveScan(MaxInt16)
	ExclMaxInt16   = runtime.ExclusiveScan(MaxInt16)
	InclAddInt32   = runtime.InclusiveScan(AddInt32)
	ExclAddInt32   = runtime.ExclusiveScan(AddInt32)
	InclMaxInt32   = runtime.InclusiveScan(MaxInt32)
	ExclMaxInt32   = runtime.ExclusiveScan(MaxInt32)
	InclAddUint32  = runtime.InclusiveScan(AddUint32)
	ExclAddUint32  = runtime.ExclusiveScan(AddUint32)
	InclMaxUint32  = runtime.InclusiveScan(MaxUint32)
	ExclMaxUint32  = runtime.ExclusiveScan(MaxUint32)
	InclAddInt64   = runtime.InclusiveScan(AddInt64)
	ExclAddInt64   = runtime.ExclusiveScan(AddInt64)
	InclMaxInt64   = runtime.InclusiveScan(MaxInt64)
	ExclMaxInt64   = runtime.ExclusiveScan(MaxInt64)
	InclAddUint64  = runtime.InclusiveScan(AddUint64)
	ExclAddUint64  = runtime.ExclusiveScan(AddUint64)
	InclMaxUint64  = runtime.InclusiveScan(MaxUint64)
	ExclMaxUint64  = runtime.ExclusiveScan(MaxUint64)
	InclAddFloat32 = runtime.InclusiveScan(AddFloat32)
	ExclAddFloat32 = runtime.ExclusiveScan(AddFloat32)
	InclMaxFloat32 = runtime.InclusiveScan(MaxFloat32)
	ExclMaxFloat32 = runtime.ExclusiveScan(MaxFloat32)
	InclAddFloat64 = runtime.InclusiveScan(AddFloat64)
	ExclAddFloat64 = runtime.ExclusiveScan(AddFloat64)
	InclMaxFloat64 = runtime.InclusiveScan(MaxFloat64)
	ExclMaxFloat64 = runtime.ExclusiveScan(MaxFloat64)
	InclThen       = runtime.InclusiveScan(Then)
	ExclThen       = runtime.ExclusiveScan(Then)
	InclMerge      = runtime.InclusiveScan(Merge)
	ExclMerge      = runtime.ExclusiveScan(Merge)

	InclByKeyAddFloat32 = runtime.InclusiveScanByKey(EqInt32, AddFloat32)
	ExclByKeyAddFloat32 = runtime.ExclusiveScanByKey(EqInt32, AddFloat32)
	InclByKeyAddInt64   = runtime.InclusiveScanByKey(EqInt32, AddInt64)
	ExclByKeyAddInt64   = runtime.ExclusiveScanByKey(EqInt32, AddInt64)
	InclByKeyMaxUint8   = runtime.InclusiveScanByKey(EqInt32, MaxUint8)
	ExclByKeyMaxUint8   = runtime.ExclusiveScanByKey(EqInt32, MaxUint8)
	InclByKeyThen       = runtime.InclusiveScanByKey(EqInt32, Then)
	ExclByKeyThen       = runtime.ExclusiveScanByKey(EqInt32, Then)
	InclByKeyAddUint32  = runtime.InclusiveScanByKey(EqUint64, AddUint32)
	ExclByKeyAddUint32  = runtime.ExclusiveScanByKey(EqUint64, AddUint32)

	// Go's NaNs through the twins with the GPU's NaNs (nan_test.go).
	SumFloat32          = runtime.Reduce(AddFloat32)
	SumFloat64          = runtime.Reduce(AddFloat64)
	SumSquaresFloat32   = runtime.TransformReduce(SquareFloat32, AddFloat64)
	RunSumsFloat32      = runtime.ReduceByKey(EqInt32, AddFloat32)
	RunSumsFloat64      = runtime.ReduceByKey(EqInt32, AddFloat64)
	InclByKeyAddFloat64 = runtime.InclusiveScanByKey(EqInt32, AddFloat64)
	ExclByKeyAddFloat64 = runtime.ExclusiveScanByKey(EqInt32, AddFloat64)
	InclAddBitsFloat32  = runtime.InclusiveScan(AddBitsFloat32)

	// Benchmarked beside cub::DeviceScan::Inclusive/ExclusiveSumByKey.
	InclByKeyU32AddUint32  = runtime.InclusiveScanByKey(EqUint32, AddUint32)
	ExclByKeyU32AddUint32  = runtime.ExclusiveScanByKey(EqUint32, AddUint32)
	InclByKeyU32AddFloat32 = runtime.InclusiveScanByKey(EqUint32, AddFloat32)
	ExclByKeyU32AddFloat32 = runtime.ExclusiveScanByKey(EqUint32, AddFloat32)

	// The look-backs' epoch tile states (epochs_test.go): ReduceByKey
	// without a twin, and values too wide for them (CUB's tile states).
	RunSumsUint32  = runtime.ReduceByKey(EqInt32, AddUint32)
	RunMerges      = runtime.ReduceByKey(EqInt32, Merge)
	InclByKeyMerge = runtime.InclusiveScanByKey(EqInt32, Merge)
	ExclByKeyMerge = runtime.ExclusiveScanByKey(EqInt32, Merge)
)

// Affine3 is Affine with a step count: 12 bytes, a three-word epoch tile
// state.
type Affine3 struct{ A, B, Steps uint32 }

// Then3 composes f, then g, and adds their steps: associative, not
// commutative.
//
//gocccl:op
func Then3(f, g Affine3) Affine3 { return Affine3{f.A * g.A, f.B*g.A + g.B, f.Steps + g.Steps} }

// Mat2 is a 2×2 matrix over wrapping uint32 arithmetic: 16 bytes, the
// widest epoch tile state (four words).
type Mat2 struct{ A, B, C, D uint32 }

// MatMul is the matrix product a·b: associative, not commutative.
//
//gocccl:op
func MatMul(a, b Mat2) Mat2 {
	return Mat2{a.A*b.A + a.B*b.C, a.A*b.B + a.B*b.D, a.C*b.A + a.D*b.C, a.C*b.B + a.D*b.D}
}

// Scans over the epoch tile states' widest forms (epoch_test.go).
var (
	InclThen3  = runtime.InclusiveScan(Then3)
	ExclThen3  = runtime.ExclusiveScan(Then3)
	InclMatMul = runtime.InclusiveScan(MatMul)
	ExclMatMul = runtime.ExclusiveScan(MatMul)
)
