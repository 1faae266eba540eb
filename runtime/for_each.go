package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// ForEachOp applies an operator to every element of a Slice in place.
//
// cuda.compute's for_each applies an operator for its side effect. Our
// operators are pure functions (no pointers, no package state), so the only
// effect one can have is its result: ForEach stores op(x) back over x. It is
// UnaryTransform with the output aliasing the input, which UnaryTransform
// does not allow (its kernel reads through the read-only cache).
type ForEachOp[T any] struct {
	instance
	op func(T) T
}

// ForEach declares data[i] = op(data[i]) for op, a //gocccl:op function.
func ForEach[T any](op func(T) T) *ForEachOp[T] {
	return &ForEachOp[T]{op: op, instance: newInstance(algo.ForEach, []any{op}, reflect.TypeFor[T]())}
}

// Run replaces every element x of data with op(x). It is enqueued on s (nil
// means the default stream of data's device).
func (f *ForEachOp[T]) Run(s *Stream, data *Slice[T]) error {
	if f == nil || f.op == nil {
		return fmt.Errorf("gocccl: ForEach: nil operator")
	}
	if err := data.usable("ForEach data"); err != nil {
		return err
	}
	s, err := streamFor("ForEach", s, data.dev)
	if err != nil {
		return err
	}
	if err := f.enter(s.dev); err != nil {
		return f.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		xs := data.host
		_, err := parallel(data.n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				xs[i] = f.op(xs[i])
			}
		})
		return f.wrap(err, "")
	}
	if data.n == 0 {
		return nil
	}
	k, err := f.kernels(s.dev)
	if err != nil {
		return err
	}
	var args cuda.Args
	args.Ptr(data.ptr)
	args.Int64(int64(data.n))
	tile := k.policy.Tile()
	return k.launch(forEachKernel, (data.n+tile-1)/tile, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (f *ForEachOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if f == nil || f.op == nil {
		return 0, fmt.Errorf("gocccl: ForEach: nil operator")
	}
	if n < 0 {
		return 0, f.errorf("negative length %d", n)
	}
	return 0, nil
}

// forEachKernel is ForEach's one kernel, by its suffix in the description.
var forEachKernel = kernelIndex("", algo.ForEach)
