package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// TransformIfOp applies an operator to the elements a predicate selects,
// writing each result in its element's place (thrust::transform_if).
type TransformIfOp[In, Out any] struct {
	instance
	op   func(In) Out
	pred func(In) bool
}

// TransformIf declares out[i] = op(in[i]) wherever pred(in[i]) holds, for
// op and pred, //gocccl:op functions; the other elements of out are left as
// they are.
func TransformIf[In, Out any](op func(In) Out, pred func(In) bool) *TransformIfOp[In, Out] {
	return &TransformIfOp[In, Out]{op: op, pred: pred,
		instance: newInstance(algo.TransformIf, []any{op, pred}, reflect.TypeFor[In](), reflect.TypeFor[Out]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see ReduceOp.Over.
func (t *TransformIfOp[In, Out]) Over(in Iterator[In]) *TransformIfOp[In, Out] { return t }

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over. Only the selected
// elements are written through it.
func (t *TransformIfOp[In, Out]) Into(out OutputIterator[Out]) *TransformIfOp[In, Out] { return t }

// Run writes op(in[i]) to out[i] for every i where pred(in[i]) holds and
// leaves every other out[i] untouched (never written). in and out have
// equal lengths (an output without one takes in's) and are Slices or
// iterator compositions bound for the call that an instance declared with
// Over and Into; out may be the Slice in itself (in place, when In and Out
// are one type), not part of it. It is enqueued on s (nil means the default
// stream of in's device) and returns without waiting on a GPU.
func (t *TransformIfOp[In, Out]) Run(s *Stream, in Input[In], out Output[Out]) error {
	if t == nil || t.op == nil || t.pred == nil {
		return errNilOperator("TransformIf")
	}
	src, err := inputAs(&t.instance, "input", in)
	if err != nil {
		return err
	}
	dst, err := outputAs(&t.instance, "output", out)
	if err != nil {
		return err
	}
	s, err = streamFor(t.name(), s, src.dev(), dst.dev())
	if err != nil {
		return err
	}
	n := src.len()
	if m := dst.len(); m >= 0 && m != n {
		return t.errorf("input has %d elements, output %d", n, m)
	}
	ins, outs := []*iter.Node{src.node()}, []*iter.Node{dst.node()}
	if err := t.enterThrough(s.dev, ins, outs); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := src.host(s.dev)
		if err != nil {
			return t.wrap(err, "")
		}
		return t.wrap(t.cpu(s.dev, h.host, dst, n), "")
	}
	if n == 0 {
		return nil
	}
	k, err := t.kernelsThrough(s.dev, ins, outs)
	if err != nil {
		return err
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	if err := dst.pack(&args); err != nil {
		return t.wrap(err, "")
	}
	args.Int64(int64(n))
	tile := k.policy.Tile()
	return k.launch(transformIfKernel, (n+tile-1)/tile, s, &args)
}

// cpu runs the call on the CPU backend: into a buffer in place, through a
// composition by writing only the selected elements, in index order.
func (t *TransformIfOp[In, Out]) cpu(d *Device, x []In, dst sink[Out], n int) (err error) {
	if dst.it == nil {
		y := dst.s.host
		_, err := parallel(n, d.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				if t.pred(x[i]) {
					y[i] = t.op(x[i])
				}
			}
		})
		return err
	}
	y := make([]Out, n)
	sel := make([]bool, n)
	if _, err := parallel(n, d.info.Workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if sel[i] = t.pred(x[i]); sel[i] {
				y[i] = t.op(x[i])
			}
		}
	}); err != nil {
		return err
	}
	write, ok := dst.it.root.Write.(iter.Writer[Out])
	if !ok {
		return fmt.Errorf("gocccl: %s cannot be evaluated on the CPU backend", dst.it.root.Sig())
	}
	f, err := write(&dst.it.env)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r)
		}
	}()
	for i, v := range y {
		if sel[i] {
			f(int64(i), v)
		}
	}
	return nil
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (t *TransformIfOp[In, Out]) TempStorageBytes(d *Device, n int) (int, error) {
	if t == nil || t.op == nil || t.pred == nil {
		return 0, errNilOperator("TransformIf")
	}
	if n < 0 {
		return 0, t.errorf("negative length %d", n)
	}
	return 0, nil
}

// transformIfKernel is TransformIf's one kernel, by its suffix in the
// description.
var transformIfKernel = kernelIndex("", algo.TransformIf)
