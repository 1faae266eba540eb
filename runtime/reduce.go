package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// ReduceOp reduces a Slice to one value with a binary operator. The operator
// must be associative and commutative, as for cub::DeviceReduce: the device
// combines elements in an unspecified order, so floating-point results may
// differ from a sequential loop by rounding. By default the order, and so
// the bits, are the same from run to run on one GPU (RunToRun);
// WithDeterminism(GPUToGPU) fixes the order for every GPU and the CPU
// backend.
type ReduceOp[T any] struct {
	instance
	op  func(T, T) T
	det Determinism
}

// Reduce declares a reduction with op, a //gocccl:op function. Declare it at
// package level or in a function; gocccl-gen finds the call and generates its
// kernels.
func Reduce[T any](op func(T, T) T) *ReduceOp[T] {
	return &ReduceOp[T]{op: op, instance: newInstance(algo.Reduce, []any{op}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator), so that gocccl-gen compiles it; call it
// on the constructor's result where the instance is declared:
//
//	var SumSquares = runtime.Reduce(Add).Over(Squares)
//
// It returns r: any Reduce(op) instance then runs the composition.
func (r *ReduceOp[T]) Over(in Iterator[T]) *ReduceOp[T] { return r }

// WithDeterminism returns a handle of the same instance whose runs give
// d's guarantee (see Determinism; RunToRun is the default). It allocates:
// call it once and keep the handle, e.g.
//
//	var SumExact = runtime.Reduce(Add).WithDeterminism(runtime.GPUToGPU)
func (r *ReduceOp[T]) WithDeterminism(d Determinism) *ReduceOp[T] {
	if r == nil {
		return nil
	}
	c := *r
	c.det = d
	return &c
}

// Determinism returns the handle's guarantee.
func (r *ReduceOp[T]) Determinism() Determinism { return r.det }

// cpu is the reduction on the CPU backend in the handle's mode.
func (r *ReduceOp[T]) cpu(in []T, init T, workers int) (T, error) {
	if r.det == GPUToGPU {
		return reduceDetCPU(identity[T], r.op, in, init, workers)
	}
	return reduceCPU(r.op, in, init, workers)
}

// Into declares the instance writing its result through the output
// iterator composition out (package iterator); see Over.
func (r *ReduceOp[T]) Into(out OutputIterator[T]) *ReduceOp[T] { return r }

// Run writes op(init, in[0] op in[1] op … op in[n-1]) to out[0], or init when
// in is empty. in and out are Slices or iterator compositions bound for the
// call (package iterator) that an instance declared with Over and Into. It
// is enqueued on s (nil means the default stream of in's device) as one
// kernel and returns without waiting on the GPU; it makes no allocation (see
// TempStorageBytes).
func (r *ReduceOp[T]) Run(s *Stream, in Input[T], out Output[T], init T) error {
	if r == nil || r.op == nil {
		return fmt.Errorf("gocccl: Reduce: nil operator")
	}
	if err := r.det.check("Reduce"); err != nil {
		return err
	}
	src, err := input("Reduce input", in)
	if err != nil {
		return err
	}
	dst, err := output("Reduce output", out)
	if err != nil {
		return err
	}
	if src.it == nil && dst.it == nil {
		return r.run(s, src.s, dst.s, init)
	}
	s, err = streamFor("Reduce", s, src.dev(), dst.dev())
	if err != nil {
		return err
	}
	if dst.len() == 0 {
		return fmt.Errorf("gocccl: Reduce: output has no element to write the result to")
	}
	if err := r.enterThrough(s.dev, []*iter.Node{src.node()}, []*iter.Node{dst.node()}); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		h, err := src.host(s.dev)
		if err != nil {
			return r.wrap(err, "")
		}
		v, err := r.cpu(h.host, init, s.dev.info.Workers)
		if err != nil {
			return r.wrap(err, "")
		}
		o := dst.host(s.dev, 1)
		o.host[0] = v
		return r.wrap(dst.flush(o), "")
	}
	return r.runGPU(s, src, dst, init)
}

func (r *ReduceOp[T]) run(s *Stream, in, out *Slice[T], init T) error {
	s, err := r.check(s, in, out)
	if err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		v, err := r.cpu(in.host, init, s.dev.info.Workers)
		if err != nil {
			return r.wrap(err, "")
		}
		out.host[0] = v
		return nil
	}
	return r.runGPU(s, src[T]{s: in}, sink[T]{s: out}, init)
}

