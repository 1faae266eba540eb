package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// SegmentedReduceOp reduces every segment of a Slice to one value. The
// operator must be associative and commutative, as for Reduce.
type SegmentedReduceOp[T any] struct {
	instance
	op func(T, T) T
}

// SegmentedReduce declares a segmented reduction with op, a //gocccl:op
// function: one reduction per segment, as cub::DeviceSegmentedReduce::Reduce.
func SegmentedReduce[T any](op func(T, T) T) *SegmentedReduceOp[T] {
	return &SegmentedReduceOp[T]{op: op, instance: newInstance(algo.SegmentedReduce, []any{op}, reflect.TypeFor[T]())}
}

// Operator returns the operator r was declared with.
func (r *SegmentedReduceOp[T]) Operator() func(T, T) T {
	if r == nil {
		return nil
	}
	return r.op
}

// Over declares the instance reading its values and its begin and end
// offsets through iterator compositions (package iterator), so that
// gocccl-gen compiles them; pass iterator.Slice for one read as a plain
// buffer. Call it on the constructor's result where the instance is
// declared. Segments of a fixed size need no offsets buffers: with
//
//	//gocccl:op
//	func Times256(i int64) int64 { return i * 256 }
//
//	var (
//		Seg    = iterator.Counting[int64]()
//		Starts = iterator.Transform(Seg, Times256)
//		Sums   = runtime.SegmentedReduce(Add).Over(iterator.Slice[float32](), Starts, Starts)
//	)
//
// Starts.Bind(Seg.With(0)) are the begin offsets and Starts.Bind(Seg.With(1))
// the end offsets of segments of 256 values. It returns r: any
// SegmentedReduce(op) instance then runs the compositions.
func (r *SegmentedReduceOp[T]) Over(in Iterator[T], begin, end Iterator[int64]) *SegmentedReduceOp[T] {
	return r
}

// SegmentedReduceOptions tell a segmented reduction what the caller knows
// about its segments. The zero value promises nothing: Run's dispatch.
type SegmentedReduceOptions struct {
	// MaxSegmentSize, when positive, promises that no segment is longer
	// than that many items (end[s] - begin[s] <= MaxSegmentSize), as
	// cuda.compute's max_segment_size does. The GPU then folds tiny
	// segments (at most the policy's items per thread: 16 four-byte items)
	// with a thread each, small ones (at most 8 lanes' worth: 128 four-byte
	// items) with 8 lanes each, and those up to a warp's step (512) with a
	// warp each, however few there are; longer promises keep Run's choice.
	//
	// The CPU backend checks the promise with the offsets and returns an
	// error naming the first segment longer than MaxSegmentSize before it
	// writes anything. A GPU cannot see the offsets; there a broken promise
	// still gives every segment its reduction, only more slowly (the
	// kernels it picks fold segments of any length), and reads nothing
	// outside the input. Zero means no promise; a negative value is an
	// error.
	MaxSegmentSize int
}

// Run writes op(init, in[begin[s]] op … op in[end[s]-1]) to out[s] for every
// segment s < begin.Len(), or init when the segment is empty. begin and end
// have the same length, out at least that many elements; segments may
// overlap, leave gaps and come in any order. With one offsets buffer of
// k+1 elements, pass offsets.Range(0, k) and offsets.Range(1, k+1).
//
// in, begin and end are Slices or iterator compositions bound for the call
// that an instance declared with Over. An offsets composition without a
// length (a Transform of a Counting) takes the other's length; give one of
// them Take(segments).
//
// Offsets must satisfy 0 <= begin[s] <= end[s] <= in.Len(). The CPU backend
// checks them and returns an error. On a GPU they live in device memory and
// are trusted, as by CUB (checking them would take a copy and a
// synchronisation): the kernels clamp every segment to the input, so a bad
// offset never reads outside it, and a segment with end < begin gives init.
//
// It is enqueued on s (nil means the default stream of in's device) and
// returns without waiting on a GPU. It needs no scratch memory.
func (r *SegmentedReduceOp[T]) Run(s *Stream, in Input[T], begin, end Input[int64], out *Slice[T], init T) error {
	return r.RunWith(s, in, begin, end, out, init, SegmentedReduceOptions{})
}

