package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// SelectOp copies the elements of a Slice for which a predicate holds, in
// order, as cub::DeviceSelect::If does.
type SelectOp[T any] struct {
	instance
	pred func(T) bool
}

// Select declares a selection with pred, a //gocccl:op function.
func Select[T any](pred func(T) bool) *SelectOp[T] {
	return &SelectOp[T]{pred: pred, instance: newInstance(algo.Select, []any{pred}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator), so that gocccl-gen compiles it; call
// it on the constructor's result where the instance is declared:
//
//	var BrightSquares = runtime.Select(IsBright).Over(Squares)
//
// It returns o: any Select(pred) instance then runs the composition.
func (o *SelectOp[T]) Over(in Iterator[T]) *SelectOp[T] { return o }

// Into declares the instance writing the selected elements through the
// output iterator composition out (package iterator), as Over declares its
// input; the count stays a Slice:
//
//	var Halves = runtime.Select(IsOdd).Into(iterator.TransformOutput(iterator.Slice[int32](), Half))
//
// It returns o.
func (o *SelectOp[T]) Into(out OutputIterator[T]) *SelectOp[T] { return o }

// Run copies the elements of in for which pred holds, in their order, to
// the front of out, and writes their number to count[0]; the rest of out is
// left as it was. in is a Slice or an iterator composition bound for the
// call (package iterator) that an instance declared with Over; it has a
// length (a composition without one takes it from Take). out is a Slice or
// an output composition bound for the call that an instance declared with
// Into, written at the indices [0, count); it must hold at least as many
// elements as in (a composition without a length, such as a Discard, takes
// any number) and may not overlap in (nor be read by its composition). It
// is enqueued on s (nil means the default stream of out's device).
func (o *SelectOp[T]) Run(s *Stream, input Input[T], output Output[T], count *Slice[int64]) error {
	if o == nil || o.pred == nil {
		return errNilOperator("Select")
	}
	in, plain := input.(*Slice[T])
	out, oplain := output.(*Slice[T])
	if !plain && input != nil || !oplain && output != nil {
		return compactOver(&o.instance, s, input, output, count, false, func(in, out []T, workers int) (int, error) {
			return selectCPU(o.pred, in, out, false, workers)
		})
	}
	name := o.name()
	bin, bout, bcount := bufferOf(name, "input", in), bufferOf(name, "output", out), bufferOf(name, "count", count)
	s, err := checkBuffers(name, s, bin, bout, bcount)
	if err != nil {
		return err
	}
	if err := bout.atLeast(name, in.n, "input elements it may receive"); err != nil {
		return err
	}
	if err := bcount.atLeast(name, 1, "count it receives"); err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		k, err := selectCPU(o.pred, in.host, out.host, false, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(out.ptr)
	args.Ptr(count.ptr)
	return o.compact(s, in.n, compactionSweep, false, count.ptr, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the epoch-tagged tile states of its one pass, in the stream's
// own memory for them, which the stream keeps and reuses with no allocation
// and no init launch per call (it grows once when a call needs more). It is
// 0 on the CPU backend and for n within one tile. Every compaction's
// (Partition, ThreeWayPartition, Unique, UniqueByKey, RunLengthEncode) works
// the same way.
func (o *SelectOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.pred == nil {
		return 0, errNilOperator("Select")
	}
	return o.compactionScratch(d, n, false)
}

// PartitionOp splits a Slice in two by a predicate, as
// cub::DevicePartition::If does: the elements for which it holds in order,
// then the others in reverse order.
type PartitionOp[T any] struct {
	instance
	pred func(T) bool
}

// Partition declares a partition with pred, a //gocccl:op function.
func Partition[T any](pred func(T) bool) *PartitionOp[T] {
	return &PartitionOp[T]{pred: pred, instance: newInstance(algo.Partition, []any{pred}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see SelectOp.Over.
func (o *PartitionOp[T]) Over(in Iterator[T]) *PartitionOp[T] { return o }

// Into declares the instance writing the partitioned elements through the
// output iterator composition out (package iterator); see SelectOp.Into.
func (o *PartitionOp[T]) Into(out OutputIterator[T]) *PartitionOp[T] { return o }

// Run writes the k elements of in for which pred holds, in their order, to
// out[0:k] and the others in reverse order to out[k:n], where n is in's
// length, and writes k to count[0]. in is a Slice or an iterator
// composition bound for the call that an instance declared with Over, and
// out a Slice or an output composition that an instance declared with
// Into, written at the indices [0, n), as for SelectOp.Run. out must hold
// at least n elements and may not overlap in. It is enqueued on s (nil
// means the default stream of out's device).
func (o *PartitionOp[T]) Run(s *Stream, input Input[T], output Output[T], count *Slice[int64]) error {
	if o == nil || o.pred == nil {
		return errNilOperator("Partition")
	}
	in, plain := input.(*Slice[T])
	out, oplain := output.(*Slice[T])
	if !plain && input != nil || !oplain && output != nil {
		return compactOver(&o.instance, s, input, output, count, true, func(in, out []T, workers int) (int, error) {
			return selectCPU(o.pred, in, out, true, workers)
		})
	}
	name := o.name()
	bin, bout, bcount := bufferOf(name, "input", in), bufferOf(name, "output", out), bufferOf(name, "count", count)
	s, err := checkBuffers(name, s, bin, bout, bcount)
	if err != nil {
		return err
	}
	if err := bout.atLeast(name, in.n, "input elements it receives"); err != nil {
		return err
	}
	if err := bcount.atLeast(name, 1, "count it receives"); err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		k, err := selectCPU(o.pred, in.host, out.host, true, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(out.ptr)
	args.Ptr(count.ptr)
	return o.compact(s, in.n, compactionSweep, false, count.ptr, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses, as SelectOp.TempStorageBytes; 0 on the CPU backend.
func (o *PartitionOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.pred == nil {
		return 0, errNilOperator("Partition")
	}
	return o.compactionScratch(d, n, false)
}

// ThreeWayPartitionOp splits a Slice in three by two predicates, as
// cub::DevicePartition::If with two operators does.
type ThreeWayPartitionOp[T any] struct {
	instance
	first, second func(T) bool
}

// ThreeWayPartition declares a three-way partition with first and second,
// //gocccl:op functions.
func ThreeWayPartition[T any](first, second func(T) bool) *ThreeWayPartitionOp[T] {
	return &ThreeWayPartitionOp[T]{first: first, second: second,
		instance: newInstance(algo.ThreeWayPartition, []any{first, second}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see SelectOp.Over:
//
//	var Bands = runtime.ThreeWayPartition(Low, Mid).Over(Squares)
func (o *ThreeWayPartitionOp[T]) Over(in Iterator[T]) *ThreeWayPartitionOp[T] { return o }

// Into declares the instance writing its three parts through the output
// iterator compositions first, second and unselected (package iterator; an
// iterator.Slice for one written as a plain buffer); see SelectOp.Into:
//
//	var LowOnly = runtime.ThreeWayPartition(Low, Mid).Into(iterator.Slice[int32](), iterator.Discard[int32](), iterator.Discard[int32]())
func (o *ThreeWayPartitionOp[T]) Into(first, second, unselected OutputIterator[T]) *ThreeWayPartitionOp[T] {
	return o
}

// Run copies the elements of in for which first holds to the front of
// firstOut, of the others those for which second holds to the front of
// secondOut, and the rest to the front of unselected, each in their order;
// it writes the sizes of the first two parts to counts[0] and counts[1]
// (the third has n minus both, where n is in's length). in is a Slice or an
// iterator composition bound for the call that an instance declared with
// Over, and each output a Slice or an output composition that an instance
// declared with Into, written at the indices [0, its part's size), as for
// SelectOp.Run. Each output must hold at least n elements; no two buffers
// may overlap (nor may in's composition read an output). It is enqueued on
// s (nil means the default stream of firstOut's device).
func (o *ThreeWayPartitionOp[T]) Run(s *Stream, input Input[T], firstOut, secondOut, unselectedOut Output[T], counts *Slice[int64]) error {
	if o == nil || o.first == nil || o.second == nil {
		return errNilOperator("ThreeWayPartition")
	}
	in, plain := input.(*Slice[T])
	first, plain1 := firstOut.(*Slice[T])
	second, plain2 := secondOut.(*Slice[T])
	unselected, plain3 := unselectedOut.(*Slice[T])
	if !plain && input != nil || !plain1 && firstOut != nil || !plain2 && secondOut != nil || !plain3 && unselectedOut != nil {
		return o.runOver(s, input, firstOut, secondOut, unselectedOut, counts)
	}
	name := o.name()
	outs := [3]buffer{bufferOf(name, "first output", first), bufferOf(name, "second output", second), bufferOf(name, "unselected output", unselected)}
	bcounts := bufferOf(name, "counts", counts)
	s, err := checkBuffers(name, s, bufferOf(name, "input", in), bcounts, outs[0], outs[1], outs[2])
	if err != nil {
		return err
	}
	for _, b := range outs {
		if err := b.atLeast(name, in.n, "input elements it may receive"); err != nil {
			return err
		}
	}
	if err := bcounts.atLeast(name, 2, "counts it receives"); err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		a, b, err := threeWayCPU(o.first, o.second, in.host, first.host, second.host, unselected.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		counts.host[0], counts.host[1] = int64(a), int64(b)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(first.ptr)
	args.Ptr(second.ptr)
	args.Ptr(unselected.ptr)
	args.Ptr(counts.ptr)
	return o.compact(s, in.n, compactionSweep, true, counts.ptr, &args)
}

// runOver is Run where the input or an output is not a *Slice: an iterator
// composition bound for the call, which the instance declared with Over or
// Into (or an iterator.Slice leaf alone, its buffer). Both backends require
// the compositions' kernels; the CPU backend evaluates them with the Go
// operators.
func (o *ThreeWayPartitionOp[T]) runOver(s *Stream, input Input[T], firstOut, secondOut, unselectedOut Output[T], counts *Slice[int64]) error {
	name := o.name()
	a, err := inputOf(name+" input", input, false)
	if err != nil {
		return err
	}
	var dsts [3]sink[T]
	roles := [3]string{"first output", "second output", "unselected output"}
	for i, out := range []Output[T]{firstOut, secondOut, unselectedOut} {
		if dsts[i], err = output(name+" "+roles[i], out); err != nil {
			return err
		}
	}
	outs := make([]buffer, len(dsts))
	for i, d := range dsts {
		outs[i] = sinkBuffer(name, roles[i], d)
	}
	bcounts := bufferOf(name, "counts", counts)
	bufs := append(outs[:len(outs):len(outs)], bcounts)
	for i, d := range dsts {
		bufs = d.written(roles[i], bufs)
	}
	if b, ok := srcBuffer(name, "input", a); ok {
		bufs = append(bufs, b)
	}
	if s, err = checkBuffers(name, s, bufs...); err != nil {
		return err
	}
	n := a.len()
	for _, b := range outs {
		if err := b.atLeast(name, n, "input elements it may receive"); err != nil {
			return err
		}
	}
	if err := bcounts.atLeast(name, 2, "counts it receives"); err != nil {
		return err
	}
	ins := []*iter.Node{a.node()}
	onodes := o.outputs(dsts[0].node(), dsts[1].node(), dsts[2].node())
	if err := o.enterThrough(s.dev, ins, onodes); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := a.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		var hs [3]*Slice[T]
		for i, d := range dsts {
			hs[i] = d.host(s.dev, n)
		}
		k1, k2, err := threeWayCPU(o.first, o.second, h.host, hs[0].host, hs[1].host, hs[2].host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		for i, k := range [3]int{k1, k2, n - k1 - k2} {
			if err := dsts[i].flush(firsts(hs[i], k)); err != nil {
				return o.wrap(err, "")
			}
		}
		counts.host[0], counts.host[1] = int64(k1), int64(k2)
		return nil
	}
	var args cuda.Args
	if err := a.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	for _, d := range dsts {
		if err := d.pack(&args); err != nil {
			return o.wrap(err, "")
		}
	}
	args.Ptr(counts.ptr)
	return o.compactThrough(s, n, compactionSweep, true, counts.ptr, &args, ins, onodes)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses, as SelectOp.TempStorageBytes; 0 on the CPU backend.
func (o *ThreeWayPartitionOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.first == nil || o.second == nil {
		return 0, errNilOperator("ThreeWayPartition")
	}
	return o.compactionScratch(d, n, true)
}
