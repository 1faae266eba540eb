package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// SearchOp finds, for many search values at once, where each would go in
// sorted data: LowerBound or UpperBound.
type SearchOp[T any] struct {
	instance
	less  func(T, T) bool
	upper bool
}

// LowerBound declares a vectorized lower-bound search ordered by less, a
// //gocccl:op function that is a strict weak ordering: for each search value
// v, the first index i of the data with !less(data[i], v), as sort.Search
// and cub::DeviceFind::LowerBound find it.
func LowerBound[T any](less func(T, T) bool) *SearchOp[T] {
	return &SearchOp[T]{less: less, instance: newInstance(algo.LowerBound, []any{less}, reflect.TypeFor[T]())}
}

// UpperBound declares a vectorized upper-bound search ordered by less: for
// each search value v, the first index i of the data with less(v, data[i]).
func UpperBound[T any](less func(T, T) bool) *SearchOp[T] {
	return &SearchOp[T]{less: less, upper: true, instance: newInstance(algo.UpperBound, []any{less}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its sorted data and its search values
// through iterator compositions (package iterator), so that gocccl-gen
// compiles them; pass iterator.Slice for one read as a plain buffer. Call
// it on the constructor's result where the instance is declared:
//
//	var Where = runtime.LowerBound(Less).Over(iterator.Slice[int32](), iterator.Transform(iterator.Counting[int32](), Square))
//
// It returns o: any instance of the same search and operator then runs the
// compositions.
func (o *SearchOp[T]) Over(data, values Iterator[T]) *SearchOp[T] { return o }

// Run writes to out[i] the index of values[i] in data, which must be sorted
// by less (data[0:len(data)] partitioned with respect to every value
// suffices); the index is in [0, data.Len()]. out has at least as many
// elements as values; it is enqueued on s (nil means the default stream of
// data's device). data and values are Slices or iterator compositions bound
// for the call that an instance declared with Over; both need a length.
func (o *SearchOp[T]) Run(s *Stream, data, values Input[T], out *Slice[int64]) error {
	return o.run(s, data, values, out, false)
}

// RunSorted is Run for search values that are sorted by less too, as
// cub::DeviceFind's searches of sorted values (CCCL 3.5): the same indices,
// found on a GPU by one merge of the two sequences, which reads every item
// once, where that costs less than a binary search of every value (when the
// data is not many times longer than the values). Values that are not
// sorted give unspecified indices on a GPU; the CPU backend reports the
// first pair out of order, before writing anything.
func (o *SearchOp[T]) RunSorted(s *Stream, data, values Input[T], out *Slice[int64]) error {
	return o.run(s, data, values, out, true)
}

// sortedMerge reports whether a search of sorted values runs the merge:
// while the data is at most this many times as long as the values. The
// merge reads n_data + n_values items once; the binary searches read about
// log2(n_data) dependent items a value, mostly from cache when neighbouring
// values are close. Not yet timed on a GPU.
const sortedMerge = 4

func (o *SearchOp[T]) run(s *Stream, data, values Input[T], out *Slice[int64], sorted bool) error {
	if o == nil || o.less == nil {
		return fmt.Errorf("gocccl: search: nil comparison")
	}
	hay, err := inputAs(&o.instance, "data", data)
	if err != nil {
		return err
	}
	needles, err := inputAs(&o.instance, "values", values)
	if err != nil {
		return err
	}
	if err := out.usableAs(o.name(), "output"); err != nil {
		return err
	}
	s, err = streamFor(o.name(), s, hay.dev(), needles.dev(), out.dev)
	if err != nil {
		return err
	}
	nv := needles.len()
	if out.n < nv {
		return o.errorf("output has %d elements, fewer than the %d search values", out.n, nv)
	}
	ins := []*iter.Node{hay.node(), needles.node()}
	if err := o.enterThrough(s.dev, ins, nil); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hd, err := hay.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		hv, err := needles.host(s.dev)
		if err != nil {
			return o.wrap(err, "")
		}
		d, v, dst := hd.host, hv.host, out.host
		if sorted {
			for i := 1; i < nv; i++ {
				if o.less(v[i], v[i-1]) {
					return o.errorf("search values are not sorted: values[%d] orders before values[%d]", i, i-1)
				}
			}
		}
		_, err = parallel(nv, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				dst[i] = int64(o.searchCPU(d, v[i]))
			}
		})
		return o.wrap(err, "")
	}
	// The kernels first, so that an empty call of a composition no
	// instance declared fails on a GPU as on the CPU backend.
	k, err := o.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	if nv == 0 {
		return nil
	}
	var args cuda.Args
	if err := hay.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(hay.len()))
	if err := needles.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(nv))
	args.Ptr(out.ptr)
	threads := k.policy.BlockThreads
	if nd := hay.len(); sorted && int64(nd) <= sortedMerge*int64(nv) {
		tile := int64(threads) * int64(k.policy.ItemsPerThread)
		return k.launch(searchSortedKernel, int((int64(nd)+int64(nv)+tile-1)/tile), s, &args)
	}
	return k.launch(searchKernel, min((nv+threads-1)/threads, k.maxBlocks), s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (o *SearchOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.less == nil {
		return 0, fmt.Errorf("gocccl: search: nil comparison")
	}
	if n < 0 {
		return 0, fmt.Errorf("gocccl: %s: negative length %d", o.name(), n)
	}
	if err := o.enter(d); err != nil {
		return 0, err
	}
	d.exit()
	return 0, nil
}

// searchKernel and searchSortedKernel are the kernels of LowerBound and
// UpperBound, by their suffixes in the descriptions: the binary search of
// every value and the merge of sorted values.
var (
	searchKernel       = kernelIndex("", algo.LowerBound, algo.UpperBound)
	searchSortedKernel = kernelIndex("sorted", algo.LowerBound, algo.UpperBound)
)
