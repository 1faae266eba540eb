package sweepall

import (
	dt "github.com/gocccl/gocccl/conformance/devicetest"
	"github.com/gocccl/gocccl/conformance/devicetest/histogram"
	"github.com/gocccl/gocccl/conformance/devicetest/mergesort"
	"github.com/gocccl/gocccl/conformance/devicetest/radixsort"
	"github.com/gocccl/gocccl/conformance/devicetest/scan"
	"github.com/gocccl/gocccl/conformance/devicetest/segmented"
	"github.com/gocccl/gocccl/conformance/devicetest/segsort"
	sel "github.com/gocccl/gocccl/conformance/devicetest/select"
)

// The generated packages whose instances the sweep runs.
const (
	pRoot = rootPkg
	pScan = "github.com/gocccl/gocccl/conformance/devicetest/scan"
	pSel  = "github.com/gocccl/gocccl/conformance/devicetest/select"
	pRad  = "github.com/gocccl/gocccl/conformance/devicetest/radixsort"
	pSeg  = "github.com/gocccl/gocccl/conformance/devicetest/segsort"
	pMS   = "github.com/gocccl/gocccl/conformance/devicetest/mergesort"
	pHist = "github.com/gocccl/gocccl/conformance/devicetest/histogram"
	pSegm = "github.com/gocccl/gocccl/conformance/devicetest/segmented"
)

// exactN is an exact comparison whatever the input's length.
func exactN[T comparable](int) func(a, b T) bool { return exact[T] }

// nearF64 compares float64 sums of up to n terms.
func nearF64(n int) func(a, b float64) bool {
	return func(a, b float64) bool { return near(a, b, float64(n)) }
}

// nearF32 compares float32 sums of a few terms (runs of at most 64).
func nearF32(a, b float32) bool { return near32(a, b, 64) }

// nearStats compares scan.Stats: counts and maxima exactly, sums of up to n
// terms nearly.
func nearStats(n int) func(a, b scan.Stats) bool {
	return func(a, b scan.Stats) bool { return a.N == b.N && a.Max == b.Max && near(a.Sum, b.Sum, float64(n)) }
}

// nearStat compares segmented.Stat: minima and counts exactly, sums nearly.
func nearStat(n int) func(a, b segmented.Stat) bool {
	return func(a, b segmented.Stat) bool {
		return a.Min == b.Min && a.Count == b.Count && near(a.Sum, b.Sum, float64(n))
	}
}

