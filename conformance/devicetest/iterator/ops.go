// Package iterator holds the GPU conformance tests of the iterators of
// package iterator: every input and output kind, nested, through Reduce,
// UnaryTransform, BinaryTransform, InclusiveScan and ExclusiveScan, and
// every input kind through Select, Partition, ThreeWayPartition, Unique,
// UniqueByKey and the copy form of MergeSortKeys and MergeSortPairs, on
// random inputs, compared on the GPU against the CPU backend and both
// against a sequential loop. Without a GPU both sides run on the CPU.
package iterator

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Pair and Triple are what Zip reads and ZipOutput writes.
type Pair struct {
	A int32
	B float64
}

type Triple struct {
	A int32
	B float32
	C int64
}

//gocccl:op
func AddI32(a, b int32) int32 { return a + b }

//gocccl:op
func AddI64(a, b int64) int64 { return a + b }

//gocccl:op
func AddF64(a, b float64) float64 { return a + b }

//gocccl:op
func MaxF32(a, b float32) float32 { return max(a, b) }

//gocccl:op
func SquareI32(x int32) int32 { return x * x }

//gocccl:op
func Half(x float32) float32 { return x * 0.5 }

//gocccl:op
func Twice(x int32) int32 { return 2 * x }

//gocccl:op
func Widen(x int32) int64 { return int64(x) << 3 }

//gocccl:op
func PairSum(p Pair) float64 { return float64(p.A) + p.B }

//gocccl:op
func TripleSum(t Triple) int64 { return int64(t.A) + int64(t.B) + t.C }

//gocccl:op
func Split(x int32) Pair { return Pair{x, float64(x) / 4} }

//gocccl:op
func MulI32(a, b int32) int32 { return a * b }

//gocccl:op
func Odd(x int32) bool { return x&1 != 0 }

//gocccl:op
func OddI64(x int64) bool { return x&1 != 0 }

//gocccl:op
func Positive(x float32) bool { return x > 0 }

//gocccl:op
func PairKeep(p Pair) bool { return p.A&1 != 0 && p.B >= 0 }

//gocccl:op
func Div8(x int32) int32 { return x / 8 }

//gocccl:op
func Low2(x int32) int32 { return x & 3 }

//gocccl:op
func Mod3(x int32) bool { return x%3 == 0 }

//gocccl:op
func Mod3I64(x int64) bool { return x%3 == 0 }

//gocccl:op
func PairNeg(p Pair) bool { return p.B < 0 }

//gocccl:op
func EqI32(a, b int32) bool { return a == b }

//gocccl:op
func LessI32(a, b int32) bool { return a < b }

//gocccl:op
func LessI64(a, b int64) bool { return a < b }

//gocccl:op
func GreaterF32(a, b float32) bool { return a > b }

//gocccl:op
func LessLow4(a, b int32) bool { return a&15 < b&15 }

//gocccl:op
func LessPairB(a, b Pair) bool { return a.B < b.B }

// Leaves, bound per call.
var (
	CountI32 = it.Counting[int32]()
	CountF32 = it.Counting[float32]()
	ConstI32 = it.Constant[int32]()
	XsI32    = it.Slice[int32]()
	XsF64    = it.Slice[float64]()
	YsI64    = it.Slice[int64]()
	Idx      = it.Slice[int64]()
	Shuf     = it.Shuffle()
	OutI32   = it.Slice[int32]()
	OutF64   = it.Slice[float64]()
	Out2I32  = it.Slice[int32]()
	CountI64 = it.Counting[int64]()
)

