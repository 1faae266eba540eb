package runtime

import (
	"reflect"
	"sync/atomic"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// FindIfOp finds the first element of a sequence for which a predicate
// holds, as cub::DeviceFind::FindIf (CCCL 3.1) does.
type FindIfOp[T any] struct {
	instance
	pred func(T) bool
}

// FindIf declares a search for the first element where pred, a
// //gocccl:op function, holds.
func FindIf[T any](pred func(T) bool) *FindIfOp[T] {
	return &FindIfOp[T]{pred: pred, instance: newInstance(algo.FindIf, []any{pred}, reflect.TypeFor[T]())}
}

// FindIfWith is FindIf with per-call state: the predicate is s.Op for the
// state s given to Bind (a key known only at run time, say).
func FindIfWith[S, T any](pred func(S, T) bool) *Stateful[S, *FindIfOp[T]] {
	in := newStatefulInstance[S](algo.FindIf, []any{pred}, reflect.TypeFor[T]())
	return &Stateful[S, *FindIfOp[T]]{bind: func(s S) *FindIfOp[T] {
		return &FindIfOp[T]{instance: bound(in, &s), pred: func(x T) bool { return pred(s, x) }}
	}}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator), so that gocccl-gen compiles it; call
// it on the constructor's result where the instance is declared:
//
//	var FirstBigSquare = runtime.FindIf(IsBig).Over(Squares)
//
// It returns o: any FindIf(pred) instance then runs the composition.
func (o *FindIfOp[T]) Over(in Iterator[T]) *FindIfOp[T] { return o }

// Run writes to out[0] the least index i with pred(in[i]), or in's length
// when pred holds for no element (an empty input gives 0). in is a Slice or
// an iterator composition bound for the call (package iterator) that an
// instance declared with Over; it has a length. out holds at least one
// element. It is enqueued on s (nil means the default stream of in's
// device) as one kernel and returns without waiting on the GPU.
//
// The search stops early: a block of the kernel skips every tile that
// starts past a hit already found, so a hit near the front costs about one
// wave of tiles, not a read of the input. pred may therefore be called on
// any element, including elements after the first hit, and must have no
// effect beyond its result. It makes no allocation (see TempStorageBytes).
func (o *FindIfOp[T]) Run(s *Stream, in Input[T], out *Slice[int64]) error {
	if o == nil || o.pred == nil {
		return errNilOperator("FindIf")
	}
	src, err := inputAs(&o.instance, "input", in)
	if err != nil {
		return err
	}
	if err := out.usableAs(o.name(), "output"); err != nil {
		return err
	}
	s, err = streamFor(o.name(), s, src.dev(), out.dev)
	if err != nil {
		return err
	}
	if out.n < 1 {
		return o.errorf("output has no element to write the index to")
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
		i, err := findIfCPU(o.pred, h.host, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		out.host[0] = int64(i)
		return nil
	}
	k, err := o.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	n := src.len()
	tile := k.policy.Tile()
	grid := max(1, min((n+tile-1)/tile, k.resident))
	scratch, err := s.zeroedScratch(findScratchBytes)
	if err != nil {
		return o.wrap(err, "")
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return o.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Ptr(out.ptr)
	args.Ptr(scratch)
	return k.launch(findIfSweep, grid, s, &args)
}

// findIfSweep is FindIf's one kernel, by its suffix in the description.
var findIfSweep = kernelIndex("sweep", algo.FindIf)

// findScratchBytes is the scratch of find_if (gocccl::detail::FindScratch):
// a counter of finished blocks and the first hit found so far, both zero
// between calls.
const findScratchBytes = 16

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: 16 bytes of the stream's own scratch (allocated once per
// stream and reused by every call on it), so a call makes no allocation.
// It is 0 on the CPU backend.
func (o *FindIfOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.pred == nil {
		return 0, errNilOperator("FindIf")
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
	return findScratchBytes, nil
}

// findIfCPU returns the least i with pred(in[i]), or len(in): chunks in
// parallel, each stopping at its first hit or once an earlier chunk has
// one.
func findIfCPU[T any](pred func(T) bool, in []T, workers int) (int, error) {
	var first atomic.Int64
	first.Store(int64(len(in)))
	_, err := parallel(len(in), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if i&1023 == 0 && first.Load() < int64(lo) {
				return
			}
			if pred(in[i]) {
				for {
					f := first.Load()
					if f <= int64(i) || first.CompareAndSwap(f, int64(i)) {
						return
					}
				}
			}
		}
	})
	if err != nil {
		return 0, err
	}
	return int(first.Load()), nil
}