// RunWith is Run with what o tells about the segments: with
// o.MaxSegmentSize, segments of at most that many items each (see
// SegmentedReduceOptions).
func (r *SegmentedReduceOp[T]) RunWith(s *Stream, in Input[T], begin, end Input[int64], out *Slice[T], init T, o SegmentedReduceOptions) error {
	if r == nil || r.op == nil {
		return fmt.Errorf("gocccl: SegmentedReduce: nil operator")
	}
	if o.MaxSegmentSize < 0 {
		return r.errorf("MaxSegmentSize %d is negative", o.MaxSegmentSize)
	}
	src, err := input("SegmentedReduce input", in)
	if err != nil {
		return err
	}
	b, err := inputOf("SegmentedReduce begin offsets", begin, true)
	if err != nil {
		return err
	}
	e, err := inputOf("SegmentedReduce end offsets", end, true)
	if err != nil {
		return err
	}
	if err := out.usable("SegmentedReduce output"); err != nil {
		return err
	}
	switch {
	case b.len() < 0 && e.len() < 0:
		return r.errorf("neither the begin nor the end offsets have a length: give one of them Take(segments)")
	case b.len() < 0:
		b = b.withLen(e.len())
	case e.len() < 0:
		e = e.withLen(b.len())
	}
	s, err = streamFor("SegmentedReduce", s, src.dev(), b.dev(), e.dev(), out.dev)
	if err != nil {
		return err
	}
	segs := b.len()
	if e.len() != segs {
		return r.errorf("%d begin offsets but %d end offsets", segs, e.len())
	}
	if out.n < segs {
		return r.errorf("output has %d elements, fewer than the %d segments", out.n, segs)
	}
	ins := []*iter.Node{src.node(), b.node(), e.node()}
	if err := r.enterThrough(s.dev, ins, nil); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hin, err := src.host(s.dev)
		if err != nil {
			return r.wrap(err, "")
		}
		hb, err := b.host(s.dev)
		if err != nil {
			return r.wrap(err, "")
		}
		he, err := e.host(s.dev)
		if err != nil {
			return r.wrap(err, "")
		}
		return r.wrap(segmentedReduceCPU(r.op, hin.host, hb.host, he.host, out.host, init, o.MaxSegmentSize, s.dev.info.Workers), "")
	}
	// The kernels first, so that an empty call of a composition no
	// instance declared fails on a GPU as on the CPU backend.
	k, err := r.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	if segs == 0 {
		return nil
	}
	n := src.len()
	kernel, grid := segmentedDispatch(n, segs, k.policy.BlockThreads, k.policy.Tile(), k.maxBlocks)
	if o.MaxSegmentSize > 0 {
		kernel, grid = segmentedDispatchMax(n, segs, o.MaxSegmentSize, k.policy.BlockThreads, k.policy.Tile(), k.maxBlocks)
	}
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	args.Int64(int64(n))
	if err := b.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	if err := e.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	args.Int64(int64(segs))
	args.Ptr(out.ptr)
	args.Value(unsafe.Pointer(&init), int(unsafe.Sizeof(init)), int(unsafe.Alignof(init)))
	return k.launch(kernel, grid, s, &args)
}

// RunFixed is Run over segments of segmentSize elements, with no offsets:
// segment s is [s*segmentSize, min((s+1)*segmentSize, in.Len())), so the
// last one is short when segmentSize does not divide in.Len(), and out[s]
// gets its reduction for every s < ceil(in.Len() / segmentSize). segmentSize
// must be at least 1; out must have at least that many elements. in is a
// Slice, or a composition bound for the call that an instance declared
// with Over(in, iterator.Slice[int64](), iterator.Slice[int64]()): plain
// offsets, which RunFixed does not read. Unlike Run it reads no offsets, so
// it saves their traffic and the offsets buffer, and it knows the segments'
// size, so that a GPU folds tiny and small segments with a thread or 8
// lanes each, as RunWith does given MaxSegmentSize = segmentSize.
func (r *SegmentedReduceOp[T]) RunFixed(s *Stream, in Input[T], segmentSize int, out *Slice[T], init T) error {
	if r == nil || r.op == nil {
		return fmt.Errorf("gocccl: SegmentedReduce: nil operator")
	}
	src, err := input("SegmentedReduce input", in)
	if err != nil {
		return err
	}
	if err := out.usable("SegmentedReduce output"); err != nil {
		return err
	}
	if s, err = streamFor("SegmentedReduce", s, src.dev(), out.dev); err != nil {
		return err
	}
	if segmentSize < 1 {
		return r.errorf("segment size %d is not positive", segmentSize)
	}
	n := src.len()
	segs := (n + segmentSize - 1) / segmentSize
	if out.n < segs {
		return r.errorf("output has %d elements, fewer than the %d segments of %d items", out.n, segs, segmentSize)
	}
	ins := []*iter.Node{src.node(), nil, nil}
	if err := r.enterThrough(s.dev, ins, nil); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		hin, err := src.host(s.dev)
		if err != nil {
			return r.wrap(err, "")
		}
		return r.wrap(segmentedReduceFixedCPU(r.op, hin.host, segmentSize, out.host, init, s.dev.info.Workers), "")
	}
	k, err := r.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	if segs == 0 {
		return nil
	}
	kernel, grid := segmentedDispatchMax(n, segs, segmentSize, k.policy.BlockThreads, k.policy.Tile(), k.maxBlocks)
	kernel = segmentedFixed[kernel]
	var args cuda.Args
	if err := src.pack(&args); err != nil {
		return r.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Int64(int64(segmentSize))
	args.Int64(int64(segs))
	args.Ptr(out.ptr)
	args.Value(unsafe.Pointer(&init), int(unsafe.Sizeof(init)), int(unsafe.Alignof(init)))
	return k.launch(kernel, grid, s, &args)
}

