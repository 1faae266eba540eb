package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// SegmentedInclusiveScanOp computes an inclusive prefix scan of every
// segment of a Slice, as cub::DeviceSegmentedScan::InclusiveSegmentedScan
// (CCCL 3.3): within a segment [b, e), out[i] = in[b] op … op in[i]. The
// operator must be associative; it need not be commutative (operands are
// combined in index order, only regrouped).
//
// Segments are given by begin and end offsets (Run) or by a size (RunFixed).
// Elements of out outside every segment are left as they are.
type SegmentedInclusiveScanOp[T any] struct {
	instance
	op func(T, T) T
}

// SegmentedInclusiveScan declares a segmented inclusive scan with op, a
// //gocccl:op function. The name puts Segmented first, as SegmentedReduce
// and SegmentedSort do, and the scan's kind next, as InclusiveScan does.
func SegmentedInclusiveScan[T any](op func(T, T) T) *SegmentedInclusiveScanOp[T] {
	return &SegmentedInclusiveScanOp[T]{op: op, instance: newInstance(algo.SegmentedInclusiveScan, []any{op}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its values and its begin and end
// offsets through iterator compositions (package iterator); see
// SegmentedReduceOp.Over. RunFixed reads no offsets: it runs the
// composition of in declared with plain offsets (iterator.Slice[int64]()).
func (o *SegmentedInclusiveScanOp[T]) Over(in Iterator[T], begin, end Iterator[int64]) *SegmentedInclusiveScanOp[T] {
	return o
}

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over. Only the elements
// inside segments are written through it.
func (o *SegmentedInclusiveScanOp[T]) Into(out OutputIterator[T]) *SegmentedInclusiveScanOp[T] {
	return o
}

// Run writes in[b] op … op in[i] to out[i] for every i of every segment
// [b, e) = [begin[s], end[s]), s < begin.Len(); begin and end have the same
// length (an offsets composition without one takes the other's), in and out
// equal lengths. With one offsets buffer of k+1 elements, pass
// offsets.Range(0, k) and offsets.Range(1, k+1).
//
// Segments may leave gaps, which out keeps as they were, and come in any
// order, but must not overlap. Offsets must satisfy 0 <= begin[s] <= end[s]
// <= in.Len(). The CPU backend checks both and returns an error. On a GPU
// the offsets live in device memory and are trusted, as by CUB: every
// segment is clamped to the input, so a bad offset never reads or writes
// outside it, and a segment with end < begin is empty; overlapping segments
// give unspecified results there.
//
// out may be in itself, but must not overlap it otherwise. It is enqueued
// on s (nil means the default stream of in's device) and returns without
// waiting on a GPU. It needs no scratch memory.
func (o *SegmentedInclusiveScanOp[T]) Run(s *Stream, in Input[T], begin, end Input[int64], out Output[T]) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedInclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedInclusiveNames, o.op, true, s, in, segmentsOf(begin, end), out, segInit[T]{})
}

// RunWithInit is Run with every segment seeded with init: out[i] = init op
// in[b] op … op in[i], as CUB 3.3's InclusiveSegmentedScan with an init
// value.
func (o *SegmentedInclusiveScanOp[T]) RunWithInit(s *Stream, in Input[T], begin, end Input[int64], out Output[T], init T) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedInclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedInclusiveNames, o.op, true, s, in, segmentsOf(begin, end), out, segInit[T]{true, init})
}

// RunFixed is Run over segments of segmentSize elements: segment s is
// [s*segmentSize, min((s+1)*segmentSize, in.Len())), so the last one is
// short when segmentSize does not divide in.Len(). segmentSize must be at
// least 1. Segments of at most one tile (1024 4-byte elements on sm_90) are
// scanned several to a block with no carry between blocks.
func (o *SegmentedInclusiveScanOp[T]) RunFixed(s *Stream, in Input[T], segmentSize int, out Output[T]) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedInclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedInclusiveNames, o.op, true, s, in, segments{size: segmentSize, fixed: true}, out, segInit[T]{})
}

// RunFixedWithInit is RunFixed with every segment seeded with init.
func (o *SegmentedInclusiveScanOp[T]) RunFixedWithInit(s *Stream, in Input[T], segmentSize int, out Output[T], init T) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedInclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedInclusiveNames, o.op, true, s, in, segments{size: segmentSize, fixed: true}, out, segInit[T]{true, init})
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// takes: none.
func (o *SegmentedInclusiveScanOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: SegmentedInclusiveScan: nil operator")
	}
	return segmentedScanTempBytes(&o.instance, n)
}

