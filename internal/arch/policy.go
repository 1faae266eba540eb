package arch

import "fmt"

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
	// Delay is how a block of a decoupled look-back waits for the tile
	// states of the blocks before it; the zero value is CUB's default. It
	// shapes the compiled kernel only, as MinBlocks does, and only the
	// kernels of an algorithm that looks back take it.
	Delay Delay
}

// DelayKind names one of CUB's ways to wait in a decoupled look-back
// (kernels/include/gocccl/look_back.cuh).
type DelayKind int

const (
	// DefaultDelay is CUB's default for the scan value (the zero Delay).
	DefaultDelay DelayKind = iota
	// FixedDelay waits L2WriteLatency ns before the first look back and
	// Ns before each new read of a predecessor's state that was not ready
	// (cub::detail::fixed_delay_constructor_t).
	FixedDelay
	// NoDelay waits L2WriteLatency ns before the first look back and then
	// reads again at once (cub::detail::no_delay_constructor_t).
	NoDelay
)

// Delay is the wait of a decoupled look-back, in nanoseconds, as CUB's
// sm_90 tunings give it (CCCL's tuning_*.cuh).
type Delay struct {
	Kind           DelayKind
	Ns             int // FixedDelay's wait between reads
	L2WriteLatency int // the wait before the first read (FixedDelay, NoDelay)
}

// Fixed returns a FixedDelay.
func Fixed(ns, l2WriteLatency int) Delay {
	return Delay{Kind: FixedDelay, Ns: ns, L2WriteLatency: l2WriteLatency}
}

// CType returns the tag type of the kernel templates for d:
// "::gocccl::FixedDelay<648, 1245>".
func (d Delay) CType() string {
	switch d.Kind {
	case FixedDelay:
		return fmt.Sprintf("::gocccl::FixedDelay<%d, %d>", d.Ns, d.L2WriteLatency)
	case NoDelay:
		return fmt.Sprintf("::gocccl::NoDelay<%d>", d.L2WriteLatency)
	}
	return "::gocccl::DefaultDelay"
}

// Tile returns the number of items one block processes per tile.
func (p Policy) Tile() int { return p.BlockThreads * p.ItemsPerThread }

// MemBound is the tuning of a memory-bound kernel over elements of size
// bytes, as cub::MemBoundScaling scales CUB's sm_60+ tuning: 256 threads
// with about inflight bytes per thread per tile, between 1 and 32 items.
// Reduce keeps 64 bytes in flight, the transforms 32, AdjacentDifference
// 16 (one 16-byte chunk a lane).
func MemBound(size int64, inflight int64, a int) Policy {
	size = max(size, 1)
	return Policy{Arch: a, BlockThreads: 256, ItemsPerThread: int(min(32, max(1, inflight/size)))}
}
