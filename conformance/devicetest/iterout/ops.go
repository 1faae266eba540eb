// Package iterout holds the GPU conformance tests of output iterators on
// the Select family: every output kind of package iterator (Discard,
// TransformOutput, ReverseOutput, PermutationOutput, ZipOutput) through
// Select, Partition, ThreeWayPartition, Unique and UniqueByKey, on random
// inputs into poisoned outputs, compared on the GPU against the CPU backend
// and both against a sequential loop. Without a GPU the CPU backend is
// compared with the loops and the GPU tests skip.
package iterout

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Rec is the user struct: what ZipOutput writes to two Slices.
type Rec struct {
	K int32
	V float64
}

//gocccl:op
func Odd(x int32) bool { return x&1 != 0 }

//gocccl:op
func Positive(x float64) bool { return x > 0 }

//gocccl:op
func RecOdd(r Rec) bool { return r.K&1 != 0 }

//gocccl:op
func RecPositive(r Rec) bool { return r.V > 0 }

//gocccl:op
func Low(x int32) bool { return x%3 == 0 }

//gocccl:op
func Mid(x int32) bool { return x%3 == 1 || x%3 == -1 }

//gocccl:op
func EqI32(a, b int32) bool { return a == b }

//gocccl:op
func EqF64(a, b float64) bool { return a == b }

//gocccl:op
func EqRec(a, b Rec) bool { return a.K == b.K }

//gocccl:op
func Half(x int32) float64 { return float64(x) * 0.5 }

// NotDeclared is an operator no declared composition uses.
//
//gocccl:op
func NotDeclared(x int32) float64 { return float64(x) + 1 }

// Leaves, bound per call.
var (
	OutI32 = it.Slice[int32]()
	OutF64 = it.Slice[float64]()
	Idx    = it.Slice[int64]()
	Pos    = it.Counting[int64]()
)

// Output compositions.
var (
	DropI32   = it.Discard[int32]()
	DropF64   = it.Discard[float64]()
	DropRec   = it.Discard[Rec]()
	Halved    = it.TransformOutput(OutF64, Half)
	RevI32    = it.ReverseOutput(OutI32)
	RevF64    = it.ReverseOutput(OutF64)
	Scattered = it.PermutationOutput(OutI32, Idx)
	Unzipped  = it.ZipOutput[Rec](OutI32, OutF64)
)

// Select, Partition and Unique: one instance per output kind.
var (
	SelDrop    = runtime.Select(Odd).Into(DropI32)
	SelHalf    = runtime.Select(Odd).Into(Halved)
	SelRev     = runtime.Select(Positive).Into(RevF64)
	SelScatter = runtime.Select(Odd).Into(Scattered)
	SelZip     = runtime.Select(RecOdd).Into(Unzipped)
	SelCounted = runtime.Select(Odd).Over(it.Reverse(it.Slice[int32]())).Into(Halved) // Over and Into together

	PartDrop    = runtime.Partition(Odd).Into(DropI32)
	PartHalf    = runtime.Partition(Odd).Into(Halved)
	PartRev     = runtime.Partition(Positive).Into(RevF64)
	PartScatter = runtime.Partition(Odd).Into(Scattered)
	PartZip     = runtime.Partition(RecOdd).Into(Unzipped)

	UniqDrop    = runtime.Unique(EqI32).Into(DropI32)
	UniqHalf    = runtime.Unique(EqI32).Into(Halved)
	UniqRev     = runtime.Unique(EqF64).Into(RevF64)
	UniqScatter = runtime.Unique(EqI32).Into(Scattered)
	UniqZip     = runtime.Unique(EqRec).Into(Unzipped)
)

// ThreeWayPartition and UniqueByKey: every output kind among their outputs.
var (
	ThreeFirst = runtime.ThreeWayPartition(Low, Mid).Into(it.Slice[int32](), DropI32, DropI32)
	ThreeMixed = runtime.ThreeWayPartition(Low, Mid).Into(Halved, RevI32, Scattered)
	ThreeZip   = runtime.ThreeWayPartition(RecOdd, RecPositive).Into(Unzipped, it.Slice[Rec](), DropRec)

	CountRuns = runtime.UniqueByKey[int32, float64](EqI32).Into(DropI32, DropF64) // only the number of runs
	UbkMixed  = runtime.UniqueByKey[int32, float64](EqI32).Into(Halved, RevF64)
	UbkZip    = runtime.UniqueByKey[int32, Rec](EqI32).Into(Scattered, Unzipped)
	UbkStarts = runtime.UniqueByKey[int32, int64](EqI32).Over(it.Slice[int32](), Pos).Into(it.Slice[int32](), it.Discard[int64]())
)
