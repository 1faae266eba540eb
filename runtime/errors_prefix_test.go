package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func epAdd(a, b uint32) uint32                { return a + b }
func epSub(a, b uint32) uint32                { return a - b }
func epHalf(x uint32) uint32                  { return x / 2 }
func epOdd(x uint32) bool                     { return x&1 == 1 }
func epSmall(x uint32) bool                   { return x < 10 }
func epEq(a, b uint32) bool                   { return a == b }
func epLess(a, b uint32) bool                 { return a < b }
func epAdd3(a, b, c uint32) uint32            { return a + b + c }
func epAdd4(a, b, c, d uint32) uint32         { return a + b + c + d }
func epSplit(x uint32) (uint32, uint32)       { return x, x + 1 }
func epSplit2(a, b uint32) (uint32, uint32)   { return a + b, a - b }
func epFan(x uint32) (uint32, uint32, uint32) { return x, x + 1, x + 2 }
func epIndex(i int64) uint32                  { return uint32(i) }

// epState is the state of the stateful instances of TestErrorsOnePrefix.
type epState struct{ K uint32 }

func epScaleWith(s epState, x uint32) uint32      { return x * s.K }
func epAddWith(s epState, a, b uint32) uint32     { return a + b + s.K }
func epOddWith(s epState, x uint32) bool          { return x&1 == s.K&1 }
func epAxpyWith(s epState, a, b, c uint32) uint32 { return a*s.K + b + c }

// errCase is a call that must fail: alg is the algorithm its message names.
type errCase struct {
	what, alg string
	err       error
}

