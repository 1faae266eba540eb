package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// BatchedCopyOp copies many ranges of elements in one call, as
// cub::DeviceMemcpy::Batched and DeviceCopy::Batched do for many buffers:
// here every range is a part of one source Slice copied to a part of one
// destination Slice (the same Slice, or views of one allocation, for copies
// within a buffer), so that ranges are checked against their buffers and a
// kernel never writes outside them.
type BatchedCopyOp[T any] struct {
	instance
}

// BatchedCopy declares a batched copy of elements of type T. It takes no
// operator: declare it with its type, runtime.BatchedCopy[byte](), and
// gocccl-gen generates its kernels. For untyped bytes, declare it over
// byte and view the buffers as bytes.
func BatchedCopy[T any]() *BatchedCopyOp[T] {
	return &BatchedCopyOp[T]{instance: newInstance(algo.BatchedCopy, nil, reflect.TypeFor[T]())}
}

// Over declares the instance reading its source offsets, destination
// offsets and sizes through the iterator compositions srcOffsets,
// dstOffsets and sizes (package iterator; nil for a plain buffer), so that
// gocccl-gen compiles them; see ReduceOp.Over. Ranges of one size need no
// sizes buffer: iterator.Constant.
func (b *BatchedCopyOp[T]) Over(srcOffsets, dstOffsets, sizes Iterator[int64]) *BatchedCopyOp[T] {
	return b
}

// batchedCopyLarge is the size in bytes from which a range is copied by
// every block of the large kernel rather than by one warp
// (BATCHED_COPY_LARGE_BYTES of kernels/include/gocccl/batched_copy.cuh): it
// bounds the queue of such ranges by the destination's bytes.
const batchedCopyLarge = 32 << 10