// Input compositions.
var (
	Squares    = it.Transform(CountI32, SquareI32)
	NestedHalf = it.Transform(it.Transform(it.Transform(CountF32, Half), Half), Half)
	Gather     = it.Permutation(XsI32, Idx)
	Shuffled   = it.Permutation(XsI32, Shuf)
	Reversed   = it.Reverse(XsI32)
	RevSquares = it.Transform(it.Reverse(Gather), SquareI32)
	Zipped     = it.Zip[Pair](CountI32, XsF64)
	Zip3       = it.Zip[Triple](XsI32, CountF32, it.Permutation(YsI64, Shuf))
	Streamed   = it.CacheModified(XsI32, it.Streaming)
	L2         = it.CacheModified(XsI32, it.L2Only)
	Vol        = it.CacheModified(XsI32, it.Volatile)
	Widened    = it.Transform(Gather, Widen)
	ZipXs      = it.Zip[Pair](XsI32, XsF64)
	Runs       = it.Transform(CountI32, Div8)
)

// Output compositions.
var (
	Dropped   = it.Discard[int32]()
	Doubled   = it.TransformOutput(OutI32, Twice)
	RevOut    = it.ReverseOutput(OutI32)
	Scattered = it.PermutationOutput(OutI32, Idx)
	Unzipped  = it.ZipOutput[Pair](OutI32, OutF64)
)

// Instances.
var (
	SumSquares  = runtime.Reduce(AddI32).Over(Squares)
	MaxHalves   = runtime.Reduce(MaxF32).Over(NestedHalf)
	SumGather   = runtime.Reduce(AddI32).Over(Gather)
	SumShuffled = runtime.Reduce(AddI32).Over(Shuffled)
	SumConst    = runtime.Reduce(AddI32).Over(ConstI32)
	SumZip      = runtime.Reduce(AddF64).Over(it.Transform(Zipped, PairSum))
	SumZip3     = runtime.Reduce(AddI64).Over(it.Transform(Zip3, TripleSum))
	SumStreamed = runtime.Reduce(AddI32).Over(Streamed)
	SumL2       = runtime.Reduce(AddI32).Over(L2)
	SumVol      = runtime.Reduce(AddI32).Over(Vol)
	SumDoubled  = runtime.Reduce(AddI32).Over(Reversed).Into(Doubled)

	CopyRev       = runtime.UnaryTransform(SquareI32).Over(RevSquares)
	CopyShuffled  = runtime.UnaryTransform(Twice).Over(Shuffled).Into(RevOut)
	Scatter       = runtime.UnaryTransform(Twice).Into(Scattered)
	SplitOut      = runtime.UnaryTransform(Split).Into(Unzipped)
	DropAll       = runtime.UnaryTransform(Twice).Over(CountI32).Into(Dropped)
	MulCountConst = runtime.BinaryTransform(MulI32).Over(CountI32, ConstI32)
	MulSliceRev   = runtime.BinaryTransform(MulI32).Over(it.Slice[int32](), Reversed)

	ScanSquares   = runtime.InclusiveScan(AddI32).Over(Squares)
	ScanGatherOut = runtime.InclusiveScan(AddI32).Over(Gather).Into(Doubled)
	ScanWidened   = runtime.ExclusiveScan(AddI64).Over(Widened)
)

// Select-family instances: every input kind.
var (
	SelSquares  = runtime.Select(Odd).Over(Squares)         // Transform(Counting)
	SelHalves   = runtime.Select(Positive).Over(NestedHalf) // Transform³(Counting[float32])
	SelConst    = runtime.Select(Odd).Over(ConstI32)        // Constant
	SelZip      = runtime.Select(PairKeep).Over(Zipped)     // Zip(Counting, Slice)
	SelGather   = runtime.Select(Odd).Over(Gather)          // Permutation
	SelShuffled = runtime.Select(Odd).Over(Shuffled)        // Permutation(Slice, Shuffle)
	SelShuffle  = runtime.Select(OddI64).Over(Shuf)         // Shuffle
	SelReversed = runtime.Select(Odd).Over(Reversed)        // Reverse
	SelStreamed = runtime.Select(Odd).Over(Streamed)        // CacheModified
	SelL2       = runtime.Select(Odd).Over(L2)
	SelVol      = runtime.Select(Odd).Over(Vol)

	PartRevSquares = runtime.Partition(Odd).Over(RevSquares) // Transform(Reverse(Permutation))
	PartZip3       = runtime.Partition(OddI64).Over(it.Transform(Zip3, TripleSum))
	UniqRuns       = runtime.Unique(EqI32).Over(Runs)   // Transform(Counting)
	UniqGather     = runtime.Unique(EqI32).Over(Gather) // Permutation
)

