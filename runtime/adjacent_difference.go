package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// AdjacentDifferenceOp combines every element with its neighbour.
type AdjacentDifferenceOp[T any] struct {
	instance
	op func(T, T) T
}

// AdjacentDifference declares an adjacent difference with op, a //gocccl:op
// function, as cub::DeviceAdjacentDifference: op receives the current
// element first and its neighbour second.
func AdjacentDifference[T any](op func(T, T) T) *AdjacentDifferenceOp[T] {
	return &AdjacentDifferenceOp[T]{op: op, instance: newInstance(algo.AdjacentDifference, []any{op}, reflect.TypeFor[T]())}
}

// Run writes out[0] = in[0] and out[i] = op(in[i], in[i-1]) for i > 0, as
// cub::DeviceAdjacentDifference::SubtractLeftCopy. in and out have equal
// lengths and must not overlap. It is enqueued on s (nil means the default
// stream of in's device).
func (a *AdjacentDifferenceOp[T]) Run(s *Stream, in, out *Slice[T]) error {
	return a.run(s, in, out, true)
}

// RunRight writes out[i] = op(in[i], in[i+1]) for i < n-1 and out[n-1] =
// in[n-1], as cub::DeviceAdjacentDifference::SubtractRightCopy.
func (a *AdjacentDifferenceOp[T]) RunRight(s *Stream, in, out *Slice[T]) error {
	return a.run(s, in, out, false)
}

func (a *AdjacentDifferenceOp[T]) run(s *Stream, in, out *Slice[T], left bool) error {
	if a == nil || a.op == nil {
		return fmt.Errorf("gocccl: AdjacentDifference: nil operator")
	}
	if err := in.usable("AdjacentDifference input"); err != nil {
		return err
	}
	if err := out.usable("AdjacentDifference output"); err != nil {
		return err
	}
	s, err := streamFor("AdjacentDifference", s, in.dev, out.dev)
	if err != nil {
		return err
	}
	if in.n != out.n {
		return a.errorf("input has %d elements, output %d", in.n, out.n)
	}
	if overlaps(in, out) {
		return a.errorf("input and output overlap")
	}
	if err := a.enter(s.dev); err != nil {
		return a.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		src, dst, n := in.host, out.host, in.n
		_, err := parallel(n, s.dev.info.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				switch {
				case left && i == 0, !left && i == n-1:
					dst[i] = src[i]
				case left:
					dst[i] = a.op(src[i], src[i-1])
				default:
					dst[i] = a.op(src[i], src[i+1])
				}
			}
		})
		return a.wrap(err, "")
	}
	if in.n == 0 {
		return nil
	}
	k, err := a.kernels(s.dev)
	if err != nil {
		return err
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(out.ptr)
	args.Int64(int64(in.n))
	kernel := adjacentLeft
	if !left {
		kernel = adjacentRight
	}
	tile := k.policy.Tile()
	return k.launch(kernel, (in.n+tile-1)/tile, s, &args)
}

// The two kernels of AdjacentDifference, by their suffix in the description.
var (
	adjacentLeft  = kernelIndex("left", algo.AdjacentDifference)
	adjacentRight = kernelIndex("right", algo.AdjacentDifference)
)

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (a *AdjacentDifferenceOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if a == nil || a.op == nil {
		return 0, fmt.Errorf("gocccl: AdjacentDifference: nil operator")
	}
	if n < 0 {
		return 0, a.errorf("negative length %d", n)
	}
	return 0, nil
}
