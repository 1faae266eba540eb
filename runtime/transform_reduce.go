package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// TransformReduceOp reduces the transformed elements of a Slice without an
// intermediate buffer. The reduction operator must be associative and
// commutative, as for Reduce.
type TransformReduceOp[In, T any] struct {
	instance
	xf  func(In) T
	op  func(T, T) T
	det Determinism
}

// TransformReduce declares a reduction of transform(x) over the elements x
// of its input with op; transform and op are //gocccl:op functions. It is
// Reduce(op) over UnaryTransform(transform)'s output in one pass, as
// cub::DeviceReduce::TransformReduce.
func TransformReduce[In, T any](transform func(In) T, op func(T, T) T) *TransformReduceOp[In, T] {
	return &TransformReduceOp[In, T]{xf: transform, op: op,
		instance: newInstance(algo.TransformReduce, []any{transform, op}, reflect.TypeFor[In](), reflect.TypeFor[T]())}
}

// WithDeterminism returns a handle of the same instance whose runs give
// d's guarantee (see Determinism and ReduceOp.WithDeterminism).
func (r *TransformReduceOp[In, T]) WithDeterminism(d Determinism) *TransformReduceOp[In, T] {
	if r == nil {
		return nil
	}
	c := *r
	c.det = d
	return &c
}

// Determinism returns the handle's guarantee.
func (r *TransformReduceOp[In, T]) Determinism() Determinism { return r.det }

// Run writes op(init, transform(in[0]) op … op transform(in[n-1])) to
// out[0], or init when in is empty. It is enqueued on s (nil means the
// default stream of in's device) as one kernel and returns without waiting
// on the GPU; it makes no allocation (see TempStorageBytes).
func (r *TransformReduceOp[In, T]) Run(s *Stream, in *Slice[In], out *Slice[T], init T) error {
	if r == nil || r.xf == nil || r.op == nil {
		return fmt.Errorf("gocccl: TransformReduce: nil operator")
	}
	if err := r.det.check("TransformReduce"); err != nil {
		return err
	}
	if err := in.usable("TransformReduce input"); err != nil {
		return err
	}
	if err := out.usable("TransformReduce output"); err != nil {
		return err
	}
	s, err := streamFor("TransformReduce", s, in.dev, out.dev)
	if err != nil {
		return err
	}
	if out.n < 1 {
		return r.errorf("output has no element to write the result to")
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		var v T
		if r.det == GPUToGPU {
			v, err = reduceDetCPU(r.xf, r.op, in.host, init, s.dev.info.Workers)
		} else {
			v, err = transformReduceCPU(r.xf, r.op, in.host, init, s.dev.info.Workers)
		}
		if err != nil {
			return r.wrap(err, "")
		}
		out.host[0] = v
		return nil
	}
	return r.runGPU(s, in, out, init)
}

// The TransformReduce kernels, by their suffix in the description.
var (
	transformReduceSweep  = kernelIndex("sweep", algo.TransformReduce)  // single pass over many tiles, the last block finishes
	transformReduceSingle = kernelIndex("single", algo.TransformReduce) // one block over at most one tile
	transformReduceDet    = kernelIndex("det", algo.TransformReduce)    // GPUToGPU's fixed tree, one launch
)

func (r *TransformReduceOp[In, T]) runGPU(s *Stream, in *Slice[In], out *Slice[T], init T) error {
	k, err := r.kernels(s.dev)
	if err != nil {
		return err
	}
	size, align := int(unsafe.Sizeof(init)), int(unsafe.Alignof(init))
	tile := k.policy.Tile()
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Int64(int64(in.n))
	args.Ptr(out.ptr)
	args.Value(unsafe.Pointer(&init), size, align)
	if r.det == GPUToGPU {
		grid, scratch := 1, cuda.DevicePtr(0)
		if tiles := (in.n + detTile - 1) / detTile; tiles > 1 {
			grid = min(tiles, k.resident)
			if scratch, err = s.zeroedScratch(reducePartialsOffset + tiles*size); err != nil {
				return r.wrap(err, "")
			}
		}
		args.Ptr(scratch)
		return k.launch(transformReduceDet, grid, s, &args)
	}
	if in.n <= tile {
		return k.launch(transformReduceSingle, 1, s, &args)
	}
	grid := min((in.n+tile-1)/tile, k.resident)
	scratch, err := s.zeroedScratch(reducePartialsOffset + grid*size)
	if err != nil {
		return r.wrap(err, "")
	}
	args.Ptr(scratch)
	return k.launch(transformReduceSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the counter and per-block partials of the single pass, taken
// from the stream's own scratch (allocated once per stream, at least 256 KiB,
// and reused by every call on it), so a call makes no allocation. It is 0 on
// the CPU backend and for n within one tile.
func (r *TransformReduceOp[In, T]) TempStorageBytes(d *Device, n int) (int, error) {
	if r == nil || r.xf == nil || r.op == nil {
		return 0, fmt.Errorf("gocccl: TransformReduce: nil operator")
	}
	if n < 0 {
		return 0, r.errorf("negative length %d", n)
	}
	if err := r.enter(d); err != nil {
		return 0, r.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	if r.det == GPUToGPU {
		if n <= detTile {
			return 0, nil
		}
		return reducePartialsOffset + (n+detTile-1)/detTile*elemSize[T](), nil
	}
	k, err := r.kernels(d)
	if err != nil {
		return 0, err
	}
	tile := k.policy.Tile()
	if n <= tile {
		return 0, nil
	}
	return reducePartialsOffset + min((n+tile-1)/tile, k.resident)*elemSize[T](), nil
}
