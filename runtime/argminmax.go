package runtime

import (
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// ArgReduceOp finds the least (ArgMin) or greatest (ArgMax) element of a
// sequence by an order and its index, as cub::DeviceReduce::ArgMin and
// ArgMax do.
//
// less must be a strict weak order (irreflexive, transitive, with
// transitive equivalence), as for MergeSortKeys: elements are compared in
// an unspecified order, and among equivalent elements (neither less than
// the other) the one with the lowest index wins. Floating-point NaNs follow
// from less: with less(a, b) = a < b a NaN is equivalent to every number,
// which breaks transitivity, so with NaNs in the input the result is
// unspecified (it may differ between the CPU backend and a GPU); an order
// that places NaNs (as math.IsNaN reports) before or after every number
// gives a defined result with them. -0 and +0 are equivalent under a < b.
type ArgReduceOp[T any] struct {
	instance
	less func(T, T) bool
	max  bool
}

// ArgMin declares a search for the least element by less, a //gocccl:op
// function: the first element no other element is less than.
func ArgMin[T any](less func(T, T) bool) *ArgReduceOp[T] {
	return &ArgReduceOp[T]{less: less, instance: newInstance(algo.ArgMin, []any{less}, reflect.TypeFor[T]())}
}

// ArgMax declares a search for the greatest element by less, a //gocccl:op
// function: the first element that is less than no other element.
func ArgMax[T any](less func(T, T) bool) *ArgReduceOp[T] {
	return &ArgReduceOp[T]{less: less, max: true, instance: newInstance(algo.ArgMax, []any{less}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator), so that gocccl-gen compiles it; call
// it on the constructor's result where the instance is declared. It
// returns o.
func (o *ArgReduceOp[T]) Over(in Iterator[T]) *ArgReduceOp[T] { return o }

// Run writes the extremum of in to value[0] and its index to index[0]. An
// empty input writes T's zero value and index -1 (CUB writes index 1 and
// the type's largest or lowest value, which an order on any T has no
// counterpart of). in is a Slice or an iterator composition bound for the
// call that an instance declared with Over; value and index hold at least
// one element each. It is enqueued on s (nil means the default stream of
// in's device) as one kernel and returns without waiting on the GPU; it
// makes no allocation (see TempStorageBytes).
func (o *ArgReduceOp[T]) Run(s *Stream, in Input[T], value *Slice[T], index *Slice[int64]) error {
	if o == nil || o.less == nil {
		return o.nilError()
	}
	src, err := inputAs(&o.instance, "input", in)
	if err != nil {
		return err
	}
	if err := value.usableAs(o.name(), "value output"); err != nil {
		return err
	}
	if err := index.usableAs(o.name(), "index output"); err != nil {
		return err
	}
	s, err = streamFor(o.name(), s, src.dev(), value.dev, index.dev)
	if err != nil {
		return err
	}
	if value.n < 1 {
		return o.errorf("value output has no element to write the extremum to")
	}
	if index.n < 1 {
		return o.errorf("index output has no element to write the index to")
	}
	ins := []*iter.Node{src.node()}
	if err := o.enterThrough(s.dev, ins, nil); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := src.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		v, i, err := argReduceCPU(o.less, o.max, h.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		value.host[0], index.host[0] = v, int64(i)
		return nil
	}
	k, err := o.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	n := src.len()
	tile := k.policy.Tile()
	grid := max(1, min((n+tile-1)/tile, k.resident))
	var scratch cuda.DevicePtr
	if grid > 1 {
		if scratch, err = s.zeroedScratch(argScratchBytes[T](grid)); err != nil {
			return o.wrap(err, "")
		}
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Ptr(value.ptr)
	args.Ptr(index.ptr)
	args.Ptr(scratch)
	return k.launch(argSweep, grid, s, &args)
}

func (o *ArgReduceOp[T]) nilError() error {
	if o != nil && o.max {
		return errNilOperator("ArgMax")
	}
	return errNilOperator("ArgMin")
}

// argSweep is the one kernel of ArgMin and ArgMax, by its suffix in the
// descriptions.
var argSweep = kernelIndex("sweep", algo.ArgMin, algo.ArgMax)

// argPairBytes is the size of gocccl::ArgPair<T>: an int64 index, then T.
func argPairBytes[T any]() int {
	var t T
	a := max(8, int(unsafe.Alignof(t)))
	return (8 + int(unsafe.Sizeof(t)) + a - 1) / a * a
}

// argScratchBytes is the scratch of the single pass over grid blocks
// (gocccl::ReduceScratch<ArgPair<T>>): a 16-byte counter slot, then a pair
// per block.
func argScratchBytes[T any](grid int) int { return reducePartialsOffset + grid*argPairBytes[T]() }

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the counter and per-block partials of the single pass, taken
// from the stream's own scratch, so a call makes no allocation. It is 0 on
// the CPU backend and for n within one tile.
func (o *ArgReduceOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.less == nil {
		return 0, o.nilError()
	}
	if n < 0 {
		return 0, o.errorf("negative length %d", n)
	}
	if err := o.enter(d); err != nil {
		return 0, err
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := o.kernels(d)
	if err != nil {
		return 0, err
	}
	tile := k.policy.Tile()
	if n <= tile {
		return 0, nil
	}
	return argScratchBytes[T](min((n+tile-1)/tile, k.resident)), nil
}

// SegmentedArgReduceOp finds the least (SegmentedArgMin) or greatest
// (SegmentedArgMax) element of every segment of a sequence and its index in
// the segment, as cub::DeviceSegmentedReduce::ArgMin and ArgMax do. The
// order is as for ArgReduceOp.
type SegmentedArgReduceOp[T any] struct {
	instance
	less func(T, T) bool
	max  bool
}

// SegmentedArgMin declares a per-segment ArgMin with less, a //gocccl:op
// function.
func SegmentedArgMin[T any](less func(T, T) bool) *SegmentedArgReduceOp[T] {
	return &SegmentedArgReduceOp[T]{less: less,
		instance: newInstance(algo.SegmentedArgMin, []any{less}, reflect.TypeFor[T]())}
}

// SegmentedArgMax declares a per-segment ArgMax with less, a //gocccl:op
// function.
func SegmentedArgMax[T any](less func(T, T) bool) *SegmentedArgReduceOp[T] {
	return &SegmentedArgReduceOp[T]{less: less, max: true,
		instance: newInstance(algo.SegmentedArgMax, []any{less}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its values and its begin and end
// offsets through iterator compositions (package iterator), as
// SegmentedReduceOp.Over does. It returns o.
func (o *SegmentedArgReduceOp[T]) Over(in Iterator[T], begin, end Iterator[int64]) *SegmentedArgReduceOp[T] {
	return o
}

// Run writes, for every segment s < begin.Len(), the extremum of
// in[begin[s]:end[s]] to value[s] and its index relative to begin[s] to
// index[s] (the lowest among equivalent elements); an empty segment writes
// T's zero value and index -1 (CUB: index 1 and the type's largest or
// lowest value). begin and end have the same length, value and index at
// least that many elements; segments may overlap, leave gaps and come in
// any order. With one offsets buffer of k+1 elements, pass
// offsets.Range(0, k) and offsets.Range(1, k+1).
//
// in, begin and end are Slices or iterator compositions bound for the call
// that an instance declared with Over; an offsets composition without a
// length takes the other's.
//
// Offsets must satisfy 0 <= begin[s] <= end[s] <= in.Len(). The CPU backend
// checks them and returns an error. On a GPU they are trusted, as by CUB:
// the kernels clamp every segment to the input, and a segment with end <
// begin is empty. It is enqueued on s (nil means the default stream of in's
// device) and needs no scratch memory.
func (o *SegmentedArgReduceOp[T]) Run(s *Stream, in Input[T], begin, end Input[int64], value *Slice[T], index *Slice[int64]) error {
	if o == nil || o.less == nil {
		return o.nilError()
	}
	src, err := inputAs(&o.instance, "input", in)
	if err != nil {
		return err
	}
	b, err := inputOf(o.name()+" begin offsets", begin, true)
	if err != nil {
		return err
	}
	e, err := inputOf(o.name()+" end offsets", end, true)
	if err != nil {
		return err
	}
	if err := value.usableAs(o.name(), "value output"); err != nil {
		return err
	}
	if err := index.usableAs(o.name(), "index output"); err != nil {
		return err
	}
	switch {
	case b.len() < 0 && e.len() < 0:
		return o.errorf("neither the begin nor the end offsets have a length: give one of them Take(segments)")
	case b.len() < 0:
		b = b.withLen(e.len())
	case e.len() < 0:
		e = e.withLen(b.len())
	}
	s, err = streamFor(o.name(), s, src.dev(), b.dev(), e.dev(), value.dev, index.dev)
	if err != nil {
		return err
	}
	segs := b.len()
	if e.len() != segs {
		return o.errorf("%d begin offsets but %d end offsets", segs, e.len())
	}
	if value.n < segs {
		return o.errorf("value output has %d elements, fewer than the %d segments", value.n, segs)
	}
	if index.n < segs {
		return o.errorf("index output has %d elements, fewer than the %d segments", index.n, segs)
	}
	ins := []*iter.Node{src.node(), b.node(), e.node()}
	if err := o.enterThrough(s.dev, ins, nil); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hin, err := src.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		hb, err := b.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		he, err := e.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		return o.wrap(segmentedArgReduceCPU(o.less, o.max, hin.host, hb.host, he.host, value.host, index.host, s.dev.info.Workers), "")
	}
	k, err := o.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	if segs == 0 {
		return nil
	}
	n := src.len()
	kernel, grid := segmentedDispatch(n, segs, k.policy.BlockThreads, k.policy.Tile(), k.maxBlocks)
	if kernel == segmentedWarp {
		kernel = segmentedArgWarp
	} else {
		kernel = segmentedArgBlock
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(n))
	if err := b.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	if err := e.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(segs))
	args.Ptr(value.ptr)
	args.Ptr(index.ptr)
	return k.launch(kernel, grid, s, &args)
}

func (o *SegmentedArgReduceOp[T]) nilError() error {
	if o != nil && o.max {
		return errNilOperator("SegmentedArgMax")
	}
	return errNilOperator("SegmentedArgMin")
}

// The kernels of SegmentedArgMin and SegmentedArgMax, by their suffix in
// the descriptions.
var (
	segmentedArgWarp  = kernelIndex("warp", algo.SegmentedArgMin, algo.SegmentedArgMax)
	segmentedArgBlock = kernelIndex("block", algo.SegmentedArgMin, algo.SegmentedArgMax)
)

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (o *SegmentedArgReduceOp[T]) TempStorageBytes(d *Device, segments int) (int, error) {
	if o == nil || o.less == nil {
		return 0, o.nilError()
	}
	if segments < 0 {
		return 0, o.errorf("negative segment count %d", segments)
	}
	return 0, nil
}