// The SegmentedReduce kernels, by their suffix in the description.
var (
	segmentedWarp    = kernelIndex("warp", algo.SegmentedReduce)
	segmentedBlock   = kernelIndex("block", algo.SegmentedReduce)
	segmentedThread  = kernelIndex("thread", algo.SegmentedReduce)
	segmentedSubwarp = kernelIndex("subwarp", algo.SegmentedReduce)

	// segmentedFixed maps each kernel to its fixed-size twin.
	segmentedFixed = map[int]int{
		segmentedWarp:    kernelIndex("warp_fixed", algo.SegmentedReduce),
		segmentedBlock:   kernelIndex("block_fixed", algo.SegmentedReduce),
		segmentedThread:  kernelIndex("thread_fixed", algo.SegmentedReduce),
		segmentedSubwarp: kernelIndex("subwarp_fixed", algo.SegmentedReduce),
	}
)

// segmentedSubwarpLanes is the lanes a segment of segmented_reduce_subwarp
// (gocccl::SUBWARP_THREADS).
const segmentedSubwarpLanes = 8

// segmentedDispatchMax is segmentedDispatch for segments of at most m >= 1
// items: a thread per segment for segments of at most items per thread
// (tile / threads), where a block's segments fit one tile that it stages
// in shared memory; 8 lanes per segment up to 8 lanes' items; a warp per
// segment up to a warp's step (32 lanes' items), however few segments there
// are; and segmentedDispatch's choice for longer ones.
func segmentedDispatchMax(n, segs, m, threads, tile, maxBlocks int) (kernel, grid int) {
	items := tile / threads
	switch {
	case m <= items:
		return segmentedThread, min((segs+threads-1)/threads, 1<<31-1)
	case m <= segmentedSubwarpLanes*items:
		groups := threads / segmentedSubwarpLanes
		return segmentedSubwarp, min((segs+groups-1)/groups, 1<<31-1)
	case m <= 32*items:
		warps := threads / 32
		return segmentedWarp, min((segs+warps-1)/warps, 1<<31-1)
	}
	return segmentedDispatch(n, segs, threads, tile, maxBlocks)
}

// segmentedDispatch picks the kernel and grid of a segmented reduction of n
// items in segs > 0 segments, from the average segment length n/segs (the
// host cannot see the offsets without a copy). A warp per segment serves
// short segments always, and segments up to 4 tiles long when there are
// enough of them to give every resident warp one; a block per segment
// serves the rest (few long segments, where a warp each would leave the GPU
// idle). maxBlocks is the occupancy-sized grid of the warp kernel
// (subscription waves).
func segmentedDispatch(n, segs, threads, tile, maxBlocks int) (kernel, grid int) {
	avg := n / segs
	warps := threads / 32
	resident := max(1, maxBlocks/subscription) * warps
	if avg <= 512 || avg <= 4*tile && segs >= resident {
		return segmentedWarp, min((segs+warps-1)/warps, 1<<31-1)
	}
	return segmentedBlock, min(segs, 1<<31-1)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (r *SegmentedReduceOp[T]) TempStorageBytes(d *Device, segments int) (int, error) {
	if r == nil || r.op == nil {
		return 0, fmt.Errorf("gocccl: SegmentedReduce: nil operator")
	}
	if segments < 0 {
		return 0, r.errorf("negative segment count %d", segments)
	}
	return 0, nil
}