// Run copies, for every range r, the sizes[r] elements of src from
// srcOffsets[r] on to dst from dstOffsets[r] on (offsets and sizes in
// elements). srcOffsets, dstOffsets and sizes are int64 Slices or iterator
// compositions bound for the call that an instance declared with Over; they
// have one length, the number of ranges (a composition without a length,
// such as an iterator.Constant of sizes, takes the others'). src and dst may
// be one Slice. Ranges whose destinations overlap one another or any
// source give unspecified elements there, as CUB's do.
//
// Every range lies inside its buffers: 0 <= srcOffsets[r], sizes[r] and
// srcOffsets[r]+sizes[r] <= src.Len(), likewise for dst. The CPU backend
// reports a range that does not, before it copies anything; on a GPU, where
// the offsets are not read before the launch, such a range is skipped (no
// byte outside the buffers is read or written).
//
// It is enqueued on s (nil means the default stream of src's device) as
// one or two kernels and returns without waiting on a GPU. A range of at
// least 32 KiB is queued in scratch memory for the second kernel (see
// TempStorageBytes).
func (b *BatchedCopyOp[T]) Run(s *Stream, src, dst *Slice[T], srcOffsets, dstOffsets, sizes Input[int64]) error {
	if b == nil {
		return errNilOperator("BatchedCopy")
	}
	if err := src.usableAs(b.name(), "source"); err != nil {
		return err
	}
	if err := dst.usableAs(b.name(), "destination"); err != nil {
		return err
	}
	so, err := inputOf(b.name()+" source offsets", srcOffsets, true)
	if err != nil {
		return err
	}
	do, err := inputOf(b.name()+" destination offsets", dstOffsets, true)
	if err != nil {
		return err
	}
	sz, err := inputOf(b.name()+" sizes", sizes, true)
	if err != nil {
		return err
	}
	n := max(so.len(), do.len(), sz.len())
	if n < 0 {
		return b.errorf("neither the offsets nor the sizes have a length: give one with Take(n)")
	}
	so, do, sz = so.withLen(n), do.withLen(n), sz.withLen(n)
	if so.len() != n || do.len() != n || sz.len() != n {
		return b.errorf("%d source offsets, %d destination offsets and %d sizes: one per range", so.len(), do.len(), sz.len())
	}
	s, err = streamFor(b.name(), s, src.dev, dst.dev, so.dev(), do.dev(), sz.dev())
	if err != nil {
		return err
	}
	ins := []*iter.Node{so.node(), do.node(), sz.node()}
	if err := b.enterThrough(s.dev, ins, nil); err != nil {
		return b.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return b.cpu(s.dev, src, dst, so, do, sz)
	}
	if n == 0 {
		return nil
	}
	k, err := b.kernelsThrough(s.dev, ins, nil)
	if err != nil {
		return err
	}
	capacity := batchedCopyQueue(n, dst.n, elemSize[T]())
	var head, queue cuda.DevicePtr
	var ts tileStates
	if capacity > 0 {
		if head, err = s.zeroedScratch(16); err != nil {
			return b.wrap(err, "")
		}
		if ts, err = s.tileStates(8 * capacity); err != nil {
			return b.wrap(err, "")
		}
		defer ts.release()
		queue = ts.ptr
	}
	var args cuda.Args
	args.Ptr(src.ptr)
	args.Int64(int64(src.n))
	args.Ptr(dst.ptr)
	args.Int64(int64(dst.n))
	if err := so.pack(&args); err != nil {
		return b.wrap(err, "")
	}
	if err := do.pack(&args); err != nil {
		return b.wrap(err, "")
	}
	if err := sz.pack(&args); err != nil {
		return b.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Ptr(queue)
	args.Int64(int64(capacity))
	args.Ptr(head)
	warps := max(1, k.policy.BlockThreads/32)
	if err := k.launch(batchedCopySmall, max(1, min((n+warps-1)/warps, k.maxBlocks)), s, &args); err != nil {
		return err
	}
	if capacity == 0 {
		return nil
	}
	return k.launch(batchedCopyLargeKernel, k.wave(batchedCopyLargeKernel), s, &args)
}

// batchedCopyQueue is the number of large ranges the queue holds: as many as
// fit in the destination side by side, at most one per range. A GPU copies
// further large ranges (overlapping ones) with one warp each.
func batchedCopyQueue(ranges, dstLen, size int) int {
	return min(ranges, dstLen*size/batchedCopyLarge)
}

// cpu checks every range, then copies them, on the CPU backend; its
// errors name the instance.
func (b *BatchedCopyOp[T]) cpu(d *Device, src, dst *Slice[T], so, do, sz src[int64]) error {
	hs, err := so.host(d)
	if err != nil {
		return b.wrap(err, "source offsets")
	}
	hd, err := do.host(d)
	if err != nil {
		return b.wrap(err, "destination offsets")
	}
	hz, err := sz.host(d)
	if err != nil {
		return b.wrap(err, "sizes")
	}
	x, y := src.host, dst.host
	offs, offd, sizes := hs.host, hd.host, hz.host
	for r, n := range sizes {
		switch a, c := offs[r], offd[r]; {
		case n < 0:
			return b.errorf("range %d has size %d", r, n)
		case a < 0 || a > int64(len(x))-n:
			return b.errorf("range %d: source elements [%d, %d) are outside the source's %d", r, a, a+n, len(x))
		case c < 0 || c > int64(len(y))-n:
			return b.errorf("range %d: destination elements [%d, %d) are outside the destination's %d", r, c, c+n, len(y))
		}
	}
	_, err = parallel(len(sizes), d.info.Workers, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			copy(y[offd[r]:offd[r]+sizes[r]], x[offs[r]:offs[r]+sizes[r]])
		}
	})
	return b.wrap(err, "")
}

// TempStorageBytes returns the device scratch memory a Run of ranges ranges
// into a destination of dstLen elements on d uses: a queue of 8 bytes per
// range of at least 32 KiB that the destination can hold side by side, in
// the stream's own scratch (allocated once per stream) while it fits there
// (256 KiB), else from the device's scratch pool. It is 0 on the CPU
// backend.
func (b *BatchedCopyOp[T]) TempStorageBytes(d *Device, ranges, dstLen int) (int, error) {
	if b == nil {
		return 0, errNilOperator("BatchedCopy")
	}
	if ranges < 0 || dstLen < 0 {
		return 0, b.errorf("negative count: %d ranges into %d elements", ranges, dstLen)
	}
	if err := b.enter(d); err != nil {
		return 0, err
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	return 8 * batchedCopyQueue(ranges, dstLen, elemSize[T]()), nil
}

// batchedCopySmall and batchedCopyLargeKernel are BatchedCopy's kernels, by
// their suffixes in the description.
var (
	batchedCopySmall       = kernelIndex("small", algo.BatchedCopy)
	batchedCopyLargeKernel = kernelIndex("large", algo.BatchedCopy)
)