// SegmentedExclusiveScanOp computes an exclusive prefix scan of every
// segment of a Slice seeded with an init value, as
// cub::DeviceSegmentedScan::ExclusiveSegmentedScan: within a segment [b,
// e), out[b] = init and out[i] = init op in[b] op … op in[i-1]. No identity
// is needed. The operator must be associative; it need not be commutative.
// Elements of out outside every segment are left as they are.
type SegmentedExclusiveScanOp[T any] struct {
	instance
	op func(T, T) T
}

// SegmentedExclusiveScan declares a segmented exclusive scan with op, a
// //gocccl:op function.
func SegmentedExclusiveScan[T any](op func(T, T) T) *SegmentedExclusiveScanOp[T] {
	return &SegmentedExclusiveScanOp[T]{op: op, instance: newInstance(algo.SegmentedExclusiveScan, []any{op}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its values and offsets through
// iterator compositions; see SegmentedInclusiveScanOp.Over.
func (o *SegmentedExclusiveScanOp[T]) Over(in Iterator[T], begin, end Iterator[int64]) *SegmentedExclusiveScanOp[T] {
	return o
}

// Into declares the instance writing through the output iterator
// composition out; see SegmentedInclusiveScanOp.Into.
func (o *SegmentedExclusiveScanOp[T]) Into(out OutputIterator[T]) *SegmentedExclusiveScanOp[T] {
	return o
}

// Run writes init op in[b] op … op in[i-1] to out[i] (init to out[b]) for
// every i of every segment [b, e) = [begin[s], end[s]). Arguments, gaps and
// checks are as for SegmentedInclusiveScanOp.Run.
func (o *SegmentedExclusiveScanOp[T]) Run(s *Stream, in Input[T], begin, end Input[int64], out Output[T], init T) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedExclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedExclusiveNames, o.op, false, s, in, segmentsOf(begin, end), out, segInit[T]{true, init})
}

// RunFixed is Run over segments of segmentSize elements, the last one short
// when segmentSize does not divide in.Len(); see
// SegmentedInclusiveScanOp.RunFixed.
func (o *SegmentedExclusiveScanOp[T]) RunFixed(s *Stream, in Input[T], segmentSize int, out Output[T], init T) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: SegmentedExclusiveScan: nil operator")
	}
	return runSegmentedScan(&o.instance, &segmentedExclusiveNames, o.op, false, s, in, segments{size: segmentSize, fixed: true}, out, segInit[T]{true, init})
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// takes: none.
func (o *SegmentedExclusiveScanOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: SegmentedExclusiveScan: nil operator")
	}
	return segmentedScanTempBytes(&o.instance, n)
}

// segments is a call's segmentation: begin and end offsets, or a fixed
// size.
type segments struct {
	begin, end Input[int64]
	size       int
	fixed      bool
}

func segmentsOf(begin, end Input[int64]) segments { return segments{begin: begin, end: end} }

// segInit is an init value, if any.
type segInit[T any] struct {
	has   bool
	value T
}

// segmentedScanNames name a segmented scan and its arguments in messages:
// prebuilt, since building them per call would allocate.
type segmentedScanNames struct {
	alg                 string
	in, begin, end, out string
}

var (
	segmentedInclusiveNames = segmentedScanNames{"SegmentedInclusiveScan", "SegmentedInclusiveScan input",
		"SegmentedInclusiveScan begin offsets", "SegmentedInclusiveScan end offsets", "SegmentedInclusiveScan output"}
	segmentedExclusiveNames = segmentedScanNames{"SegmentedExclusiveScan", "SegmentedExclusiveScan input",
		"SegmentedExclusiveScan begin offsets", "SegmentedExclusiveScan end offsets", "SegmentedExclusiveScan output"}
)

