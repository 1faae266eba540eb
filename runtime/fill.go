package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// FillOp writes one value to every element of its output (thrust::fill).
//
// Slice.Fill sets a plain Slice with no generated instance: a memset where
// the value's bytes repeat every 1, 2 or 4 bytes, else about log2(n)
// doubling copies. Fill is the algorithm: one kernel for any element type,
// output iterators (Into), and a place in a captured graph beside the other
// algorithms' kernels.
type FillOp[T any] struct {
	instance
}

// Fill declares a fill of elements of type T. It takes no operator: declare
// it with its type, runtime.Fill[float32](), and gocccl-gen generates its
// kernel.
func Fill[T any]() *FillOp[T] {
	return &FillOp[T]{instance: newInstance(algo.Fill, nil, reflect.TypeFor[T]())}
}

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (f *FillOp[T]) Into(out OutputIterator[T]) *FillOp[T] { return f }

// Run writes value to every element of out: a Slice, or an output iterator
// composition bound for the call that an instance declared with Into, with
// a length (Take(n) gives one to a composition without, such as
// iterator.Discard). It is enqueued on s (nil means the default stream of
// out's device) and returns without waiting on a GPU.
func (f *FillOp[T]) Run(s *Stream, out Output[T], value T) error {
	if f == nil {
		return errNilOperator("Fill")
	}
	dst, err := outputAs(&f.instance, "output", out)
	if err != nil {
		return err
	}
	s, err = streamFor(f.name(), s, dst.dev())
	if err != nil {
		return err
	}
	n := dst.len()
	if n < 0 {
		return f.errorf("output has no length: give it one with Take(n)")
	}
	outs := []*iter.Node{dst.node()}
	if err := f.enterThrough(s.dev, nil, outs); err != nil {
		return f.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		o := dst.host(s.dev, n)
		ys := o.host
		if _, err := parallel(n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				ys[i] = value
			}
		}); err != nil {
			return f.wrap(err, "")
		}
		return f.wrap(dst.flush(o), "")
	}
	if n == 0 {
		return nil
	}
	k, err := f.kernelsThrough(s.dev, nil, outs)
	if err != nil {
		return err
	}
	var args cuda.Args
	if err := dst.pack(&args); err != nil {
		return f.wrap(err, "")
	}
	args.Value(unsafe.Pointer(&value), int(unsafe.Sizeof(value)), int(unsafe.Alignof(value)))
	args.Int64(int64(n))
	tile := k.policy.Tile()
	return k.launch(fillKernel, (n+tile-1)/tile, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (f *FillOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if f == nil {
		return 0, errNilOperator("Fill")
	}
	if n < 0 {
		return 0, f.errorf("negative length %d", n)
	}
	return 0, nil
}

// GenerateOp writes op(i) to element i of its output (thrust::tabulate).
type GenerateOp[T any] struct {
	instance
	op func(int64) T
}

// Generate declares out[i] = op(i) for op, a //gocccl:op function of the
// index.
func Generate[T any](op func(int64) T) *GenerateOp[T] {
	return &GenerateOp[T]{op: op, instance: newInstance(algo.Generate, []any{op}, reflect.TypeFor[T]())}
}

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (g *GenerateOp[T]) Into(out OutputIterator[T]) *GenerateOp[T] { return g }

// Run writes op(i) to element i of out, for every i below out's length. out
// is a Slice, or an output iterator composition bound for the call that an
// instance declared with Into, with a length. It is enqueued on s (nil
// means the default stream of out's device) and returns without waiting on
// a GPU.
func (g *GenerateOp[T]) Run(s *Stream, out Output[T]) error {
	if g == nil || g.op == nil {
		return errNilOperator("Generate")
	}
	dst, err := outputAs(&g.instance, "output", out)
	if err != nil {
		return err
	}
	s, err = streamFor(g.name(), s, dst.dev())
	if err != nil {
		return err
	}
	n := dst.len()
	if n < 0 {
		return g.errorf("output has no length: give it one with Take(n)")
	}
	outs := []*iter.Node{dst.node()}
	if err := g.enterThrough(s.dev, nil, outs); err != nil {
		return g.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		o := dst.host(s.dev, n)
		ys := o.host
		if _, err := parallel(n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				ys[i] = g.op(int64(i))
			}
		}); err != nil {
			return g.wrap(err, "")
		}
		return g.wrap(dst.flush(o), "")
	}
	if n == 0 {
		return nil
	}
	k, err := g.kernelsThrough(s.dev, nil, outs)
	if err != nil {
		return err
	}
	var args cuda.Args
	if err := dst.pack(&args); err != nil {
		return g.wrap(err, "")
	}
	args.Int64(int64(n))
	tile := k.policy.Tile()
	return k.launch(generateKernel, (n+tile-1)/tile, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (g *GenerateOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if g == nil || g.op == nil {
		return 0, errNilOperator("Generate")
	}
	if n < 0 {
		return 0, g.errorf("negative length %d", n)
	}
	return 0, nil
}

// outputAs resolves an algorithm's output, naming the instance and the
// output's role in messages (inputAs's twin).
func outputAs[T any](in *instance, role string, x Output[T]) (sink[T], error) {
	if s, ok := x.(*Slice[T]); ok {
		return sink[T]{s: s}, s.usableAs(in.name(), role)
	}
	if x == nil {
		return sink[T]{}, fmt.Errorf("gocccl: %s %s: nil slice", in.name(), role)
	}
	return output(in.name()+" "+role, x)
}

// fillKernel and generateKernel are the one kernel of Fill and of Generate,
// by their suffixes in the descriptions.
var (
	fillKernel     = kernelIndex("", algo.Fill)
	generateKernel = kernelIndex("", algo.Generate)
)
