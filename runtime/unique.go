package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// UniqueOp keeps the first element of every run of consecutive equal
// elements, as cub::DeviceSelect::Unique does.
type UniqueOp[T any] struct {
	instance
	eq func(T, T) bool
}

// Unique declares a deduplication of consecutive elements with eq, a
// //gocccl:op function called as eq(previous, next) that reports whether
// next continues previous's run. With a != b as the opposite of eq, NaN keys
// each start a run; eq decides.
func Unique[T any](eq func(T, T) bool) *UniqueOp[T] {
	return &UniqueOp[T]{eq: eq, instance: newInstance(algo.Unique, []any{eq}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see SelectOp.Over.
func (o *UniqueOp[T]) Over(in Iterator[T]) *UniqueOp[T] { return o }

// Into declares the instance writing the first elements of the runs through
// the output iterator composition out (package iterator); see
// SelectOp.Into.
func (o *UniqueOp[T]) Into(out OutputIterator[T]) *UniqueOp[T] { return o }

// Run copies the first element of every run of consecutive elements of in
// that eq finds equal, in order, to the front of out, and writes their
// number to count[0]. in is a Slice or an iterator composition bound for
// the call that an instance declared with Over, and out a Slice or an
// output composition that an instance declared with Into, written at the
// indices [0, count), as for SelectOp.Run. out must hold at least as many
// elements as in and may not overlap it. It is enqueued on s (nil means the
// default stream of out's device).
func (o *UniqueOp[T]) Run(s *Stream, input Input[T], output Output[T], count *Slice[int64]) error {
	if o == nil || o.eq == nil {
		return errNilOperator("Unique")
	}
	in, plain := input.(*Slice[T])
	out, oplain := output.(*Slice[T])
	if !plain && input != nil || !oplain && output != nil {
		return compactOver(&o.instance, s, input, output, count, false, func(in, out []T, workers int) (int, error) {
			return uniqueCPU[T, struct{}](o.eq, in, nil, out, nil, workers)
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
		k, err := uniqueCPU[T, struct{}](o.eq, in.host, nil, out.host, nil, s.dev.info.Workers)
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
func (o *UniqueOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.eq == nil {
		return 0, errNilOperator("Unique")
	}
	return o.compactionScratch(d, n, false)
}

// UniqueByKeyOp keeps the first key of every run of consecutive equal keys
// and the value beside it, as cub::DeviceSelect::UniqueByKey does.
type UniqueByKeyOp[K, V any] struct {
	instance
	eq func(K, K) bool
}

// UniqueByKey declares a deduplication of consecutive keys with eq, a
// //gocccl:op function called as eq(previous, next). The value type appears
// in no operator, so an instance names both types:
// runtime.UniqueByKey[uint32, float32](Equal).
func UniqueByKey[K, V any](eq func(K, K) bool) *UniqueByKeyOp[K, V] {
	return &UniqueByKeyOp[K, V]{eq: eq, instance: newInstance(algo.UniqueByKey, []any{eq}, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Over declares the instance reading its keys and values through the
// iterator compositions keys and values (package iterator; an
// iterator.Slice for one read as a plain buffer); see SelectOp.Over:
//
//	var FirstOfRuns = runtime.UniqueByKey[int32, int64](Equal).Over(Buckets, iterator.Counting[int64]())
func (o *UniqueByKeyOp[K, V]) Over(keys Iterator[K], values Iterator[V]) *UniqueByKeyOp[K, V] {
	return o
}

// Into declares the instance writing the kept keys and values through the
// output iterator compositions keys and values (package iterator; an
// iterator.Slice for one written as a plain buffer); the count stays a
// Slice. With Discards it only counts the runs, so that the outputs can be
// allocated to size (cuda.compute's unique_by_key with DiscardIterators):
//
//	var Runs = runtime.UniqueByKey[int32, int64](Equal).Into(iterator.Discard[int32](), iterator.Discard[int64]())
//
// It returns o; see SelectOp.Into.
func (o *UniqueByKeyOp[K, V]) Into(keys OutputIterator[K], values OutputIterator[V]) *UniqueByKeyOp[K, V] {
	return o
}

// Run copies the first key of every run of consecutive keys that eq finds
// equal, in order, to the front of keysOut, the value at the same position
// of values to the front of valuesOut, and writes the number of runs to
// count[0]. keys and values are Slices or iterator compositions bound for
// the call that an instance declared with Over; keys has a length (a
// composition without one takes it from Take), and values has as many
// elements (one without a length reads as many). The outputs are Slices or
// output compositions bound for the call that an instance declared with
// Into, written at the indices [0, count); they hold at least as many
// elements as keys (a composition without a length, such as a Discard,
// takes any number); no two buffers overlap (nor may a composition read an
// output). It is enqueued on s (nil means the default stream of keys'
// device, or of keysOut's when keys is a composition).
func (o *UniqueByKeyOp[K, V]) Run(s *Stream, keysIn Input[K], valuesIn Input[V], keysOut Output[K], valuesOut Output[V], count *Slice[int64]) error {
	if o == nil || o.eq == nil {
		return errNilOperator("UniqueByKey")
	}
	keys, kplain := keysIn.(*Slice[K])
	values, vplain := valuesIn.(*Slice[V])
	kout, koplain := keysOut.(*Slice[K])
	vout, voplain := valuesOut.(*Slice[V])
	if !kplain && keysIn != nil || !vplain && valuesIn != nil || !koplain && keysOut != nil || !voplain && valuesOut != nil {
		return o.runOver(s, keysIn, valuesIn, keysOut, valuesOut, count)
	}
	name := o.name()
	bkeys, bvalues := bufferOf(name, "keys", keys), bufferOf(name, "values", values)
	bkout, bvout, bcount := bufferOf(name, "keys output", kout), bufferOf(name, "values output", vout), bufferOf(name, "count", count)
	s, err := checkBuffers(name, s, bkeys, bvalues, bkout, bvout, bcount)
	if err != nil {
		return err
	}
	if bvalues.n != bkeys.n {
		return o.errorf("%d keys but %d values", bkeys.n, bvalues.n)
	}
	for _, b := range []buffer{bkout, bvout} {
		if err := b.atLeast(name, keys.n, "keys it may receive"); err != nil {
			return err
		}
	}
	if err := bcount.atLeast(name, 1, "count it receives"); err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		k, err := uniqueCPU(o.eq, keys.host, values.host, kout.host, vout.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	args.Ptr(keys.ptr)
	args.Ptr(values.ptr)
	args.Ptr(kout.ptr)
	args.Ptr(vout.ptr)
	args.Ptr(count.ptr)
	return o.compact(s, keys.n, compactionSweep, false, count.ptr, &args)
}

// runOver is Run where an input or an output is not a *Slice: an iterator
// composition bound for the call, which the instance declared with Over or
// Into (or an iterator.Slice leaf alone, its buffer). Both backends require
// the compositions' kernels; the CPU backend evaluates them with the Go
// operators.
func (o *UniqueByKeyOp[K, V]) runOver(s *Stream, keysIn Input[K], valuesIn Input[V], keysOut Output[K], valuesOut Output[V], count *Slice[int64]) error {
	name := o.name()
	keys, err := inputOf(name+" keys", keysIn, false)
	if err != nil {
		return err
	}
	values, err := inputOf(name+" values", valuesIn, true)
	if err != nil {
		return err
	}
	kout, err := output(name+" keys output", keysOut)
	if err != nil {
		return err
	}
	vout, err := output(name+" values output", valuesOut)
	if err != nil {
		return err
	}
	n := keys.len()
	values = values.withLen(n)
	bkout, bvout, bcount := sinkBuffer(name, "keys output", kout), sinkBuffer(name, "values output", vout), bufferOf(name, "count", count)
	bufs := vout.written("values output", kout.written("keys output", []buffer{bkout, bvout, bcount}))
	if b, ok := srcBuffer(name, "keys", keys); ok {
		bufs = append(bufs, b)
	}
	if b, ok := srcBuffer(name, "values", values); ok {
		bufs = append(bufs, b)
	}
	if s, err = checkBuffers(name, s, bufs...); err != nil {
		return err
	}
	if values.len() != n {
		return o.errorf("%d keys but %d values", n, values.len())
	}
	for _, b := range []buffer{bkout, bvout} {
		if err := b.atLeast(name, n, "keys it may receive"); err != nil {
			return err
		}
	}
	if err := bcount.atLeast(name, 1, "count it receives"); err != nil {
		return err
	}
	ins, outs := []*iter.Node{keys.node(), values.node()}, o.outputs(kout.node(), vout.node())
	if err := o.enterThrough(s.dev, ins, outs); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hk, err := keys.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		hv, err := values.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		ok, ov := kout.host(s.dev, n), vout.host(s.dev, n)
		k, err := uniqueCPU(o.eq, hk.host, hv.host, ok.host, ov.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		if err := kout.flush(firsts(ok, k)); err != nil {
			return o.wrap(err, "")
		}
		if err := vout.flush(firsts(ov, k)); err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	// One call each: method values would take args to the heap.
	err = keys.pack(&args)
	if err == nil {
		err = values.pack(&args)
	}
	if err == nil {
		err = kout.pack(&args)
	}
	if err == nil {
		err = vout.pack(&args)
	}
	if err != nil {
		return o.wrap(err, "")
	}
	args.Ptr(count.ptr)
	return o.compactThrough(s, n, compactionSweep, false, count.ptr, &args, ins, outs)
}

// TempStorageBytes returns the device scratch memory a Run over n keys on d
// uses, as SelectOp.TempStorageBytes; 0 on the CPU backend.
func (o *UniqueByKeyOp[K, V]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.eq == nil {
		return 0, errNilOperator("UniqueByKey")
	}
	return o.compactionScratch(d, n, false)
}