// runSegmentedScan checks a segmented scan's arguments, then runs it on
// s's device.
func runSegmentedScan[T any](inst *instance, names *segmentedScanNames, op func(T, T) T, inclusive bool, s *Stream, in Input[T], seg segments, out Output[T], init segInit[T]) error {
	from, err := input(names.in, in)
	if err != nil {
		return err
	}
	to, err := output(names.out, out)
	if err != nil {
		return err
	}
	var b, e src[int64]
	if !seg.fixed {
		if b, err = inputOf(names.begin, seg.begin, true); err != nil {
			return err
		}
		if e, err = inputOf(names.end, seg.end, true); err != nil {
			return err
		}
		switch {
		case b.len() < 0 && e.len() < 0:
			return inst.errorf("neither the begin nor the end offsets have a length: give one of them Take(segments)")
		case b.len() < 0:
			b = b.withLen(e.len())
		case e.len() < 0:
			e = e.withLen(b.len())
		}
		s, err = streamFor(names.alg, s, from.dev(), to.dev(), b.dev(), e.dev())
	} else {
		s, err = streamFor(names.alg, s, from.dev(), to.dev())
	}
	if err != nil {
		return err
	}
	n := from.len()
	if m := to.len(); m >= 0 && m != n {
		return inst.errorf("input has %d elements, output %d", n, m)
	}
	if from.it == nil && to.it == nil && overlapsPartially(from.s, to.s) {
		return inst.errorf("output overlaps the input without being the input itself")
	}
	segs := 0
	if seg.fixed {
		if seg.size < 1 {
			return inst.errorf("segment size %d is not positive", seg.size)
		}
		segs = (n + seg.size - 1) / seg.size
	} else {
		if segs = b.len(); e.len() != segs {
			return inst.errorf("%d begin offsets but %d end offsets", segs, e.len())
		}
	}
	ins := []*iter.Node{from.node(), b.node(), e.node()}
	outs := []*iter.Node{to.node()}
	if err := inst.enterThrough(s.dev, ins, outs); err != nil {
		return inst.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return inst.wrap(segmentedScanHost(op, inclusive, s.dev, from, b, e, seg, to, init), "")
	}
	k, err := inst.kernelsThrough(s.dev, ins, outs)
	if err != nil {
		return err
	}
	if n == 0 || segs == 0 {
		return nil
	}
	var args cuda.Args
	if err := from.pack(&args); err != nil {
		return inst.wrap(err, "")
	}
	if err := to.pack(&args); err != nil {
		return inst.wrap(err, "")
	}
	args.Int64(int64(n))
	kernel, grid := segmentedScanBlock, min(segs, 1<<31-1)
	if seg.fixed {
		kernel = segmentedScanFixed
		args.Int64(int64(seg.size))
		if tile := k.policy.Tile(); seg.size <= tile {
			chunk := tile / seg.size * seg.size
			grid = min((n+chunk-1)/chunk, 1<<31-1)
		}
	} else {
		if err := b.pack(&args); err != nil {
			return inst.wrap(err, "")
		}
		if err := e.pack(&args); err != nil {
			return inst.wrap(err, "")
		}
		args.Int64(int64(segs))
	}
	args.Value(unsafe.Pointer(&init.value), int(unsafe.Sizeof(init.value)), int(unsafe.Alignof(init.value)))
	has := init.has
	args.Value(unsafe.Pointer(&has), 1, 1)
	return k.launch(kernel, grid, s, &args)
}

// The segmented scans' kernels, by their suffix in the descriptions.
var (
	segmentedScanBlock = kernelIndex("block", algo.SegmentedInclusiveScan, algo.SegmentedExclusiveScan)
	segmentedScanFixed = kernelIndex("fixed", algo.SegmentedInclusiveScan, algo.SegmentedExclusiveScan)
)

// segmentedScanTempBytes is TempStorageBytes of a segmented scan: none.
func segmentedScanTempBytes(inst *instance, n int) (int, error) {
	if n < 0 {
		return 0, inst.errorf("negative length %d", n)
	}
	return 0, nil
}

// SegmentedInclusiveScanWith is SegmentedInclusiveScan with per-call
// state: the scan operator is s.Op for the state s given to Bind.
func SegmentedInclusiveScanWith[S, T any](op func(S, T, T) T) *Stateful[S, *SegmentedInclusiveScanOp[T]] {
	in := newStatefulInstance[S](algo.SegmentedInclusiveScan, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *SegmentedInclusiveScanOp[T]]{bind: func(s S) *SegmentedInclusiveScanOp[T] {
		return &SegmentedInclusiveScanOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// SegmentedExclusiveScanWith is SegmentedExclusiveScan with per-call
// state: the scan operator is s.Op for the state s given to Bind.
func SegmentedExclusiveScanWith[S, T any](op func(S, T, T) T) *Stateful[S, *SegmentedExclusiveScanOp[T]] {
	in := newStatefulInstance[S](algo.SegmentedExclusiveScan, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *SegmentedExclusiveScanOp[T]]{bind: func(s S) *SegmentedExclusiveScanOp[T] {
		return &SegmentedExclusiveScanOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}