// TestErrorsOnePrefix calls every algorithm with bad arguments (lengths that
// do not match, negative sizes, offsets outside the input, a k larger than
// the input, bad options, bad channels, ranges outside their buffers) on the
// CPU backend, and requires every error to carry the gocccl: prefix exactly
// once, at its start, and to name its algorithm once at the head (never
// "gocccl: X: gocccl: X: …" nor "gocccl: X: X: …").
func TestErrorsOnePrefix(t *testing.T) {
	d := cpuDevice(t)
	u := func(xs ...uint32) *Slice[uint32] { return mustFromHost(t, d, xs) }
	i64 := func(xs ...int64) *Slice[int64] { return mustFromHost(t, d, xs) }
	n8 := u(9, 3, 7, 1, 8, 2, 6, 4)
	out8, out4, out1 := mustAlloc[uint32](t, d, 8), mustAlloc[uint32](t, d, 4), mustAlloc[uint32](t, d, 1)
	count := i64(-1)
	begin, end := i64(0, 4), i64(4, 8)
	badEnd := i64(4, 9) // outside the 8 items
	backwards := i64(4, 2)

	var cases []errCase
	add := func(what, alg string, err error) { cases = append(cases, errCase{what, alg, err}) }

	// Reductions, scans and transforms.
	add("Reduce into an empty output", "Reduce", Reduce(epAdd).Run(nil, n8, mustAlloc[uint32](t, d, 0), 0))
	add("InclusiveScan into a short output", "InclusiveScan", InclusiveScan(epAdd).Run(nil, n8, out4))
	add("ExclusiveScan into a short output", "ExclusiveScan", ExclusiveScan(epAdd).Run(nil, n8, out4, 0))
	add("InclusiveScan with an empty init", "InclusiveScan", InclusiveScan(epAdd).RunWithInitFrom(nil, n8, out8, mustAlloc[uint32](t, d, 0)))
	add("UnaryTransform into a short output", "UnaryTransform", UnaryTransform(epHalf).Run(nil, n8, out4))
	add("BinaryTransform of unequal inputs", "BinaryTransform", BinaryTransform(epAdd).Run(nil, n8, out4, out8))
	add("TransformIf into a short output", "TransformIf", TransformIf(epHalf, epOdd).Run(nil, n8, out4))
	add("TransformReduce into an empty output", "TransformReduce", TransformReduce(epHalf, epAdd).Run(nil, n8, mustAlloc[uint32](t, d, 0), 0))
	add("AdjacentDifference into a short output", "AdjacentDifference", AdjacentDifference(epSub).Run(nil, n8, out4))
	add("ArgMin into an empty index", "ArgMin", ArgMin(epLess).Run(nil, n8, out1, mustAlloc[int64](t, d, 0)))
	add("FindIf into an empty output", "FindIf", FindIf(epOdd).Run(nil, n8, mustAlloc[int64](t, d, 0)))
	add("LowerBound into a short output", "LowerBound", LowerBound(epLess).Run(nil, n8, n8, i64(0)))
	add("Fill of a nil output", "Fill", Fill[uint32]().Run(nil, (*Slice[uint32])(nil), 1))
	add("Merge into a short output", "Merge", Merge(epLess).Run(nil, n8, n8, out8))

	// The N×M transforms.
	add("Transform3 of unequal inputs", "Transform3", Transform3(epAdd3).Run(nil, n8, n8, out4, out8))
	add("Transform4 into a short output", "Transform4", Transform4(epAdd4).Run(nil, n8, n8, n8, n8, out4))
	add("Transform1x2 into a short output", "Transform1x2", Transform1x2(epSplit).Run(nil, n8, out8, out4))
	add("Transform2x2 of unequal inputs", "Transform2x2", Transform2x2(epSplit2).Run(nil, n8, out4, out8, out8))
	add("Transform1x3 into a short output", "Transform1x3", Transform1x3(epFan).Run(nil, n8, out8, mustAlloc[uint32](t, d, 8), out4))
	add("Transform1x2 into overlapping outputs", "Transform1x2", Transform1x2(epSplit).Run(nil, n8, out8, out8))

	// Selections and partitions.
	add("Select without a count", "Select", Select(epOdd).Run(nil, n8, out8, nil))
	add("Partition into a short output", "Partition", Partition(epOdd).Run(nil, n8, out4, count))
	add("ThreeWayPartition with a short count buffer", "ThreeWayPartition", ThreeWayPartition(epOdd, epSmall).Run(nil, n8, out8, mustAlloc[uint32](t, d, 8), mustAlloc[uint32](t, d, 8), count))
	add("Unique into a short output", "Unique", Unique(epEq).Run(nil, n8, out4, count))
	add("UniqueByKey of unequal keys and values", "UniqueByKey", UniqueByKey[uint32, uint32](epEq).Run(nil, n8, out4, mustAlloc[uint32](t, d, 8), mustAlloc[uint32](t, d, 8), count))
	add("RunLengthEncode into a short output", "RunLengthEncode", RunLengthEncode(epEq).Run(nil, n8, out4, mustAlloc[int64](t, d, 8), count))
	add("ReduceByKey of unequal keys and values", "ReduceByKey", ReduceByKey(epEq, epAdd).Run(nil, n8, out4, out8, mustAlloc[uint32](t, d, 8), count))
	add("InclusiveScanByKey of unequal keys and values", "InclusiveScanByKey", InclusiveScanByKey(epEq, epAdd).Run(nil, n8, out4, out8))
	add("ExclusiveScanByKey into a short output", "ExclusiveScanByKey", ExclusiveScanByKey(epEq, epAdd).Run(nil, n8, n8, out4, 0))

	// Sorts.
	add("RadixSortKeys with a bad bit window", "RadixSortKeys", RadixSortKeys[uint32]().Run(nil, n8, out8, RadixOptions{BeginBit: 20, EndBit: 8}))
	add("RadixSortKeys with a negative BeginBit", "RadixSortKeys", RadixSortKeys[uint32]().Run(nil, n8, out8, RadixOptions{BeginBit: -1}))
	add("RadixSortKeys into a short output", "RadixSortKeys", RadixSortKeys[uint32]().Run(nil, n8, out4, RadixOptions{}))
	add("RadixSortPairs of unequal keys and values", "RadixSortPairs", RadixSortPairs[uint32, uint32]().Run(nil, n8, out8, out4, mustAlloc[uint32](t, d, 8), RadixOptions{}))
	add("MergeSortPairs of unequal keys and values", "MergeSortPairs", MergeSortPairs[uint32, uint32](epLess).Run(nil, u(3, 2, 1, 0), out8))
	add("MergeSortKeys copy into a short output", "MergeSortKeys", MergeSortKeys(epLess).RunCopy(nil, n8, out4))
	add("SegmentedSortKeys with an offset outside", "SegmentedSortKeys", SegmentedSortKeys[uint32]().Run(nil, n8, out8, begin, badEnd, SegmentedSortOptions{}))
	add("SegmentedSortKeys with unequal offsets", "SegmentedSortKeys", SegmentedSortKeys[uint32]().Run(nil, n8, out8, begin, i64(8), SegmentedSortOptions{}))
	add("SegmentedSortPairs with backwards segments", "SegmentedSortPairs", SegmentedSortPairs[uint32, uint32]().Run(nil, n8, out8, u(1, 2, 3, 4, 5, 6, 7, 8), mustAlloc[uint32](t, d, 8), begin, backwards, SegmentedSortOptions{}))

	// Segmented reductions and scans.
	sr := SegmentedReduce(epAdd)
	add("SegmentedReduce with a negative MaxSegmentSize", "SegmentedReduce", sr.RunWith(nil, n8, begin, end, out4, 0, SegmentedReduceOptions{MaxSegmentSize: -1}))
	add("SegmentedReduce with a broken MaxSegmentSize", "SegmentedReduce", sr.RunWith(nil, n8, begin, end, out4, 0, SegmentedReduceOptions{MaxSegmentSize: 3}))
	add("SegmentedReduce with an offset outside", "SegmentedReduce", sr.Run(nil, n8, begin, badEnd, out4, 0))
	add("SegmentedReduce with unequal offsets", "SegmentedReduce", sr.Run(nil, n8, begin, i64(8), out4, 0))
	add("SegmentedReduce into a short output", "SegmentedReduce", sr.Run(nil, n8, begin, end, mustAlloc[uint32](t, d, 1), 0))
	add("SegmentedReduce of segment size 0", "SegmentedReduce", sr.RunFixed(nil, n8, 0, out4, 0))
	add("SegmentedReduce of a negative segment size", "SegmentedReduce", sr.RunFixed(nil, n8, -3, out4, 0))
	add("SegmentedArgMax with an offset outside", "SegmentedArgMax", SegmentedArgMax(epLess).Run(nil, n8, begin, badEnd, out4, mustAlloc[int64](t, d, 4)))
	add("SegmentedInclusiveScan with an offset outside", "SegmentedInclusiveScan", SegmentedInclusiveScan(epAdd).Run(nil, n8, begin, badEnd, out8))
	add("SegmentedInclusiveScan with overlapping segments", "SegmentedInclusiveScan", SegmentedInclusiveScan(epAdd).Run(nil, n8, i64(0, 2), i64(4, 6), out8))
	add("SegmentedExclusiveScan of a negative segment size", "SegmentedExclusiveScan", SegmentedExclusiveScan(epAdd).RunFixed(nil, n8, -1, out8, 0))

	// Top-k.
	add("TopKKeys of k > n", "TopKKeys", TopKKeys[uint32]().Run(nil, n8, out8, 9, TopKOptions{}))
	add("TopKKeys of a negative k", "TopKKeys", TopKKeys[uint32]().Run(nil, n8, out8, -1, TopKOptions{Sorted: true}))
	add("TopKKeys into a short output", "TopKKeys", TopKKeys[uint32]().Run(nil, n8, out4, 6, TopKOptions{Largest: true}))
	add("TopKPairs of unequal keys and values", "TopKPairs", TopKPairs[uint32, uint32]().Run(nil, n8, out8, out4, mustAlloc[uint32](t, d, 8), 2, TopKOptions{}))
	add("SegmentedTopKKeys of k > a segment", "SegmentedTopKKeys", SegmentedTopKKeys[uint32]().Run(nil, n8, out8, begin, end, 5, TopKOptions{}))
	add("SegmentedTopKKeys of a negative k", "SegmentedTopKKeys", SegmentedTopKKeys[uint32]().Run(nil, n8, out8, begin, end, -2, TopKOptions{}))
	add("SegmentedTopKPairs with an offset outside", "SegmentedTopKPairs", SegmentedTopKPairs[uint32, uint32]().Run(nil, n8, out8, u(1, 2, 3, 4, 5, 6, 7, 8), mustAlloc[uint32](t, d, 8), begin, badEnd, 2, TopKOptions{}))

	// Histograms.
	hist := mustAlloc[int32](t, d, 4)
	add("HistogramEven of 0 bins", "HistogramEven", HistogramEven[uint32]().Run(nil, n8, hist, 0, 0, 10))
	add("HistogramEven with lower >= upper", "HistogramEven", HistogramEven[uint32]().Run(nil, n8, hist, 4, 10, 0))
	add("HistogramEven into a short histogram", "HistogramEven", HistogramEven[uint32]().Run(nil, n8, hist, 9, 0, 10))
	add("HistogramRange of levels out of order", "HistogramRange", HistogramRange[uint32]().Run(nil, n8, hist, u(5, 1, 9)))
	mh := MultiHistogramEven[uint32]()
	hists := []*Slice[int32]{mustAlloc[int32](t, d, 4), mustAlloc[int32](t, d, 4)}
	add("MultiHistogramEven of 0 channels", "MultiHistogramEven", mh.Run(nil, n8, 0, hists[:1], []int{4}, []uint32{0}, []uint32{4}))
	add("MultiHistogramEven of 5 channels", "MultiHistogramEven", mh.Run(nil, n8, 5, hists[:1], []int{4}, []uint32{0}, []uint32{4}))
	add("MultiHistogramEven of bad levels", "MultiHistogramEven", mh.Run(nil, n8, 2, hists, []int{4, 4}, []uint32{0, 9}, []uint32{4, 4}))
	add("MultiHistogramEven of a nil histogram", "MultiHistogramEven", mh.Run(nil, n8, 2, []*Slice[int32]{hists[0], nil}, []int{4, 4}, []uint32{0, 0}, []uint32{4, 4}))
	add("MultiHistogramEven of incomplete pixels", "MultiHistogramEven", mh.Run(nil, n8.Range(0, 7), 2, hists, []int{4, 4}, []uint32{0, 0}, []uint32{4, 4}))
	add("MultiHistogramRange of too few levels", "MultiHistogramRange", MultiHistogramRange[uint32]().Run(nil, n8, 2, hists, []*Slice[uint32]{u(0, 4), u(0)}))

	// Copies, fills, for-each.
	bc := BatchedCopy[uint32]()
	add("BatchedCopy of a range outside the source", "BatchedCopy", bc.Run(nil, n8, out8, i64(6), i64(0), i64(4)))
	add("BatchedCopy of a range outside the destination", "BatchedCopy", bc.Run(nil, n8, out4, i64(0), i64(2), i64(4)))
	add("BatchedCopy of a negative size", "BatchedCopy", bc.Run(nil, n8, out8, i64(0), i64(0), i64(-1)))
	add("BatchedCopy of unequal offsets", "BatchedCopy", bc.Run(nil, n8, out8, i64(0, 1), i64(0), i64(1, 1)))
	add("Generate into a freed output", "Generate", Generate(epIndex).Run(nil, freed(t, d)))
	add("ForEach of a freed buffer", "ForEach", ForEach(epHalf).Run(nil, freed(t, d)))

	// Stateful instances.
	add("UnaryTransformWith into a short output", "UnaryTransform", UnaryTransformWith(epScaleWith).Bind(epState{3}).Run(nil, n8, out4))
	add("ReduceWith into an empty output", "Reduce", ReduceWith(epAddWith).Bind(epState{3}).Run(nil, n8, mustAlloc[uint32](t, d, 0), 0))
	add("SelectWith without a count", "Select", SelectWith(epOddWith).Bind(epState{1}).Run(nil, n8, out8, nil))
	add("SegmentedReduceWith with a negative MaxSegmentSize", "SegmentedReduce", SegmentedReduceWith(epAddWith).Bind(epState{1}).RunWith(nil, n8, begin, end, out4, 0, SegmentedReduceOptions{MaxSegmentSize: -4}))
	add("Transform3With of unequal inputs", "Transform3", Transform3With(epAxpyWith).Bind(epState{2}).Run(nil, n8, out4, n8, out8))

	// An algorithm's error through Stream.Time is the algorithm's, as it is.
	_, err := d.DefaultStream().Time(func() error { return TopKKeys[uint32]().Run(nil, n8, out8, 9, TopKOptions{Sorted: true}) })
	add("TopKKeys under Stream.Time", "TopKKeys", err)
	// A helper's errorf that its caller wraps again (with or without what).
	in := &Reduce(epAdd).instance
	add("wrap of the instance's errorf", "Reduce", in.wrap(in.errorf("bad %d", 1), ""))
	add("wrap of the instance's errorf, with what", "Reduce", in.wrap(in.errorf("bad %d", 2), "scratch memory"))
	add("wrap of a prefixed error", "Reduce", in.wrap(errors.New("gocccl: operator panicked on the CPU backend: boom"), "what"))

	for _, c := range cases {
		if !assert.Error(t, c.err, c.what) {
			continue
		}
		msg := c.err.Error()
		t.Logf("%s: %s", c.what, msg)
		assert.True(t, strings.HasPrefix(msg, "gocccl: "), "%s: no gocccl: prefix: %s", c.what, msg)
		assert.Equal(t, 1, strings.Count(msg, "gocccl:"), "%s: one gocccl: prefix: %s", c.what, msg)
		assert.Contains(t, msg, c.alg, "%s: the message names the algorithm", c.what)
		// The head names the algorithm once: "gocccl: X: X: …" is the doubled
		// name that wrap gives an error errorf made.
		if rest, ok := strings.CutPrefix(msg, "gocccl: "); ok {
			if head, tail, ok := strings.Cut(rest, ": "); ok {
				assert.False(t, strings.HasPrefix(tail, head+":"), "%s: the name twice: %s", c.what, msg)
				assert.False(t, strings.HasPrefix(tail, c.alg+":"), "%s: the algorithm twice: %s", c.what, msg)
			}
		}
	}
	require.NotEmpty(t, cases)
}

// freed returns a Slice that was freed.
func freed(t *testing.T, d *Device) *Slice[uint32] {
	t.Helper()
	s := mustAlloc[uint32](t, d, 4)
	require.NoError(t, s.Free())
	return s
}
