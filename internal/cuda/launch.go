package cuda

import (
	"math"
	"unsafe"
)

// Dim3 is the size of a grid in blocks, or of a block in threads. A zero Y
// or Z counts as 1, so Dim3{X: n} is one-dimensional.
type Dim3 struct{ X, Y, Z uint32 }

// norm returns d with a zero Y or Z replaced by 1.
func (d Dim3) norm() Dim3 {
	d.Y = max(d.Y, 1)
	d.Z = max(d.Z, 1)
	return d
}

// LaunchKernel queues kernel f on stream s (cuLaunchKernel) with grid
// blocks of block threads, sharedMemBytes of dynamic shared memory per block,
// and the parameters packed in args (nil for none). The driver copies args,
// so it may be reused as soon as LaunchKernel returns.
//
// LaunchKernel does not allocate. It returns args.Err() if building args
// failed, and never waits for the kernel: errors in the kernel itself are
// reported by later calls such as [Context.StreamSynchronize].
func (c *Context) LaunchKernel(f Function, grid, block Dim3, sharedMemBytes int, s Stream, args *Args) error {
	const call = "cuLaunchKernel"
	var buf unsafe.Pointer
	size := 0
	if args != nil {
		if err := args.Err(); err != nil {
			return err
		}
		buf, size = unsafe.Pointer(&args.buf), args.n
	}
	if sharedMemBytes < 0 || uint64(sharedMemBytes) > math.MaxUint32 {
		return errInvalid(call, "shared memory size %d out of range", sharedMemBytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuLaunchKernel(h, f, grid.norm(), block.norm(), sharedMemBytes, s, buf, size))
}

// OccupancyMaxActiveBlocksPerMultiprocessor returns how many blocks of
// blockSize threads, each with dynamicSmemBytes of dynamic shared memory, can
// run at once on one multiprocessor
// (cuOccupancyMaxActiveBlocksPerMultiprocessor).
func (c *Context) OccupancyMaxActiveBlocksPerMultiprocessor(f Function, blockSize, dynamicSmemBytes int) (int, error) {
	const call = "cuOccupancyMaxActiveBlocksPerMultiprocessor"
	if blockSize < 0 || blockSize > math.MaxInt32 {
		return 0, errInvalid(call, "block size %d out of range", blockSize)
	}
	if dynamicSmemBytes < 0 {
		return 0, errNegative(call, dynamicSmemBytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	n, r := cuOccupancyMaxActiveBlocksPerMultiprocessor(h, f, blockSize, dynamicSmemBytes)
	return n, check(call, r)
}
