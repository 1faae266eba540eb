// Package state holds the GPU conformance tests of per-call operator state:
// operators that are methods of a state struct, declared with the stateful
// constructors (runtime.BinaryTransformWith(Axpy.Apply), …) and given their
// state per call through Bind, in transforms, a reduction, scans, a
// selection and a merge sort. Each is compared on the GPU against the CPU
// backend, and both against a sequential loop that calls the method, over
// several states, with two states in flight on two streams at once. Without
// a GPU the tests run the CPU backend against the loops.
package state

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

// Axpy is the state of a saxpy: alpha known only at run time.
type Axpy struct{ Alpha float32 }

// Apply is alpha*x + y, rounded twice as Go does (no fused multiply-add).
//
//gocccl:op
func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }

// Mix is a state whose fields need padding between them, so that its
// kernel argument is laid out as Go lays it out.
type Mix struct {
	Flag  bool
	Scale float64
	Bias  int8
	Taps  [3]int16
	Shift uint32
}

// Map uses every field of the state.
//
//gocccl:op
func (m Mix) Map(x float64) float64 {
	y := x * m.Scale
	if m.Flag {
		y = -y
	}
	for _, t := range m.Taps {
		y += float64(t)
	}
	return y + float64(m.Bias) + float64(m.Shift>>3)
}

// Affine is a named scalar state.
type Affine int32

// Apply is a*x + 7 with Go's wrapping int32 arithmetic.
//
//gocccl:op
func (a Affine) Apply(x int32) int32 { return int32(a)*x + 7 }

// Mod is the modulus of an addition; values and init are below it.
type Mod struct{ M uint64 }

// Add is (a + b) mod M: associative and commutative over [0, M).
//
//gocccl:op
func (m Mod) Add(a, b uint64) uint64 { return (a + b) % m.M }

// Band selects the values in [Lo, Hi).
type Band struct{ Lo, Hi float32 }

// In reports whether x is in the band.
//
//gocccl:op
func (b Band) In(x float32) bool { return x >= b.Lo && x < b.Hi }

// Order compares keys by their bits above Shift, ascending or descending:
// a strict weak order with many equivalent keys, so stability shows.
type Order struct {
	Shift uint32
	Desc  bool
}

// Less orders a before b.
//
//gocccl:op
func (o Order) Less(a, b uint32) bool {
	ka, kb := a>>o.Shift, b>>o.Shift
	if o.Desc {
		return ka > kb
	}
	return ka < kb
}

// Bucket is the width of the buckets Same compares by.
type Bucket struct{ Width uint32 }

// Same reports whether a and b fall in one bucket of the state's width.
//
//gocccl:op
func (b Bucket) Same(x, y uint32) bool { return x/b.Width == y/b.Width }

// Lut is a lookup table with a scale: a state with a scalar and a
// read-only view of a device buffer.
type Lut struct {
	Scale float32
	Table runtime.View[float32]
}

// Get is Scale times the table's entry at x modulo its length.
//
//gocccl:op
func (l Lut) Get(x uint32) float32 { return l.Scale * l.Table.At(int(x%uint32(l.Table.Len()))) }

// Span is a half-open interval [Lo, Hi).
type Span struct{ Lo, Hi int32 }

// Spans holds tables of intervals: a view of structs, in an array of a
// nested struct.
type Spans struct {
	Inner SpanTables
	Pick  uint8
}

// SpanTables are two tables of intervals.
type SpanTables struct{ T [2]runtime.View[Span] }

// In reports whether x lies in one of the intervals of the table Pick
// selects.
//
//gocccl:op
func (s Spans) In(x int32) bool {
	t := s.Inner.T[s.Pick&1]
	for i := range t.Len() {
		if sp := t.At(i); x >= sp.Lo && x < sp.Hi {
			return true
		}
	}
	return false
}

// Weights is a modulus read from a table: a reduction whose operator reads
// a view.
type Weights struct{ M runtime.View[uint64] }

// Add is (a + b) mod M.At(0).
//
//gocccl:op
func (w Weights) Add(a, b uint64) uint64 { return (a + b) % w.M.At(0) }

// Probe reads the table at x, which may be out of range: the GPU traps as
// Go panics (TestViewOutOfRangeTraps runs it, alone, last).
type Probe struct{ T runtime.View[int32] }

// At is T.At(x).
//
//gocccl:op
func (p Probe) At(x int32) int32 { return p.T.At(int(x)) }

// The instances: each compiled once, its state given per call.
var (
	Saxpy     = runtime.BinaryTransformWith(Axpy.Apply)
	MixMap    = runtime.UnaryTransformWith(Mix.Map)
	AffineMap = runtime.UnaryTransformWith(Affine.Apply)
	SumMod    = runtime.ReduceWith(Mod.Add)
	ScanMod   = runtime.InclusiveScanWith(Mod.Add)
	ExclMod   = runtime.ExclusiveScanWith(Mod.Add)
	InBand    = runtime.SelectWith(Band.In)
	SortBy    = runtime.MergeSortKeysWith(Order.Less)

	// The stateful constructors of the other one-operator algorithms.
	ScaleEach  = runtime.ForEachWith(Affine.Apply)
	DiffMod    = runtime.AdjacentDifferenceWith(Mod.Add)
	SameBucket = runtime.UniqueWith(Bucket.Same)
	SegSumMod  = runtime.SegmentedReduceWith(Mod.Add)
	SortPairs  = runtime.MergeSortPairsWith[Order, uint32, int32](Order.Less)
	LowerBy    = runtime.LowerBoundWith(Order.Less)
	UpperBy    = runtime.UpperBoundWith(Order.Less)

	// States with read-only views of device buffers.
	LutMap   = runtime.UnaryTransformWith(Lut.Get)
	InSpans  = runtime.SelectWith(Spans.In)
	SumTable = runtime.ReduceWith(Weights.Add)
	ProbeMap = runtime.UnaryTransformWith(Probe.At)
)
