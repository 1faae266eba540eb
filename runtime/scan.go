package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// InclusiveScanOp computes inclusive prefix scans of a Slice with a binary
// operator, as cub::DeviceScan::InclusiveScan: out[i] = in[0] op in[1] op …
// op in[i]. The operator must be associative; it need not be commutative
// (operands are combined in index order, only regrouped), so floating-point
// results may differ from a sequential loop by rounding.
type InclusiveScanOp[T any] struct {
	instance
	op func(T, T) T
}

// InclusiveScan declares an inclusive scan with op, a //gocccl:op function.
// Declare it at package level or in a function; gocccl-gen finds the call
// and generates its kernels.
func InclusiveScan[T any](op func(T, T) T) *InclusiveScanOp[T] {
	return &InclusiveScanOp[T]{op: op, instance: newInstance(algo.InclusiveScan, []any{op}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see ReduceOp.Over.
func (o *InclusiveScanOp[T]) Over(in Iterator[T]) *InclusiveScanOp[T] { return o }

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (o *InclusiveScanOp[T]) Into(out OutputIterator[T]) *InclusiveScanOp[T] { return o }

// Run writes in[0] op … op in[i] to out[i] for every i; in and out have
// equal lengths, and out may be in itself (but must not overlap it
// otherwise). It is enqueued on s (nil means the default stream of in's
// device) and returns without waiting on a GPU.
func (o *InclusiveScanOp[T]) Run(s *Stream, in Input[T], out Output[T]) error {
	return o.run(s, in, out, scanInit[T]{})
}

// RunWithInit writes init op in[0] op … op in[i] to out[i] for every i, as
// cub::DeviceScan::InclusiveScanInit; otherwise as Run.
func (o *InclusiveScanOp[T]) RunWithInit(s *Stream, in Input[T], out Output[T], init T) error {
	return o.run(s, in, out, scanInit[T]{has: true, value: init})
}

// RunWithInitFrom is RunWithInit with the init value in init[0], a device
// buffer read when the scan runs on the stream, not when it is enqueued
// (cuda.compute's future value): an earlier call on s may still be writing
// it. init must not overlap out.
func (o *InclusiveScanOp[T]) RunWithInitFrom(s *Stream, in Input[T], out Output[T], init *Slice[T]) error {
	return o.run(s, in, out, scanInit[T]{has: true, device: true, from: init})
}

func (o *InclusiveScanOp[T]) run(s *Stream, in Input[T], out Output[T], init scanInit[T]) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: InclusiveScan: nil operator")
	}
	return runScanIO(&o.instance, &inclusiveScanNames, o.op, true, s, in, out, init)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the tile states of the look-back. For elements of at most 16
// bytes they live in the stream's own memory for epoch-tagged states, which
// the stream keeps and reuses with no allocation and no init launch per call
// (it grows once when a call needs more); larger elements use the stream's
// scratch when they fit there, else the scratch pool (stream-ordered, freed
// as the work completes). It is 0 on the CPU backend and for n within one
// tile.
func (o *InclusiveScanOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: InclusiveScan: nil operator")
	}
	return scanTempBytes[T](&o.instance, "InclusiveScan", d, n)
}

// ExclusiveScanOp computes exclusive prefix scans of a Slice with a binary
// operator and an init value, as cub::DeviceScan::ExclusiveScan: out[0] =
// init, out[i] = init op in[0] op … op in[i-1]. The init value seeds the scan,
// so no identity element is needed: a max or min scan with any init is
// exact. The operator must be associative; it need not be commutative.
type ExclusiveScanOp[T any] struct {
	instance
	op func(T, T) T
}

// ExclusiveScan declares an exclusive scan with op, a //gocccl:op function.
func ExclusiveScan[T any](op func(T, T) T) *ExclusiveScanOp[T] {
	return &ExclusiveScanOp[T]{op: op, instance: newInstance(algo.ExclusiveScan, []any{op}, reflect.TypeFor[T]())}
}

// Over declares the instance reading its input through the iterator
// composition in (package iterator); see ReduceOp.Over.
func (o *ExclusiveScanOp[T]) Over(in Iterator[T]) *ExclusiveScanOp[T] { return o }

// Into declares the instance writing through the output iterator
// composition out (package iterator); see ReduceOp.Over.
func (o *ExclusiveScanOp[T]) Into(out OutputIterator[T]) *ExclusiveScanOp[T] { return o }

// Run writes init op in[0] op … op in[i-1] to out[i] for every i (init to
// out[0]); in and out have equal lengths, and out may be in itself (but
// must not overlap it otherwise). It is enqueued on s (nil means the default
// stream of in's device) and returns without waiting on a GPU.
func (o *ExclusiveScanOp[T]) Run(s *Stream, in Input[T], out Output[T], init T) error {
	return o.run(s, in, out, scanInit[T]{has: true, value: init})
}

// RunWithInitFrom is Run with the init value in init[0], a device buffer
// read when the scan runs on the stream, not when it is enqueued
// (cuda.compute's future value). init must not overlap out.
func (o *ExclusiveScanOp[T]) RunWithInitFrom(s *Stream, in Input[T], out Output[T], init *Slice[T]) error {
	return o.run(s, in, out, scanInit[T]{has: true, device: true, from: init})
}

func (o *ExclusiveScanOp[T]) run(s *Stream, in Input[T], out Output[T], init scanInit[T]) error {
	if o == nil || o.op == nil {
		return fmt.Errorf("gocccl: ExclusiveScan: nil operator")
	}
	return runScanIO(&o.instance, &exclusiveScanNames, o.op, false, s, in, out, init)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d takes for the duration of the call; see InclusiveScanOp's.
func (o *ExclusiveScanOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: ExclusiveScan: nil operator")
	}
	return scanTempBytes[T](&o.instance, "ExclusiveScan", d, n)
}

// scanInit is a scan's init value: none, a value, or the first element of
// a device buffer.
type scanInit[T any] struct {
	has    bool
	value  T
	device bool      // the value is from[0]
	from   *Slice[T] // when device
}

// scanNames name a scan and its three buffers, in argument order, in
// messages: prebuilt, since building them per call would allocate.
type scanNames struct {
	alg  string
	args [3]string
}

var (
	inclusiveScanNames = scanNames{"InclusiveScan", [3]string{"InclusiveScan input", "InclusiveScan output", "InclusiveScan init"}}
	exclusiveScanNames = scanNames{"ExclusiveScan", [3]string{"ExclusiveScan input", "ExclusiveScan output", "ExclusiveScan init"}}
)

// runScanIO resolves a scan's input and output: plain buffers run as
// runScan; iterator compositions on the CPU backend are evaluated into
// temporaries, and on a GPU read and written by the kernels.
func runScanIO[T any](inst *instance, names *scanNames, op func(T, T) T, inclusive bool, s *Stream, in Input[T], out Output[T], init scanInit[T]) error {
	alg := names.alg
	src, err := input(names.args[0], in)
	if err != nil {
		return err
	}
	dst, err := output(names.args[1], out)
	if err != nil {
		return err
	}
	if src.it == nil && dst.it == nil {
		return runScan(inst, names, op, inclusive, s, src.s, dst.s, init)
	}
	var initDev *Device
	if init.device {
		if err := init.from.usable(names.args[2]); err != nil {
			return err
		}
		if init.from.n < 1 {
			return fmt.Errorf("gocccl: %s: init buffer has no element", alg)
		}
		initDev = init.from.dev
	}
	s, err = streamFor(alg, s, src.dev(), dst.dev(), initDev)
	if err != nil {
		return err
	}
	n := src.len()
	if m := dst.len(); m >= 0 && m != n {
		return fmt.Errorf("gocccl: %s: input has %d elements, output %d", alg, n, m)
	}
	if err := inst.enterThrough(s.dev, []*iter.Node{src.node()}, []*iter.Node{dst.node()}); err != nil {
		return inst.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		if init.device {
			init.value = init.from.host[0]
		}
		h, err := src.host(s.dev)
		if err != nil {
			return inst.wrap(err, "")
		}
		o := dst.host(s.dev, n)
		if err := scanCPU(op, h.host, o.host, init.value, init.has, inclusive, s.dev.info.Workers); err != nil {
			return inst.wrap(err, "")
		}
		return inst.wrap(dst.flush(o), "")
	}
	return scanGPU(inst, s, src, dst, init)
}

// runScan checks a scan's arguments, then runs it on s's device.
func runScan[T any](inst *instance, names *scanNames, op func(T, T) T, inclusive bool, s *Stream, in, out *Slice[T], init scanInit[T]) error {
	alg := names.alg
	if err := in.usable(names.args[0]); err != nil {
		return err
	}
	if err := out.usable(names.args[1]); err != nil {
		return err
	}
	var err error
	if init.device {
		if err := init.from.usable(names.args[2]); err != nil {
			return err
		}
		s, err = streamFor(alg, s, in.dev, out.dev, init.from.dev)
	} else {
		s, err = streamFor(alg, s, in.dev, out.dev)
	}
	if err != nil {
		return err
	}
	if in.n != out.n {
		return fmt.Errorf("gocccl: %s: input has %d elements, output %d", alg, in.n, out.n)
	}
	if overlapsPartially(in, out) {
		return fmt.Errorf("gocccl: %s: output overlaps the input without being the input itself", alg)
	}
	if init.device {
		if init.from.n < 1 {
			return fmt.Errorf("gocccl: %s: init buffer has no element", alg)
		}
		if overlaps(init.from.Range(0, 1), out) {
			return fmt.Errorf("gocccl: %s: init buffer overlaps the output", alg)
		}
	}
	if err := inst.enter(s.dev); err != nil {
		return inst.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		if init.device {
			init.value = init.from.host[0]
		}
		return inst.wrap(scanCPU(op, in.host, out.host, init.value, init.has, inclusive, s.dev.info.Workers), "")
	}
	return scanGPU(inst, s, src[T]{s: in}, sink[T]{s: out}, init)
}

// scanGPU launches a scan: the sweep alone on one block for a single tile,
// else the sweep over tile states (lookBack), after their init kernel when
// they need one: for values of at most 16 bytes, only when the stream's
// epoch region is new, grown or out of epochs, so a call is one launch.
func scanGPU[T any](inst *instance, s *Stream, in src[T], out sink[T], init scanInit[T]) error {
	d := s.dev
	var k kernels
	var err error
	if in.it == nil && out.it == nil {
		k, err = inst.kernels(d)
	} else {
		k, err = inst.kernelsThrough(d, []*iter.Node{in.node()}, []*iter.Node{out.node()})
	}
	n := in.len()
	if err != nil || n == 0 {
		return err
	}
	initKernel, sweepKernel := scanInitKernel, scanSweepKernel
	tile := k.policy.Tile()
	tiles := (n + tile - 1) / tile

	var lb lookBack
	var args cuda.Args
	if tiles > 1 {
		size := elemSize[T]()
		if lb, err = s.lookBack(tiles, size, scanStateBytes(tiles, size)); err != nil {
			return inst.wrap(err, "")
		}
		if lb.init {
			args.Ptr(lb.ptr)
			args.Int64(int64(lb.bytes))
			args.Int64(int64(tiles))
			err = k.launch(initKernel, lb.initGrid(tiles, k.policy.BlockThreads), s, &args)
		}
	}
	if err == nil {
		var initPtr cuda.DevicePtr
		if init.device {
			initPtr = init.from.ptr
		}
		has := init.has
		args.Reset()
		err = in.pack(&args)
		if err == nil {
			err = out.pack(&args)
		}
		args.Int64(int64(n))
		args.Ptr(lb.ptr)
		args.Int64(int64(lb.bytes))
		args.Uint32(lb.epoch)
		args.Value(unsafe.Pointer(&init.value), int(unsafe.Sizeof(init.value)), int(unsafe.Alignof(init.value)))
		args.Ptr(initPtr)
		args.Value(unsafe.Pointer(&has), 1, 1)
		if err == nil {
			err = k.launch(sweepKernel, tiles, s, &args)
		} else {
			err = inst.wrap(err, "")
		}
	}
	if ferr := lb.release(); err == nil && ferr != nil {
		err = inst.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// scanTempBytes is TempStorageBytes of a scan instance.
func scanTempBytes[T any](inst *instance, alg string, d *Device, n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("gocccl: %s: negative length %d", alg, n)
	}
	if err := inst.enter(d); err != nil {
		return 0, err
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := inst.kernels(d)
	if err != nil {
		return 0, err
	}
	tile := k.policy.Tile()
	if n <= tile {
		return 0, nil
	}
	tiles, size := (n+tile-1)/tile, elemSize[T]()
	if bytes, ok := epochStateBytes(tiles, size); ok {
		return bytes, nil
	}
	return scanStateBytes(tiles, size), nil
}

// scanStateBytes bounds cub::ScanTileState<T>::AllocationSize(tiles) for
// every T of size bytes, in CUB 1.17 and CCCL 3: a single-word state is one
// descriptor of at most 16 bytes per tile; otherwise a status word (at most
// 8 bytes) and two values (sizeof(T) rounded up to its alignment, at most
// 16) per tile, in three arrays aligned to 256 bytes; both with 32 tiles of
// padding. The init kernel checks it against CUB's own figure.
func scanStateBytes(tiles, size int) int {
	const padding, align = 32, 256
	value := (size + 15) &^ 15
	return (tiles+padding)*(8+2*value) + 4*align
}

// The scans' kernels, by their suffix in the descriptions (InclusiveScan's
// and ExclusiveScan's alike).
var (
	scanInitKernel  = kernelIndex("init", algo.InclusiveScan, algo.ExclusiveScan)
	scanSweepKernel = kernelIndex("sweep", algo.InclusiveScan, algo.ExclusiveScan)
)
