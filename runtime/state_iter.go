package runtime

import "github.com/gocccl/gocccl/internal/iter"

// AnyIterator is a declared input composition of package iterator, of any
// value type: what a Stateful instance's Over declares. Only gocccl's own
// types implement it.
type AnyIterator interface {
	// GoccclInputNode is for gocccl's own use.
	GoccclInputNode() *iter.Node
}

// AnyOutputIterator is a declared output composition of package iterator,
// of any value type: what a Stateful instance's Into declares. Only
// gocccl's own types implement it.
type AnyOutputIterator interface {
	// GoccclOutputNode is for gocccl's own use.
	GoccclOutputNode() *iter.Node
}

// Over declares the instance reading its inputs through the iterator
// compositions ins (package iterator), one per input of the algorithm in
// the order of its Run, nil (or an iterator.Slice) for a plain buffer, so
// that gocccl-gen compiles its kernels with both the state and the
// compositions; call it on the stateful constructor's result where the
// instance is declared:
//
//	var (
//		Xs       = iterator.Slice[float32]()
//		Idx      = iterator.Slice[int64]()
//		Gathered = iterator.Permutation(Xs, Idx)
//		Saxpy    = runtime.BinaryTransformWith(Axpy.Apply).Over(Gathered, nil)
//	)
//
//	err := Saxpy.Bind(Axpy{Alpha: a}).Run(s, Gathered.Bind(Xs.With(x), Idx.With(idx)), y, out)
//
// It returns st: the handles that Bind returns then run the compositions,
// which the CPU backend evaluates with the Go operators, calling the method
// with the bound state. Go cannot type a method's arguments by the
// algorithm, so gocccl-gen checks them: each composition must be one that
// the plain algorithm's Over accepts for that input (of the operator's
// element type), and the algorithm must read iterators at all
// (UnaryTransform, BinaryTransform, Reduce, the scans, Select, Partition,
// Unique, SegmentedReduce, LowerBound, UpperBound and the merge sorts'
// RunCopy do).
func (st *Stateful[S, H]) Over(ins ...AnyIterator) *Stateful[S, H] { return st }

// Into declares the instance writing its outputs through the output
// iterator compositions outs (package iterator), one per composition that
// the plain handle's Into takes (a compaction's counts take none), nil for
// a plain buffer; see Over. UnaryTransform, BinaryTransform, Reduce, the
// scans, Select, Partition and Unique write iterators. It returns st.
func (st *Stateful[S, H]) Into(outs ...AnyOutputIterator) *Stateful[S, H] { return st }
