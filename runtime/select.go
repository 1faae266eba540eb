package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/iter"
	"github.com/gocccl/gocccl/runtime/cuda"
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

// Run copies the elements of in for which pred holds, in their order, to
// the front of out, and writes their number to count[0]; the rest of out is
// left as it was. in is a Slice or an iterator composition bound for the
// call (package iterator) that an instance declared with Over; it has a
// length (a composition without one takes it from Take). out must hold at
// least as many elements as in and may not overlap it (nor be read by its
// composition). It is enqueued on s (nil means the default stream of out's
// device).
func (o *SelectOp[T]) Run(s *Stream, input Input[T], out *Slice[T], count *Slice[int64]) error {
	if o == nil || o.pred == nil {
		return errNilOperator("Select")
	}
	in, plain := input.(*Slice[T])
	if !plain && input != nil {
		return compactOver(&o.instance, s, input, out, count, func(in, out []T, workers int) (int, error) {
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
	return o.compact(s, in.n, 1, false, count.ptr, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d takes for the duration of the call: the tile states of its one pass.
// It is 0 on the CPU backend.
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

// Run writes the k elements of in for which pred holds, in their order, to
// out[0:k] and the others in reverse order to out[k:n], where n is in's
// length, and writes k to count[0]. in is a Slice or an iterator
// composition bound for the call that an instance declared with Over, as
// for SelectOp.Run. out must hold at least n elements and may not overlap
// in. It is enqueued on s (nil means the default stream of out's device).
func (o *PartitionOp[T]) Run(s *Stream, input Input[T], out *Slice[T], count *Slice[int64]) error {
	if o == nil || o.pred == nil {
		return errNilOperator("Partition")
	}
	in, plain := input.(*Slice[T])
	if !plain && input != nil {
		return compactOver(&o.instance, s, input, out, count, func(in, out []T, workers int) (int, error) {
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
	return o.compact(s, in.n, 1, false, count.ptr, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d takes for the duration of the call; 0 on the CPU backend.
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

// Run copies the elements of in for which first holds to the front of
// firstOut, of the others those for which second holds to the front of
// secondOut, and the rest to the front of unselected, each in their order;
// it writes the sizes of the first two parts to counts[0] and counts[1]
// (the third has n minus both, where n is in's length). in is a Slice or an
// iterator composition bound for the call that an instance declared with
// Over, as for SelectOp.Run. Each output must hold at least n elements; no
// two buffers may overlap (nor may in's composition read an output). It is
// enqueued on s (nil means the default stream of firstOut's device).
func (o *ThreeWayPartitionOp[T]) Run(s *Stream, input Input[T], firstOut, secondOut, unselected *Slice[T], counts *Slice[int64]) error {
	if o == nil || o.first == nil || o.second == nil {
		return errNilOperator("ThreeWayPartition")
	}
	in, plain := input.(*Slice[T])
	if !plain && input != nil {
		return o.runOver(s, input, firstOut, secondOut, unselected, counts)
	}
	name := o.name()
	outs := []buffer{bufferOf(name, "first output", firstOut), bufferOf(name, "second output", secondOut), bufferOf(name, "unselected output", unselected)}
	bcounts := bufferOf(name, "counts", counts)
	s, err := checkBuffers(name, s, append([]buffer{bufferOf(name, "input", in), bcounts}, outs...)...)
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
		a, b, err := threeWayCPU(o.first, o.second, in.host, firstOut.host, secondOut.host, unselected.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		counts.host[0], counts.host[1] = int64(a), int64(b)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(firstOut.ptr)
	args.Ptr(secondOut.ptr)
	args.Ptr(unselected.ptr)
	args.Ptr(counts.ptr)
	return o.compact(s, in.n, 1, true, counts.ptr, &args)
}

// runOver is Run over an input that is not a *Slice: an iterator
// composition bound for the call, which the instance declared with Over
// (or an iterator.Slice leaf alone, its buffer). Both backends require the
// composition's kernels; the CPU backend evaluates it with the Go
// operators.
func (o *ThreeWayPartitionOp[T]) runOver(s *Stream, input Input[T], firstOut, secondOut, unselected *Slice[T], counts *Slice[int64]) error {
	name := o.name()
	a, err := inputOf(name+" input", input, false)
	if err != nil {
		return err
	}
	outs := []buffer{bufferOf(name, "first output", firstOut), bufferOf(name, "second output", secondOut), bufferOf(name, "unselected output", unselected)}
	bcounts := bufferOf(name, "counts", counts)
	bufs := append(outs[:len(outs):len(outs)], bcounts)
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
	if err := o.enterThrough(s.dev, ins, o.plainOutputs()); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := a.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		k1, k2, err := threeWayCPU(o.first, o.second, h.host, firstOut.host, secondOut.host, unselected.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		counts.host[0], counts.host[1] = int64(k1), int64(k2)
		return nil
	}
	var args cuda.Args
	if err := a.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Ptr(firstOut.ptr)
	args.Ptr(secondOut.ptr)
	args.Ptr(unselected.ptr)
	args.Ptr(counts.ptr)
	if a.it == nil {
		ins = nil
	}
	return o.compactThrough(s, n, 1, true, counts.ptr, &args, ins)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d takes for the duration of the call; 0 on the CPU backend.
func (o *ThreeWayPartitionOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.first == nil || o.second == nil {
		return 0, errNilOperator("ThreeWayPartition")
	}
	return o.compactionScratch(d, n, true)
}
