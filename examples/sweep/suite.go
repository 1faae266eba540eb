package main

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// typeOps are one element type's instances and the Go operators the checks
// call.
type typeOps[T runtime.RadixKey] struct {
	name   string
	copy   *runtime.UnaryTransformOp[T, T]
	max    *runtime.ReduceOp[T]
	scan   *runtime.InclusiveScanOp[T]
	sel    *runtime.SelectOp[T]
	part   *runtime.PartitionOp[T]
	unique *runtime.UniqueOp[T]
	radix  *runtime.RadixSortKeysOp[T]
	merge  *runtime.MergeSortKeysOp[T]
	keep   func(T) bool
	less   func(T, T) bool
}

// suite is one element type's algorithms.
type suite interface {
	typeName() string
	algorithms() []algorithm
}

// algorithm is one state's work: run allocates fresh buffers of about
// bufBytes each on d, fills the input, runs the algorithm, checks the
// result, and frees the buffers or drops them. It returns the bytes it
// allocated.
type algorithm struct {
	name string
	run  func(d *runtime.Device, r *rand.Rand, bufBytes int64, free bool) (int64, error)
}

type typedSuite[T runtime.RadixKey] struct {
	ops  typeOps[T]
	algs []algorithm
}

func newSuite[T runtime.RadixKey](ops typeOps[T]) suite {
	s := &typedSuite[T]{ops: ops}
	s.algs = []algorithm{
		{"Reduce(Max)", s.reduce},
		{"InclusiveScan(Max)", s.inclusiveScan},
		{"Select(Keep)", func(d *runtime.Device, r *rand.Rand, b int64, free bool) (int64, error) {
			return s.selection(d, r, b, free, ops.sel.Run)
		}},
		{"Partition(Keep)", func(d *runtime.Device, r *rand.Rand, b int64, free bool) (int64, error) {
			return s.selection(d, r, b, free, ops.part.Run)
		}},
		{"Unique(Eq)", s.uniq},
		{"RadixSortKeys", func(d *runtime.Device, r *rand.Rand, b int64, free bool) (int64, error) {
			return s.sort(d, r, b, free, false, func(in, out *runtime.Slice[T]) error {
				return ops.radix.Run(nil, in, out, runtime.RadixOptions{})
			})
		}},
		{"MergeSortKeys(Less)", func(d *runtime.Device, r *rand.Rand, b int64, free bool) (int64, error) {
			return s.sort(d, r, b, free, true, func(in, _ *runtime.Slice[T]) error {
				return ops.merge.Run(nil, in)
			})
		}},
	}
	return s
}

func (s *typedSuite[T]) typeName() string        { return s.ops.name }
func (s *typedSuite[T]) algorithms() []algorithm { return s.algs }

// input is a state's fresh input: a block of random values uploaded once
// and copied on the device, by the suite's UnaryTransform, until it fills n
// items.
type input[T any] struct {
	dev   *runtime.Slice[T]
	block []T // the input is block repeated, the last copy cut at n
	n     int
}

// at returns the input's item i.
func (in *input[T]) at(i int) T { return in.block[i%len(in.block)] }

func (s *typedSuite[T]) newInput(d *runtime.Device, r *rand.Rand, bufBytes int64) (*input[T], error) {
	var zero T
	n := int(bufBytes / int64(unsafe.Sizeof(zero)))
	block := make([]T, min(n, 1<<22))
	for i := range block {
		block[i] = random[T](r)
	}
	blk, err := runtime.FromHost(d, block)
	if err != nil {
		return nil, err
	}
	defer blk.Free()
	dev, err := runtime.Alloc[T](d, n)
	if err != nil {
		return nil, err
	}
	for lo := 0; lo < n; lo += len(block) {
		hi := min(lo+len(block), n)
		if err := s.ops.copy.Run(nil, blk.Range(0, hi-lo), dev.Range(lo, hi)); err != nil {
			dev.Free()
			return nil, err
		}
	}
	return &input[T]{dev: dev, block: block, n: n}, nil
}

