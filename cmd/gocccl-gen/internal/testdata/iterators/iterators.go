// Package iterators declares instances over iterator compositions, good
// and bad.
package iterators

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Pair is zipped.
type Pair struct {
	A int32
	B float32
}

// Wrong has one field too many.
type Wrong struct {
	A int32
	B float32
	C int64
}

//gocccl:op
func Add(a, b int32) int32 { return a + b }

//gocccl:op
func AddPair(a, b Pair) Pair { return Pair{a.A + b.A, a.B + b.B} }

//gocccl:op
func Square(x int32) int32 { return x * x }

//gocccl:op
func Odd(x int32) bool { return x&1 != 0 }

//gocccl:op
func Less(a, b int32) bool { return a < b }

func notOp(x int32) int32 { return x }

var (
	Count = it.Counting[int32]()
	Xs    = it.Slice[int32]()
	Fs    = it.Slice[float32]()
	Idx   = it.Slice[int64]()

	Squares = it.Transform(Count, Square)
	Nested  = it.Transform(it.Transform(Squares, Square), Square)
)

var (
	Good1 = runtime.Reduce(Add).Over(Squares)
	Good2 = runtime.Reduce(Add).Over(it.Permutation(Xs, Idx)).Into(it.TransformOutput(Xs, Square))
	Good3 = runtime.Reduce(AddPair).Over(it.Zip[Pair](Xs, Fs))
	Good4 = runtime.InclusiveScan(Add).Over(Nested)
	Good5 = runtime.Reduce(Add).Over(it.CacheModified(Xs, it.L2Only))

	Bad1 = runtime.Reduce(Add).Over(it.Transform(Count, notOp))            // want `notOp is not a //gocccl:op function: mark it with //gocccl:op`
	Bad2 = runtime.Reduce(Add).Over(it.Reverse(Count))                     // want `iterator.Reverse of Counting: it has no length to reverse`
	Bad3 = runtime.Reduce(AddPair).Over(it.Zip[Pair](Xs))                  // want `iterator.Zip\[Pair\]: zip two or more iterators`
	Bad4 = runtime.Reduce(AddPair).Over(it.Zip[Pair](Xs, Xs))              // want `field B is float32 but iterator 2 reads int32`
	Bad5 = runtime.Reduce(AddPair).Over(it.Zip[Pair](Xs, Fs, Count))       // want `Pair has 2 fields for 3 iterators`
	Bad6 = runtime.Reduce(Add).Into(it.ReverseOutput(it.Discard[int32]())) // want `iterator.ReverseOutput of Discard: it has no length to reverse`
	Bad7 = runtime.Reduce(Add).Over(local)

	mode = it.Streaming
	Bad8 = runtime.Reduce(Add).Over(it.CacheModified(Xs, mode)) // want `the cache mode must be a constant`

	handle = runtime.Reduce(Add)
	Bad9   = handle.Over(Squares) // want `Over must be called on the runtime constructor's result where the instance is declared`
	_      = Wrong{}
)

// Select, Partition, Unique and the merge sorts' copy form read through
// compositions as Reduce does, and the same mistakes are reported.
var (
	GoodSel   = runtime.Select(Odd).Over(Squares)
	GoodPart  = runtime.Partition(Odd).Over(it.Reverse(Xs))
	GoodUniq  = runtime.Unique(Same).Over(it.Permutation(Xs, it.Shuffle()))
	GoodSort  = runtime.MergeSortKeys(Less).Over(it.Permutation(Xs, Idx))
	GoodPairs = runtime.MergeSortPairs[int32, float32](Less).Over(Squares, Fs)

	BadSel1   = runtime.Select(Odd).Over(it.Reverse(Count))                              // want `iterator.Reverse of Counting: it has no length to reverse`
	BadPart1  = runtime.Partition(Odd).Over(it.CacheModified(Xs, mode))                  // want `the cache mode must be a constant`
	BadUniq1  = runtime.Unique(Same).Over(it.Transform(Count, notOp))                    // want `notOp is not a //gocccl:op function: mark it with //gocccl:op`
	BadSort1  = runtime.MergeSortKeys(Less).Over(it.Reverse(it.Constant[int32]()))       // want `iterator.Reverse of Constant: it has no length to reverse`
	BadPairs1 = runtime.MergeSortPairs[int32, Pair](Less).Over(Xs, it.Zip[Pair](Xs, Xs)) // want `field B is float32 but iterator 2 reads int32`

	selHandle = runtime.Select(Odd)
	BadSel2   = selHandle.Over(Squares) // want `Over must be called on the runtime constructor's result where the instance is declared`
)

//gocccl:op
func Same(a, b int32) bool { return a == b }

