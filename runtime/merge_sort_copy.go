package runtime

import (
	"fmt"

	"github.com/gocccl/gocccl/internal/iter"
)

// This file holds the copy form of the merge sorts (RunCopy), as
// cub::DeviceMergeSort::SortKeysCopy and SortPairsCopy: the block sort (or,
// up to one tile, the single kernel) reads the keys (and values) from a
// Slice or through an iterator composition, and the sorted result goes to
// other Slices.

// Over declares the instance reading the keys of RunCopy through the
// iterator composition keys (package iterator), so that gocccl-gen compiles
// it; call it on the constructor's result where the instance is declared:
//
//	var SortSquares = runtime.MergeSortKeys(Less).Over(Squares)
//
// It returns m: any MergeSortKeys(less) instance then runs the composition.
func (m *MergeSortKeysOp[K]) Over(keys Iterator[K]) *MergeSortKeysOp[K] { return m }

// RunCopy sorts the keys read from in into out, stably, and leaves in as it
// is, as cub::DeviceMergeSort::SortKeysCopy. in is a Slice or an iterator
// composition bound for the call (package iterator) that an instance
// declared with Over; a composition without a length (Counting, Constant)
// reads out.Len() keys, any other input has out.Len() elements. A Slice in
// may be out itself (Run then) but may not overlap it otherwise, and a
// composition must not read out. It is enqueued on s (nil means the default
// stream of out's device), as Run.
func (m *MergeSortKeysOp[K]) RunCopy(s *Stream, in Input[K], out *Slice[K]) error {
	if m == nil || m.less == nil {
		return errNilComparator("MergeSortKeys")
	}
	if err := out.usable("MergeSortKeys output"); err != nil {
		return err
	}
	keys, err := inputOf("MergeSortKeys input", in, true)
	if err != nil {
		return err
	}
	keys = keys.withLen(out.n)
	s, err = streamFor("MergeSortKeys", s, out.dev, keys.dev())
	if err != nil {
		return err
	}
	if keys.len() != out.n {
		return m.errorf("the input has %d keys, the output %d", keys.len(), out.n)
	}
	if keys.it == nil && overlapsPartially(keys.s, out) {
		return m.errorf("the output overlaps the input without being the input itself")
	}
	ins := []*iter.Node{keys.node()}
	if err := m.enterThrough(s.dev, ins, nil); err != nil {
		return m.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := keys.host(s.dev)
		if err != nil {
			return m.wrap(err, "")
		}
		copy(out.host, h.host)
		return m.wrap(sortStableCPU(out.host, m.less, s.dev.info.Workers), "")
	}
	if keys.it == nil {
		ins = nil
	}
	return mergeSortGPU(&m.instance, s, ins, sortInputOf(keys), sortInput{}, out.ptr, 0, out.n, elemSize[K](), 0)
}

// Over declares the instance reading the keys and values of RunCopy
// through the iterator compositions keys and values (package iterator; an
// iterator.Slice for one read as a plain buffer); see MergeSortKeysOp.Over:
//
//	var SortByShuffle = runtime.MergeSortPairs[int32, int64](Less).Over(Shuffled, iterator.Counting[int64]())
func (m *MergeSortPairsOp[K, V]) Over(keys Iterator[K], values Iterator[V]) *MergeSortPairsOp[K, V] {
	return m
}

// RunCopy sorts the pairs read from keysIn and valuesIn into keysOut and
// valuesOut by their keys, stably, and leaves the inputs as they are, as
// cub::DeviceMergeSort::SortPairsCopy: valuesOut[i] is the value read
// beside the key sorted to keysOut[i]. The inputs are Slices or iterator
// compositions bound for the call that an instance declared with Over; one
// without a length reads keysOut.Len() elements. Both outputs have the
// same length and every input has it; a Slice input may be its output
// itself but may not overlap an output otherwise, and a composition must
// not read an output. It is enqueued on s (nil means the default stream of
// keysOut's device).
func (m *MergeSortPairsOp[K, V]) RunCopy(s *Stream, keysIn Input[K], valuesIn Input[V], keysOut *Slice[K], valuesOut *Slice[V]) error {
	if m == nil || m.less == nil {
		return errNilComparator("MergeSortPairs")
	}
	if err := keysOut.usable("MergeSortPairs keys output"); err != nil {
		return err
	}
	if err := valuesOut.usable("MergeSortPairs values output"); err != nil {
		return err
	}
	n := keysOut.n
	keys, err := inputOf("MergeSortPairs keys input", keysIn, true)
	if err != nil {
		return err
	}
	values, err := inputOf("MergeSortPairs values input", valuesIn, true)
	if err != nil {
		return err
	}
	keys, values = keys.withLen(n), values.withLen(n)
	s, err = streamFor("MergeSortPairs", s, keysOut.dev, valuesOut.dev, keys.dev(), values.dev())
	if err != nil {
		return err
	}
	switch {
	case valuesOut.n != n:
		return m.errorf("%d keys and %d values in the outputs", n, valuesOut.n)
	case keys.len() != n:
		return m.errorf("the keys input has %d elements, the outputs %d", keys.len(), n)
	case values.len() != n:
		return m.errorf("the values input has %d elements, the outputs %d", values.len(), n)
	case overlaps(keysOut, valuesOut) && n > 0:
		return m.errorf("the keys and values outputs overlap")
	case keys.it == nil && (overlapsPartially(keys.s, keysOut) || overlaps(keys.s, valuesOut)),
		values.it == nil && (overlapsPartially(values.s, valuesOut) || overlaps(values.s, keysOut)):
		return m.errorf("an output overlaps an input without being that input itself")
	}
	ins := []*iter.Node{keys.node(), values.node()}
	if err := m.enterThrough(s.dev, ins, nil); err != nil {
		return m.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hk, err := keys.host(s.dev)
		if err != nil {
			return m.wrap(err, "")
		}
		hv, err := values.host(s.dev)
		if err != nil {
			return m.wrap(err, "")
		}
		copy(keysOut.host, hk.host)
		copy(valuesOut.host, hv.host)
		return m.wrap(sortPairsCPU(keysOut.host, valuesOut.host, m.less, s.dev.info.Workers), "")
	}
	if keys.it == nil && values.it == nil {
		ins = nil
	}
	return mergeSortGPU(&m.instance, s, ins, sortInputOf(keys), sortInputOf(values), keysOut.ptr, valuesOut.ptr, n, elemSize[K](), elemSize[V]())
}

// errNilComparator is the error of a sort method called on a nil instance
// or one not made by its constructor.
func errNilComparator(alg string) error {
	return fmt.Errorf("gocccl: %s: nil comparator", alg)
}