func (r *ReduceOp[T]) check(s *Stream, in, out *Slice[T]) (*Stream, error) {
	if r == nil || r.op == nil {
		return nil, fmt.Errorf("gocccl: Reduce: nil operator")
	}
	if err := r.det.check("Reduce"); err != nil {
		return nil, err
	}
	if err := in.usable("Reduce input"); err != nil {
		return nil, err
	}
	if err := out.usable("Reduce output"); err != nil {
		return nil, err
	}
	s, err := streamFor("Reduce", s, in.dev, out.dev)
	if err != nil {
		return nil, err
	}
	if out.n < 1 {
		return nil, fmt.Errorf("gocccl: Reduce: output has no element to write the result to")
	}
	return s, nil
}

// Kernels of Reduce, by their suffix in the description.
var (
	reduceSweep = kernelIndex("sweep", algo.Reduce) // single pass over many tiles, the last block finishes
	reduceTile  = kernelIndex("final", algo.Reduce) // one block over at most one tile
	reduceDet   = kernelIndex("det", algo.Reduce)   // GPUToGPU's fixed tree, one launch
)

// reducePartialsOffset is where the partials start in the scratch of the
// single pass (gocccl::ReduceScratch): after a 16-byte counter slot.
const reducePartialsOffset = 16

func (r *ReduceOp[T]) runGPU(s *Stream, in src[T], out sink[T], init T) error {
	d := s.dev
	var k kernels
	var err error
	if in.it == nil && out.it == nil {
		k, err = r.kernels(d)
	} else {
		k, err = r.kernelsThrough(d, []*iter.Node{in.node()}, []*iter.Node{out.node()})
	}
	if err != nil {
		return err
	}
	size, align := int(unsafe.Sizeof(init)), int(unsafe.Alignof(init))
	tile := k.policy.Tile()
	n := in.len()

	var args cuda.Args
	if r.det == GPUToGPU {
		grid, scratch := 1, cuda.DevicePtr(0)
		if tiles := (n + detTile - 1) / detTile; tiles > 1 {
			grid = min(tiles, k.resident)
			if scratch, err = s.zeroedScratch(reducePartialsOffset + tiles*size); err != nil {
				return r.wrap(err, "")
			}
		}
		if err := in.pack(&args); err != nil {
			return r.wrap(err, "")
		}
		args.Int64(int64(n))
		if err := out.pack(&args); err != nil {
			return r.wrap(err, "")
		}
		args.Value(unsafe.Pointer(&init), size, align)
		args.Ptr(scratch)
		return k.launch(reduceDet, grid, s, &args)
	}
	if n <= tile {
		if err := in.pack(&args); err != nil {
			return r.wrap(err, "")
		}
		args.Int64(int64(n))
		if err := out.pack(&args); err != nil {
			return r.wrap(err, "")
		}
		args.Value(unsafe.Pointer(&init), size, align)
		return k.launch(reduceTile, 1, s, &args)
	}
	grid := min((n+tile-1)/tile, k.resident)
	scratch, err := s.zeroedScratch(reducePartialsOffset + grid*size)
	if err != nil {
		return r.wrap(err, "")
	}
	if err := in.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	args.Int64(int64(n))
	if err := out.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	args.Value(unsafe.Pointer(&init), size, align)
	args.Ptr(scratch)
	return k.launch(reduceSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the counter and per-block partials of the single pass, taken
// from the stream's own scratch (allocated once per stream, at least 256 KiB,
// and reused by every call on it), so a call makes no allocation. It is 0 on
// the CPU backend and for n within one tile. With GPUToGPU the partials are
// one per 4096 items, whatever the GPU.
func (r *ReduceOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if r == nil || r.op == nil {
		return 0, fmt.Errorf("gocccl: Reduce: nil operator")
	}
	if n < 0 {
		return 0, fmt.Errorf("gocccl: Reduce: negative length %d", n)
	}
	if err := r.enter(d); err != nil {
		return 0, err
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