// The algorithm × type table: every algorithm of the README's table over
// every element type (or pair of types) for which the packages above
// generate a plain instance (buffers in and out; the iterator and stateful
// instances of the iterator, iterout, iterseg, state and stateiter packages
// are not part of it). Integer reductions and scans use Add, whose wrapping
// result the host computes exactly; floating-point ones Max, whose result
// does not depend on the order of the operations.
var entries = []entry{
	// Reduce: the root package, every numeric type.
	reduceEntry(kInt8, pRoot, "Add", dt.SumInt8, dt.AddInt8),
	reduceEntry(kInt16, pRoot, "Add", dt.SumInt16, dt.AddInt16),
	reduceEntry(kInt32, pRoot, "Add", dt.SumInt32, dt.AddInt32),
	reduceEntry(kInt64, pRoot, "Add", dt.SumInt64, dt.AddInt64),
	reduceEntry(kInt, pRoot, "Add", dt.SumInt, dt.AddInt),
	reduceEntry(kUint8, pRoot, "Add", dt.SumUint8, dt.AddUint8),
	reduceEntry(kUint16, pRoot, "Add", dt.SumUint16, dt.AddUint16),
	reduceEntry(kUint32, pRoot, "Add", dt.SumUint32, dt.AddUint32),
	reduceEntry(kUint64, pRoot, "Add", dt.SumUint64, dt.AddUint64),
	reduceEntry(kUint, pRoot, "Add", dt.SumUint, dt.AddUint),
	reduceEntry(kUintptr, pRoot, "Add", dt.SumUintptr, dt.AddUintptr),
	reduceEntry(kFloat32, pRoot, "Max", dt.MaxOfFloat32, dt.MaxFloat32),
	reduceEntry(kFloat64, pRoot, "Max", dt.MaxOfFloat64, dt.MaxFloat64),

	// TransformReduce: the segmented package's five.
	transformReduceEntry(kFloat32, kFloat64, pSegm, "SquareF64, Add", segmented.SumSquares, segmented.SquareF64, segmented.AddFloat64, nearF64),
	transformReduceEntry(kFloat32, kStat, pSegm, "ToStat, AddStat", segmented.Stats, segmented.ToStat, segmented.AddStat, nearStat),
	transformReduceEntry(kUint32, kUint32, pSegm, "Low8, Add", segmented.SumLow8, segmented.Low8, segmented.AddUint32, exactN[uint32]),
	transformReduceEntry(kUint32, kUint32, pSegm, "Low8, Max", segmented.MaxLow8, segmented.Low8, segmented.MaxUint32, exactN[uint32]),
	transformReduceEntry(kInt32, kInt64, pSegm, "WidenInt, Add", segmented.SumWidened, segmented.WidenInt, segmented.AddInt64, exactN[int64]),

	// UnaryTransform and BinaryTransform: the root package, every numeric
	// type, and its mixed-type transforms.
	unaryEntry(kInt8, kInt8, pRoot, "Affine", dt.AffineTInt8, dt.AffineInt8),
	unaryEntry(kInt16, kInt16, pRoot, "Affine", dt.AffineTInt16, dt.AffineInt16),
	unaryEntry(kInt32, kInt32, pRoot, "Affine", dt.AffineTInt32, dt.AffineInt32),
	unaryEntry(kInt64, kInt64, pRoot, "Affine", dt.AffineTInt64, dt.AffineInt64),
	unaryEntry(kInt, kInt, pRoot, "Affine", dt.AffineTInt, dt.AffineInt),
	unaryEntry(kUint8, kUint8, pRoot, "Affine", dt.AffineTUint8, dt.AffineUint8),
	unaryEntry(kUint16, kUint16, pRoot, "Affine", dt.AffineTUint16, dt.AffineUint16),
	unaryEntry(kUint32, kUint32, pRoot, "Affine", dt.AffineTUint32, dt.AffineUint32),
	unaryEntry(kUint64, kUint64, pRoot, "Affine", dt.AffineTUint64, dt.AffineUint64),
	unaryEntry(kUint, kUint, pRoot, "Affine", dt.AffineTUint, dt.AffineUint),
	unaryEntry(kUintptr, kUintptr, pRoot, "Affine", dt.AffineTUintptr, dt.AffineUintptr),
	unaryEntry(kFloat32, kFloat32, pRoot, "Affine", dt.AffineTFloat32, dt.AffineFloat32),
	unaryEntry(kFloat64, kFloat64, pRoot, "Affine", dt.AffineTFloat64, dt.AffineFloat64),
	unaryEntry(kInt32, kFloat64, pRoot, "Widen", dt.WidenT, dt.Widen),
	unaryEntry(kInt64, kInt64, pRoot, "Shifty", dt.ShiftyT, dt.Shifty),
	binaryEntry(kInt8, kInt8, kInt8, pRoot, "Mix", dt.MixTInt8, dt.MixInt8),
	binaryEntry(kInt16, kInt16, kInt16, pRoot, "Mix", dt.MixTInt16, dt.MixInt16),
	binaryEntry(kInt32, kInt32, kInt32, pRoot, "Mix", dt.MixTInt32, dt.MixInt32),
	binaryEntry(kInt64, kInt64, kInt64, pRoot, "Mix", dt.MixTInt64, dt.MixInt64),
	binaryEntry(kInt, kInt, kInt, pRoot, "Mix", dt.MixTInt, dt.MixInt),
	binaryEntry(kUint8, kUint8, kUint8, pRoot, "Mix", dt.MixTUint8, dt.MixUint8),
	binaryEntry(kUint16, kUint16, kUint16, pRoot, "Mix", dt.MixTUint16, dt.MixUint16),
	binaryEntry(kUint32, kUint32, kUint32, pRoot, "Mix", dt.MixTUint32, dt.MixUint32),
	binaryEntry(kUint64, kUint64, kUint64, pRoot, "Mix", dt.MixTUint64, dt.MixUint64),
	binaryEntry(kUint, kUint, kUint, pRoot, "Mix", dt.MixTUint, dt.MixUint),
	binaryEntry(kUintptr, kUintptr, kUintptr, pRoot, "Mix", dt.MixTUintptr, dt.MixUintptr),
	binaryEntry(kFloat32, kFloat32, kFloat32, pRoot, "Mix", dt.MixTFloat32, dt.MixFloat32),
	binaryEntry(kFloat64, kFloat64, kFloat64, pRoot, "Mix", dt.MixTFloat64, dt.MixFloat64),
	binaryEntry(kUint8, kFloat32, kFloat32, pRoot, "Blend", dt.BlendT, dt.Blend),

	// ForEach: the segmented package's three.
	forEachEntry(kUint32, pSegm, "Step", segmented.StepAll, segmented.StepUint32),
	forEachEntry(kFloat64, pSegm, "Halve", segmented.HalveAll, segmented.HalveFloat64),
	forEachEntry(kStat, pSegm, "BumpStat", segmented.BumpStats, segmented.BumpStat),

	// InclusiveScan and ExclusiveScan: the scan package's types.
	scanEntry(kInt8, pScan, "Add", scan.InclAddInt8, nil, scan.AddInt8, exactN[int8]),
	scanEntry(kInt8, pScan, "Add", nil, scan.ExclAddInt8, scan.AddInt8, exactN[int8]),
	scanEntry(kUint8, pScan, "Add", scan.InclAddUint8, nil, scan.AddUint8, exactN[uint8]),
	scanEntry(kUint8, pScan, "Add", nil, scan.ExclAddUint8, scan.AddUint8, exactN[uint8]),
	scanEntry(kInt16, pScan, "Add", scan.InclAddInt16, nil, scan.AddInt16, exactN[int16]),
	scanEntry(kInt16, pScan, "Add", nil, scan.ExclAddInt16, scan.AddInt16, exactN[int16]),
	scanEntry(kInt32, pScan, "Add", scan.InclAddInt32, nil, scan.AddInt32, exactN[int32]),
	scanEntry(kInt32, pScan, "Add", nil, scan.ExclAddInt32, scan.AddInt32, exactN[int32]),
	scanEntry(kUint32, pScan, "Add", scan.InclAddUint32, nil, scan.AddUint32, exactN[uint32]),
	scanEntry(kUint32, pScan, "Add", nil, scan.ExclAddUint32, scan.AddUint32, exactN[uint32]),
	scanEntry(kInt64, pScan, "Add", scan.InclAddInt64, nil, scan.AddInt64, exactN[int64]),
	scanEntry(kInt64, pScan, "Add", nil, scan.ExclAddInt64, scan.AddInt64, exactN[int64]),
	scanEntry(kUint64, pScan, "Add", scan.InclAddUint64, nil, scan.AddUint64, exactN[uint64]),
	scanEntry(kUint64, pScan, "Add", nil, scan.ExclAddUint64, scan.AddUint64, exactN[uint64]),
	scanEntry(kFloat32, pScan, "Max", scan.InclMaxFloat32, nil, scan.MaxFloat32, exactN[float32]),
	scanEntry(kFloat32, pScan, "Max", nil, scan.ExclMaxFloat32, scan.MaxFloat32, exactN[float32]),
	scanEntry(kFloat64, pScan, "Max", scan.InclMaxFloat64, nil, scan.MaxFloat64, exactN[float64]),
	scanEntry(kFloat64, pScan, "Max", nil, scan.ExclMaxFloat64, scan.MaxFloat64, exactN[float64]),
	scanEntry(kAffine, pScan, "Then", scan.InclThen, nil, scan.Then, exactN[scan.Affine]),
	scanEntry(kAffine, pScan, "Then", nil, scan.ExclThen, scan.Then, exactN[scan.Affine]),
	scanEntry(kStats, pScan, "Merge", scan.InclMerge, nil, scan.Merge, nearStats),
	scanEntry(kStats, pScan, "Merge", nil, scan.ExclMerge, scan.Merge, nearStats),

	// InclusiveScanByKey and ExclusiveScanByKey: the scan package's pairs.
	scanByKeyEntry(kInt32, kFloat32, pScan, "Add", scan.InclByKeyAddFloat32, nil, scan.EqInt32, scan.AddFloat32, nearF32),
	scanByKeyEntry(kInt32, kFloat32, pScan, "Add", nil, scan.ExclByKeyAddFloat32, scan.EqInt32, scan.AddFloat32, nearF32),
	scanByKeyEntry(kInt32, kInt64, pScan, "Add", scan.InclByKeyAddInt64, nil, scan.EqInt32, scan.AddInt64, exact[int64]),
	scanByKeyEntry(kInt32, kInt64, pScan, "Add", nil, scan.ExclByKeyAddInt64, scan.EqInt32, scan.AddInt64, exact[int64]),
	scanByKeyEntry(kInt32, kUint8, pScan, "Max", scan.InclByKeyMaxUint8, nil, scan.EqInt32, scan.MaxUint8, exact[uint8]),
	scanByKeyEntry(kInt32, kUint8, pScan, "Max", nil, scan.ExclByKeyMaxUint8, scan.EqInt32, scan.MaxUint8, exact[uint8]),
	scanByKeyEntry(kInt32, kAffine, pScan, "Then", scan.InclByKeyThen, nil, scan.EqInt32, scan.Then, exact[scan.Affine]),
	scanByKeyEntry(kInt32, kAffine, pScan, "Then", nil, scan.ExclByKeyThen, scan.EqInt32, scan.Then, exact[scan.Affine]),
	scanByKeyEntry(kUint64, kUint32, pScan, "Add", scan.InclByKeyAddUint32, nil, scan.EqUint64, scan.AddUint32, exact[uint32]),
	scanByKeyEntry(kUint64, kUint32, pScan, "Add", nil, scan.ExclByKeyAddUint32, scan.EqUint64, scan.AddUint32, exact[uint32]),
	scanByKeyEntry(kUint32, kUint32, pScan, "Add", scan.InclByKeyU32AddUint32, nil, scan.EqUint32, scan.AddUint32, exact[uint32]),
	scanByKeyEntry(kUint32, kUint32, pScan, "Add", nil, scan.ExclByKeyU32AddUint32, scan.EqUint32, scan.AddUint32, exact[uint32]),
	scanByKeyEntry(kUint32, kFloat32, pScan, "Add", scan.InclByKeyU32AddFloat32, nil, scan.EqUint32, scan.AddFloat32, nearF32),
	scanByKeyEntry(kUint32, kFloat32, pScan, "Add", nil, scan.ExclByKeyU32AddFloat32, scan.EqUint32, scan.AddFloat32, nearF32),

	// The compactions: the select package's six types and its struct.
	selectEntry(kUint8, pSel, sel.SelectUint8, sel.KeepUint8),
	selectEntry(kInt32, pSel, sel.SelectInt32, sel.KeepInt32),
	selectEntry(kUint32, pSel, sel.SelectUint32, sel.KeepUint32),
	selectEntry(kInt64, pSel, sel.SelectInt64, sel.KeepInt64),
	selectEntry(kFloat32, pSel, sel.SelectFloat32, sel.KeepFloat32),
	selectEntry(kFloat64, pSel, sel.SelectFloat64, sel.KeepFloat64),
	selectEntry(kItem, pSel, sel.SelectItem, sel.KeepItem),
	partitionEntry(kUint8, pSel, sel.PartitionUint8, sel.KeepUint8),
	partitionEntry(kInt32, pSel, sel.PartitionInt32, sel.KeepInt32),
	partitionEntry(kUint32, pSel, sel.PartitionUint32, sel.KeepUint32),
	partitionEntry(kInt64, pSel, sel.PartitionInt64, sel.KeepInt64),
	partitionEntry(kFloat32, pSel, sel.PartitionFloat32, sel.KeepFloat32),
	partitionEntry(kFloat64, pSel, sel.PartitionFloat64, sel.KeepFloat64),
	partitionEntry(kItem, pSel, sel.PartitionItem, sel.KeepItem),
	threeWayEntry(kUint8, pSel, sel.ThreeWayUint8, sel.KeepUint8, sel.SecondUint8),
	threeWayEntry(kInt32, pSel, sel.ThreeWayInt32, sel.KeepInt32, sel.SecondInt32),
	threeWayEntry(kUint32, pSel, sel.ThreeWayUint32, sel.KeepUint32, sel.SecondUint32),
	threeWayEntry(kInt64, pSel, sel.ThreeWayInt64, sel.KeepInt64, sel.SecondInt64),
	threeWayEntry(kFloat32, pSel, sel.ThreeWayFloat32, sel.KeepFloat32, sel.SecondFloat32),
	threeWayEntry(kFloat64, pSel, sel.ThreeWayFloat64, sel.KeepFloat64, sel.SecondFloat64),
	threeWayEntry(kItem, pSel, sel.ThreeWayItem, sel.KeepItem, sel.SecondItem),
	uniqueEntry(kUint8, pSel, sel.UniqueUint8, sel.EqUint8),
	uniqueEntry(kInt32, pSel, sel.UniqueInt32, sel.EqInt32),
	uniqueEntry(kUint32, pSel, sel.UniqueUint32, sel.EqUint32),
	uniqueEntry(kInt64, pSel, sel.UniqueInt64, sel.EqInt64),
	uniqueEntry(kFloat32, pSel, sel.UniqueFloat32, sel.EqFloat32),
	uniqueEntry(kFloat64, pSel, sel.UniqueFloat64, sel.EqFloat64),
	uniqueEntry(kItem, pSel, sel.UniqueItem, sel.EqItem),
	uniqueByKeyEntry(kUint32, kFloat32, pSel, sel.UniqueByKeyUint32Float32, sel.EqUint32),
	uniqueByKeyEntry(kFloat64, kInt64, pSel, sel.UniqueByKeyFloat64Int64, sel.EqFloat64),
	uniqueByKeyEntry(kItem, kUint8, pSel, sel.UniqueByKeyItemUint8, sel.EqItem),
	uniqueByKeyEntry(kUint8, kItem, pSel, sel.UniqueByKeyUint8Item, sel.EqUint8),
	uniqueByKeyEntry(kUint32, kUint32, pSel, sel.UniqueByKeyUint32Uint32, sel.EqUint32),
	rleEntry(kUint8, pSel, sel.RLEUint8, sel.EqUint8),
	rleEntry(kInt32, pSel, sel.RLEInt32, sel.EqInt32),
	rleEntry(kUint32, pSel, sel.RLEUint32, sel.EqUint32),
	rleEntry(kInt64, pSel, sel.RLEInt64, sel.EqInt64),
	rleEntry(kFloat32, pSel, sel.RLEFloat32, sel.EqFloat32),
	rleEntry(kFloat64, pSel, sel.RLEFloat64, sel.EqFloat64),
	rleEntry(kItem, pSel, sel.RLEItem, sel.EqItem),

	// Histograms, searches and merges: the histogram package.
	histogramEvenEntry(kUint8, pHist, histogram.EvenUint8),
	histogramEvenEntry(kInt16, pHist, histogram.EvenInt16),
	histogramEvenEntry(kUint32, pHist, histogram.EvenUint32),
	histogramEvenEntry(kInt64, pHist, histogram.EvenInt64),
	histogramEvenEntry(kFloat32, pHist, histogram.EvenFloat32),
	histogramEvenEntry(kFloat64, pHist, histogram.EvenFloat64),
	histogramRangeEntry(kUint32, pHist, histogram.RangeUint32),
	histogramRangeEntry(kFloat32, pHist, histogram.RangeFloat32),
	histogramRangeEntry(kFloat64, pHist, histogram.RangeFloat64),
	searchEntry(kUint32, pHist, "LowerBound", histogram.LowerUint32, searchUint32),
	searchEntry(kUint32, pHist, "UpperBound", histogram.UpperUint32, searchUint32),
	searchEntry(kFloat64, pHist, "LowerBound", histogram.LowerFloat64, searchFloat64),
	searchEntry(kFloat64, pHist, "UpperBound", histogram.UpperFloat64, searchFloat64),
	mergeEntry(kUint32, pHist, "Less", histogram.MergeUint32, histogram.LessUint32, func(i int) uint32 { return uint32(i) }),
	mergeEntry(kUint32, pHist, "ByHigh", histogram.MergeByHigh, histogram.ByHigh, func(i int) uint32 { return uint32(i) }),
	mergeEntry(kFloat64, pHist, "Less", histogram.MergeFloat64, histogram.LessFloat64, func(i int) float64 { return float64(i) }),

	// SegmentedReduce, ReduceByKey and AdjacentDifference: the segmented
	// package, one instance per type.
	segmentedReduceEntry(kInt32, pSegm, "Add", segmented.SegSumInt32, segmented.AddInt32, exactN[int32]),
	segmentedReduceEntry(kUint32, pSegm, "Max", segmented.SegMaxUint32, segmented.MaxUint32, exactN[uint32]),
	segmentedReduceEntry(kInt64, pSegm, "Min", segmented.SegMinInt64, segmented.MinInt64, exactN[int64]),
	segmentedReduceEntry(kUint8, pSegm, "Add", segmented.SegSumUint8, segmented.AddUint8, exactN[uint8]),
	segmentedReduceEntry(kFloat32, pSegm, "Max", segmented.SegMaxFloat32, segmented.MaxFloat32, exactN[float32]),
	segmentedReduceEntry(kFloat64, pSegm, "Add", segmented.SegSumFloat64, segmented.AddFloat64, nearF64),
	segmentedReduceEntry(kStat, pSegm, "AddStat", segmented.SegStat, segmented.AddStat, nearStat),
	reduceByKeyEntry(kUint32, kFloat32, pSegm, "Add", segmented.ByKeySumFloat32, segmented.EqUint32, segmented.AddFloat32, nearF32),
	reduceByKeyEntry(kUint32, kUint32, pSegm, "Add", segmented.ByKeySumUint32, segmented.EqUint32, segmented.AddUint32, exact[uint32]),
	reduceByKeyEntry(kInt64, kInt64, pSegm, "Min", segmented.ByKeyMinInt64, segmented.EqInt64, segmented.MinInt64, exact[int64]),
	reduceByKeyEntry(kUint32, kSpan, pSegm, "Join", segmented.ByKeySpan, segmented.EqUint32, segmented.Join, exact[segmented.Span]),
	reduceByKeyEntry(kInt64, kStat, pSegm, "AddStat", segmented.ByKeyStat, segmented.EqInt64, segmented.AddStat, nearStat(16)),
	adjacentDifferenceEntry(kInt32, pSegm, "Sub", segmented.DiffInt32, segmented.SubInt32),
	adjacentDifferenceEntry(kFloat32, pSegm, "Sub", segmented.DiffFloat32, segmented.SubFloat32),
	adjacentDifferenceEntry(kUint64, pSegm, "Sub", segmented.DiffUint64, segmented.SubUint64),
	adjacentDifferenceEntry(kStat, pSegm, "Gap", segmented.DiffStat, segmented.Gap),

	// Radix sorts: the radixsort package, every key type and its pairs.
	radixKeysEntry(kInt8, pRad, radixsort.KeysInt8),
	radixKeysEntry(kInt16, pRad, radixsort.KeysInt16),
	radixKeysEntry(kInt32, pRad, radixsort.KeysInt32),
	radixKeysEntry(kInt64, pRad, radixsort.KeysInt64),
	radixKeysEntry(kInt, pRad, radixsort.KeysInt),
	radixKeysEntry(kUint8, pRad, radixsort.KeysUint8),
	radixKeysEntry(kUint16, pRad, radixsort.KeysUint16),
	radixKeysEntry(kUint32, pRad, radixsort.KeysUint32),
	radixKeysEntry(kUint64, pRad, radixsort.KeysUint64),
	radixKeysEntry(kUint, pRad, radixsort.KeysUint),
	radixKeysEntry(kUintptr, pRad, radixsort.KeysUintptr),
	radixKeysEntry(kFloat32, pRad, radixsort.KeysFloat32),
	radixKeysEntry(kFloat64, pRad, radixsort.KeysFloat64),
	radixPairsEntry(kUint32, kUint32, pRad, radixsort.PairsUint32),
	radixPairsEntry(kUint64, kUint32, pRad, radixsort.PairsUint64),
	radixPairsEntry(kInt8, kUint32, pRad, radixsort.PairsInt8),
	radixPairsEntry(kInt16, kUint32, pRad, radixsort.PairsInt16),
	radixPairsEntry(kFloat32, kUint32, pRad, radixsort.PairsFloat32),
	radixPairsEntry(kFloat64, kUint32, pRad, radixsort.PairsFloat64),
	radixPairsEntry(kInt32, kRadixPayload, pRad, radixsort.PairsPayload),
	radixPairsEntry(kUint16, kRadixBig, pRad, radixsort.PairsBig),
	radixPairsEntry(kUint32, kUint64, pRad, radixsort.PairsIndex64),

	// Merge sorts: the mergesort package.
	mergeSortKeysEntry(kUint32, pMS, "Less", mergesort.KeysUint32, mergesort.LessUint32),
	mergeSortKeysEntry(kUint64, pMS, "Less", mergesort.KeysUint64, mergesort.LessUint64),
	mergeSortKeysEntry(kInt8, pMS, "Less", mergesort.KeysInt8, mergesort.LessInt8),
	mergeSortKeysEntry(kFloat32, pMS, "TotalLess", mergesort.KeysFloat32, mergesort.TotalLessFloat32),
	mergeSortKeysEntry(kFloat64, pMS, "TotalLess", mergesort.KeysFloat64, mergesort.TotalLessFloat64),
	mergeSortKeysEntry(kRecord, pMS, "LessRecord", mergesort.KeysRecord, mergesort.LessRecord),
	mergeSortPairsEntry(kUint32, kUint32, pMS, "Less", mergesort.PairsUint32, mergesort.LessUint32),
	mergeSortPairsEntry(kRecord, kInt64, pMS, "LessRecord", mergesort.PairsRecord, mergesort.LessRecord),
	mergeSortPairsEntry(kInt8, kMergePayload, pMS, "Less", mergesort.PairsPayload, mergesort.LessInt8),

	// Segmented sorts: the segsort package, every key type and its pairs.
	segSortKeysEntry(kInt8, pSeg, segsort.KeysInt8),
	segSortKeysEntry(kInt16, pSeg, segsort.KeysInt16),
	segSortKeysEntry(kInt32, pSeg, segsort.KeysInt32),
	segSortKeysEntry(kInt64, pSeg, segsort.KeysInt64),
	segSortKeysEntry(kInt, pSeg, segsort.KeysInt),
	segSortKeysEntry(kUint8, pSeg, segsort.KeysUint8),
	segSortKeysEntry(kUint16, pSeg, segsort.KeysUint16),
	segSortKeysEntry(kUint32, pSeg, segsort.KeysUint32),
	segSortKeysEntry(kUint64, pSeg, segsort.KeysUint64),
	segSortKeysEntry(kUint, pSeg, segsort.KeysUint),
	segSortKeysEntry(kUintptr, pSeg, segsort.KeysUintptr),
	segSortKeysEntry(kFloat32, pSeg, segsort.KeysFloat32),
	segSortKeysEntry(kFloat64, pSeg, segsort.KeysFloat64),
	segSortPairsEntry(kInt8, kUint32, pSeg, segsort.PairsInt8),
	segSortPairsEntry(kInt16, kUint32, pSeg, segsort.PairsInt16),
	segSortPairsEntry(kInt64, kUint32, pSeg, segsort.PairsInt64),
	segSortPairsEntry(kUint32, kUint32, pSeg, segsort.PairsUint32),
	segSortPairsEntry(kUint64, kUint32, pSeg, segsort.PairsUint64),
	segSortPairsEntry(kFloat32, kUint32, pSeg, segsort.PairsFloat32),
	segSortPairsEntry(kFloat64, kUint32, pSeg, segsort.PairsFloat64),
	segSortPairsEntry(kInt32, kSegPayload, pSeg, segsort.PairsPayload),
	segSortPairsEntry(kUint16, kSegBig, pSeg, segsort.PairsBig),
}