// ThreeWayPartition instances: every input kind.
var (
	Part3Squares  = runtime.ThreeWayPartition(Odd, Mod3).Over(Squares)        // Transform(Counting)
	Part3Count    = runtime.ThreeWayPartition(OddI64, Mod3I64).Over(CountI64) // Counting
	Part3Const    = runtime.ThreeWayPartition(Odd, Mod3).Over(ConstI32)       // Constant
	Part3Zip      = runtime.ThreeWayPartition(PairKeep, PairNeg).Over(Zipped) // Zip(Counting, Slice)
	Part3Gather   = runtime.ThreeWayPartition(Odd, Mod3).Over(Gather)         // Permutation
	Part3Shuffled = runtime.ThreeWayPartition(Odd, Mod3).Over(Shuffled)       // Permutation(Slice, Shuffle)
	Part3Reversed = runtime.ThreeWayPartition(Odd, Mod3).Over(Reversed)       // Reverse
	Part3Zip3     = runtime.ThreeWayPartition(OddI64, Mod3I64).Over(it.Transform(Zip3, TripleSum))
)

// UniqueByKey instances: keys and values read through every input kind.
var (
	UbkRuns   = runtime.UniqueByKey[int32, int64](EqI32).Over(Runs, CountI64)                      // Transform(Counting) × Counting
	UbkConst  = runtime.UniqueByKey[int32, int32](EqI32).Over(ConstI32, Reversed)                  // Constant × Reverse
	UbkLow2   = runtime.UniqueByKey[int32, Pair](EqI32).Over(it.Transform(Reversed, Low2), Zipped) // Transform(Reverse) × Zip
	UbkGather = runtime.UniqueByKey[int32, int64](EqI32).Over(Gather, Shuf)                        // Permutation × Shuffle
	UbkPlain  = runtime.UniqueByKey[int32, int32](EqI32).Over(it.Slice[int32](), Gather)           // Slice × Permutation
)

// Merge sorts of keys read through every input kind (RunCopy).
var (
	SortSquares  = runtime.MergeSortKeys(LessI32).Over(Squares)       // Transform(Counting)
	SortHalves   = runtime.MergeSortKeys(GreaterF32).Over(NestedHalf) // Transform³(Counting[float32])
	SortConst    = runtime.MergeSortKeys(LessI32).Over(ConstI32)      // Constant, as long as the output
	SortZip      = runtime.MergeSortKeys(LessPairB).Over(ZipXs)       // Zip of two Slices, stable
	SortGather   = runtime.MergeSortKeys(LessLow4).Over(Gather)       // Permutation, stable
	SortShuffled = runtime.MergeSortKeys(LessI32).Over(Shuffled)      // Permutation(Slice, Shuffle)
	SortShuffle  = runtime.MergeSortKeys(LessI64).Over(Shuf)          // Shuffle
	SortReversed = runtime.MergeSortKeys(LessLow4).Over(Reversed)     // Reverse, stable
	SortStreamed = runtime.MergeSortKeys(LessI32).Over(Streamed)      // CacheModified

	ArgSort    = runtime.MergeSortPairs[int32, int64](LessLow4).Over(it.Slice[int32](), CountI64) // the stable order of a Slice
	SortMixed  = runtime.MergeSortPairs[int32, Pair](LessLow4).Over(RevSquares, Zipped)
	SortByShuf = runtime.MergeSortPairs[int64, int32](LessI64).Over(Shuf, Vol)
)
