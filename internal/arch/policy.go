package arch

// Policy is the launch configuration an instance's kernels are compiled with
// for one architecture; the runtime launches exactly this.
type Policy struct {
	Arch           int // compute capability × 10
	BlockThreads   int
	ItemsPerThread int
	// MinBlocks, when above 0, is the number of blocks per multiprocessor
	// the compiler must fit (the second argument of __launch_bounds__),
	// which caps the registers a thread may use. It shapes the compiled
	// kernel only: the glue does not record it.
	MinBlocks int
}

// Tile returns the number of items one block processes per tile.
func (p Policy) Tile() int { return p.BlockThreads * p.ItemsPerThread }

// MemBound is the tuning of a memory-bound kernel over elements of size
// bytes, as cub::MemBoundScaling scales CUB's sm_60+ tuning: 256 threads
// with about inflight bytes per thread per tile, between 1 and 32 items.
// Reduce keeps 64 bytes in flight, the transforms 32.
func MemBound(size int64, inflight int64, a int) Policy {
	size = max(size, 1)
	return Policy{Arch: a, BlockThreads: 256, ItemsPerThread: int(min(32, max(1, inflight/size)))}
}