//gocccl:op
func Times(i int64) int64 { return 8 * i }

// SegmentedReduce reads its values and both offsets through compositions,
// the histograms their samples, the searches their data and values; the
// same mistakes are reported at the declaration.
var (
	Segment   = it.Counting[int64]()
	Starts    = it.Transform(Segment, Times)
	GoodSeg   = runtime.SegmentedReduce(Add).Over(Xs, Starts, Starts)
	GoodSeg2  = runtime.SegmentedReduce(Add).Over(Squares, Idx, it.Constant[int64]())
	GoodEven  = runtime.HistogramEven[int32]().Over(Squares)
	GoodRange = runtime.HistogramRange[float32]().Over(it.Reverse(Fs))
	GoodLower = runtime.LowerBound(Less).Over(Squares, it.Permutation(Xs, Idx))
	GoodUpper = runtime.UpperBound(Less).Over(Xs, it.Constant[int32]())

	BadSeg1   = runtime.SegmentedReduce(Add).Over(Xs, it.Reverse(Segment), Idx)               // want `iterator.Reverse of Counting: it has no length to reverse`
	BadSeg2   = runtime.SegmentedReduce(Add).Over(Xs, Starts, it.Transform(Segment, notOp64)) // want `notOp64 is not a //gocccl:op function: mark it with //gocccl:op`
	BadEven1  = runtime.HistogramEven[int32]().Over(it.Transform(Count, notOp))               // want `notOp is not a //gocccl:op function: mark it with //gocccl:op`
	BadRange1 = runtime.HistogramRange[int32]().Over(it.Reverse(it.Constant[int32]()))        // want `iterator.Reverse of Constant: it has no length to reverse`
	BadUpper1 = runtime.UpperBound(Less).Over(Xs, it.CacheModified(Xs, mode))                 // want `the cache mode must be a constant`

	segHandle = runtime.SegmentedReduce(Add)
	BadSeg3   = segHandle.Over(Xs, Starts, Starts) // want `Over must be called on the runtime constructor's result where the instance is declared`
)

func notOp64(x int64) int64 { return x }

var local = func() *it.In[int32] { return Squares }() // want `gocccl-gen cannot read \(func\(\) \*it.In\[int32\] literal\) as an iterator composition`

// The Select family writes through output compositions declared with Into;
// its counts stay Slices, so Into takes one composition per other output.
// An input iterator as an output (Constant, Counting, Transform) does not
// type-check: it has no GoccclOutputIterator method.
var (
	GoodSelInto   = runtime.Select(Odd).Into(it.TransformOutput(Xs, Square))
	GoodPartInto  = runtime.Partition(Odd).Over(Squares).Into(it.ReverseOutput(Xs))
	GoodThreeInto = runtime.ThreeWayPartition(Odd, Odd).Into(Xs, it.Discard[int32](), it.PermutationOutput(Xs, Idx))
	GoodUniqInto  = runtime.Unique(AddPairEq).Into(it.ZipOutput[Pair](Xs, Fs))
	GoodCount     = runtime.UniqueByKey[int32, float32](Same).Into(it.Discard[int32](), it.Discard[float32]())

	BadSelInto1   = runtime.Select(Odd).Into(it.ReverseOutput(it.Discard[int32]()))                                              // want `iterator.ReverseOutput of Discard: it has no length to reverse`
	BadPartInto1  = runtime.Partition(Odd).Into(it.TransformOutput(Xs, notOp))                                                   // want `notOp is not a //gocccl:op function: mark it with //gocccl:op`
	BadThreeInto1 = runtime.ThreeWayPartition(Odd, Odd).Into(Xs, Xs, it.ReverseOutput(it.Discard[int32]()))                      // want `iterator.ReverseOutput of Discard: it has no length to reverse`
	BadUniqInto1  = runtime.Unique(AddPairEq).Into(it.ZipOutput[Pair](Xs, Xs))                                                   // want `field B is float32 but iterator 2 reads int32`
	BadUniqInto2  = runtime.UniqueByKey[int32, Pair](Same).Into(Xs, it.ZipOutput[Pair](Xs))                                      // want `iterator.ZipOutput\[Pair\]: zip two or more iterators`
	BadUniqInto3  = runtime.UniqueByKey[int32, float32](Same).Into(it.Discard[int32](), it.ReverseOutput(it.Discard[float32]())) // want `iterator.ReverseOutput of Discard: it has no length to reverse`

	uniqHandle   = runtime.Unique(Same)
	BadUniqInto4 = uniqHandle.Into(Xs) // want `Into must be called on the runtime constructor's result where the instance is declared`
)

//gocccl:op
func AddPairEq(a, b Pair) bool { return a.A == b.A }