// random returns a random value of T: integers over their whole range,
// floats normally distributed.
func random[T runtime.RadixKey](r *rand.Rand) T {
	var v T
	switch p := any(&v).(type) {
	case *int8:
		*p = int8(r.Uint32())
	case *uint8:
		*p = uint8(r.Uint32())
	case *int16:
		*p = int16(r.Uint32())
	case *uint16:
		*p = uint16(r.Uint32())
	case *int32:
		*p = int32(r.Uint32())
	case *uint32:
		*p = r.Uint32()
	case *int64:
		*p = int64(r.Uint64())
	case *uint64:
		*p = r.Uint64()
	case *float32:
		*p = float32(r.NormFloat64())
	case *float64:
		*p = r.NormFloat64()
	default:
		panic(fmt.Sprintf("sweep: no random values of %T", v))
	}
	return v
}

// release frees the slices or leaves them to the garbage collector.
func release(free bool, ss ...interface{ Free() error }) error {
	if !free {
		return nil
	}
	for _, s := range ss {
		if err := s.Free(); err != nil {
			return err
		}
	}
	return nil
}

func (s *typedSuite[T]) reduce(d *runtime.Device, r *rand.Rand, bufBytes int64, free bool) (int64, error) {
	in, err := s.newInput(d, r, bufBytes)
	if err != nil {
		return 0, err
	}
	out, err := runtime.Alloc[T](d, 1)
	if err != nil {
		return 0, err
	}
	if err := s.ops.max.Run(nil, in.dev, out, in.block[0]); err != nil {
		return 0, err
	}
	got, err := out.ToHost()
	if err != nil {
		return 0, err
	}
	if want := maxOf(in.block); got[0] != want {
		return 0, fmt.Errorf("max %v, want %v", got[0], want)
	}
	return bytesOf(in.dev, out), release(free, in.dev, out)
}

func (s *typedSuite[T]) inclusiveScan(d *runtime.Device, r *rand.Rand, bufBytes int64, free bool) (int64, error) {
	in, err := s.newInput(d, r, bufBytes)
	if err != nil {
		return 0, err
	}
	out, err := runtime.Alloc[T](d, in.n)
	if err != nil {
		return 0, err
	}
	if err := s.ops.scan.Run(nil, in.dev, out); err != nil {
		return 0, err
	}
	// The running maximum: the first item, the block's maximum at the
	// block's end and at the input's end.
	for _, c := range []struct {
		i    int
		want T
	}{{0, in.block[0]}, {len(in.block) - 1, maxOf(in.block)}, {in.n - 1, maxOf(in.block)}} {
		if err := expectAt(out, c.i, c.want); err != nil {
			return 0, err
		}
	}
	return bytesOf(in.dev, out), release(free, in.dev, out)
}

// selection checks Select and Partition: both write the kept items first,
// in input order, and their count.
func (s *typedSuite[T]) selection(d *runtime.Device, r *rand.Rand, bufBytes int64, free bool,
	run func(*runtime.Stream, runtime.Input[T], runtime.Output[T], *runtime.Slice[int64]) error) (int64, error) {
	in, err := s.newInput(d, r, bufBytes)
	if err != nil {
		return 0, err
	}
	out, err := runtime.Alloc[T](d, in.n)
	if err != nil {
		return 0, err
	}
	count, err := runtime.FromHost(d, []int64{-1})
	if err != nil {
		return 0, err
	}
	if err := run(nil, in.dev, out, count); err != nil {
		return 0, err
	}
	var kept []T // the first kept items, up to 1024
	for i := 0; i < in.n && len(kept) < 1024; i++ {
		if v := in.at(i); s.ops.keep(v) {
			kept = append(kept, v)
		}
	}
	perBlock := int64(0)
	for _, v := range in.block {
		if s.ops.keep(v) {
			perBlock++
		}
	}
	full, rest := in.n/len(in.block), in.n%len(in.block)
	want := int64(full) * perBlock
	for _, v := range in.block[:rest] {
		if s.ops.keep(v) {
			want++
		}
	}
	c, err := count.ToHost()
	if err != nil {
		return 0, err
	}
	if c[0] != want {
		return 0, fmt.Errorf("count %d, want %d", c[0], want)
	}
	got, err := out.Range(0, len(kept)).ToHost()
	if err != nil {
		return 0, err
	}
	for i := range kept {
		if got[i] != kept[i] {
			return 0, fmt.Errorf("kept item %d is %v, want %v", i, got[i], kept[i])
		}
	}
	return bytesOf(in.dev, out) + 8, release(free, in.dev, out, count)
}

func (s *typedSuite[T]) uniq(d *runtime.Device, r *rand.Rand, bufBytes int64, free bool) (int64, error) {
	in, err := s.newInput(d, r, bufBytes)
	if err != nil {
		return 0, err
	}
	out, err := runtime.Alloc[T](d, in.n)
	if err != nil {
		return 0, err
	}
	count, err := runtime.FromHost(d, []int64{-1})
	if err != nil {
		return 0, err
	}
	if err := s.ops.unique.Run(nil, in.dev, out, count); err != nil {
		return 0, err
	}
	// Runs of equal items: those of each copy of the block, less one where
	// a copy ends with the item the next begins with.
	runs := func(xs []T) int64 {
		k := int64(0)
		for i := range xs {
			if i == 0 || xs[i] != xs[i-1] {
				k++
			}
		}
		return k
	}
	m := len(in.block)
	full, rest := in.n/m, in.n%m
	want := int64(full)*runs(in.block) + runs(in.block[:rest])
	if joins := full - 1 + min(rest, 1); joins > 0 && in.block[m-1] == in.block[0] {
		want -= int64(joins)
	}
	c, err := count.ToHost()
	if err != nil {
		return 0, err
	}
	if c[0] != want {
		return 0, fmt.Errorf("count %d, want %d", c[0], want)
	}
	if err := expectAt(out, 0, in.block[0]); err != nil {
		return 0, err
	}
	return bytesOf(in.dev, out) + 8, release(free, in.dev, out, count)
}

// sort checks a sort that writes out (or, inPlace, sorts in and is given
// no out): the minimum first, the maximum last, and 1024 evenly spaced
// items in order.
func (s *typedSuite[T]) sort(d *runtime.Device, r *rand.Rand, bufBytes int64, free, inPlace bool, run func(in, out *runtime.Slice[T]) error) (int64, error) {
	in, err := s.newInput(d, r, bufBytes)
	if err != nil {
		return 0, err
	}
	sorted, bufs := in.dev, []*runtime.Slice[T]{in.dev}
	if !inPlace {
		if sorted, err = runtime.Alloc[T](d, in.n); err != nil {
			return 0, err
		}
		bufs = append(bufs, sorted)
	}
	if err := run(in.dev, sorted); err != nil {
		return 0, err
	}
	if err := expectAt(sorted, 0, minOf(in.block)); err != nil {
		return 0, err
	}
	if err := expectAt(sorted, in.n-1, maxOf(in.block)); err != nil {
		return 0, err
	}
	prev := minOf(in.block)
	for k := range 1024 {
		i := int(int64(k) * int64(in.n) / 1024)
		v, err := sorted.Range(i, i+1).ToHost()
		if err != nil {
			return 0, err
		}
		if s.ops.less(v[0], prev) {
			return 0, fmt.Errorf("item %d (%v) is less than an item before it (%v)", i, v[0], prev)
		}
		prev = v[0]
	}
	allocated := int64(0)
	for _, b := range bufs {
		allocated += bytesOf(b)
		if err := release(free, b); err != nil {
			return 0, err
		}
	}
	return allocated, nil
}

// expectAt checks item i of s.
func expectAt[T comparable](s *runtime.Slice[T], i int, want T) error {
	got, err := s.Range(i, i+1).ToHost()
	if err != nil {
		return err
	}
	if got[0] != want {
		return fmt.Errorf("item %d is %v, want %v", i, got[0], want)
	}
	return nil
}

func maxOf[T cmp.Ordered](xs []T) T {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func minOf[T cmp.Ordered](xs []T) T {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// bytesOf returns the bytes the slices hold.
func bytesOf[T any](ss ...*runtime.Slice[T]) int64 {
	var zero T
	n := int64(0)
	for _, s := range ss {
		n += int64(s.Len()) * int64(unsafe.Sizeof(zero))
	}
	return n
}
