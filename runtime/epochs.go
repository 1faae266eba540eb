package runtime

import (
	"fmt"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Epoch-tagged tile states (kernels/include/gocccl/epoch_tile_state.cuh)
// let a decoupled look-back run in one launch: every state a tile publishes
// carries the number of the call that wrote it, so the states earlier calls
// left in the stream's memory read as "not yet published" and need no init
// kernel before each call. The host's side of the protocol is here: a
// region of memory per stream that nothing else writes, initialized once,
// and an epoch per call, distinct since that init.

// epochRegion is a stream's memory for epoch tile states. Only look-backs
// over epoch states write it, and only in stream order.
type epochRegion struct {
	ptr   cuda.DevicePtr
	bytes int    // allocated
	ready int    // bytes initialized by the last init (0: none since allocated)
	last  uint32 // the epoch of the last direct call since that init
}

const (
	// epochMax is EPOCH_TILE_MAX. Direct calls use 1 … epochMax-1; epochMax
	// itself is reserved for calls that initialize their range right before
	// (captured calls, pool memory), so that the states a graph replay
	// leaves are stale for every direct call whenever the replay runs.
	epochMax = 1<<30 - 1
	// epochMaxWords and epochPaddingWords are EPOCH_TILE_MAX_WORDS and
	// EPOCH_TILE_PADDING_WORDS: a tile's state is one 8-byte word per 4
	// bytes of its value, at most 4, after 32 tiles of the widest padding.
	epochMaxWords     = 4
	epochPaddingWords = 32 * epochMaxWords
	// epochRegionMin is the smallest region a stream allocates.
	epochRegionMin = 64 << 10
)

// epochStateBytes returns the bytes of epoch tile states for tiles tiles of
// look-back values of size bytes (EpochTileState<T>::AllocationSize), and
// false when such values do not fit the epoch form (more than 16 bytes:
// the algorithm keeps CUB's tile states).
func epochStateBytes(tiles, size int) (int, bool) {
	words := (max(size, 1) + 3) / 4
	if words > epochMaxWords {
		return 0, false
	}
	return (epochPaddingWords + words*tiles) * 8, true
}

// lookBack is one call's tile states for a decoupled look-back: in the
// stream's epoch region, in the stream's scratch (CUB's states, locked until
// release) or from the scratch pool.
type lookBack struct {
	s     *Stream
	ptr   cuda.DevicePtr
	bytes int    // the states' size: the kernels' state_bytes
	epoch uint32 // the sweep's epoch (epoch form only)
	// init says whether the algorithm's init kernel must run over the
	// states before the sweep: always for CUB's states, and for epoch
	// states when the region is new, grown or out of epochs, or the call
	// is captured or on pool memory.
	init   bool
	unlock bool // release unlocks the stream's scratch
	pooled bool // release frees ptr to the pool
}

// lookBack returns the tile states of one call over tiles tiles whose
// look-back values are size bytes: the epoch form when they fit it, else
// cubBytes of CUB's form (tileStates). Release it once the call's kernels
// are enqueued. The caller has entered the device.
func (s *Stream) lookBack(tiles, size, cubBytes int) (lookBack, error) {
	bytes, ok := epochStateBytes(tiles, size)
	if !ok {
		t, err := s.tileStates(cubBytes)
		if err != nil {
			return lookBack{}, fmt.Errorf("scratch memory of %d bytes: %w", cubBytes, err)
		}
		return lookBack{s: s, ptr: t.ptr, bytes: cubBytes, init: true, unlock: !t.pooled, pooled: t.pooled}, nil
	}
	lb, err := s.epochStates(bytes)
	if err != nil {
		return lookBack{}, fmt.Errorf("epoch tile states of %d bytes: %w", bytes, err)
	}
	return lb, nil
}

// epochStates returns bytes of epoch tile states and the call's epoch.
//
// A direct call (no capture open on the stream) uses the stream's epoch
// region, growing it when it is smaller than bytes and no Graph holds its
// address, and takes the next epoch; it runs the init kernel only when the
// region is new or grown, or its initialized part is smaller than bytes, or
// the epochs since the last init run out. A call being captured runs the
// init over its range on every replay and uses the reserved epochMax, in the
// region when it fits there, else in pool memory; so does a direct call that
// needs more than the region while a Graph holds it.
func (s *Stream) epochStates(bytes int) (lookBack, error) {
	sc := &s.scratch
	sc.mu.Lock()
	r := &sc.epochs
	if sc.capturing || (sc.graphs > 0 && bytes > r.bytes) {
		if r.ptr != 0 && bytes <= r.bytes {
			return lookBack{s: s, ptr: r.ptr, bytes: bytes, epoch: epochMax, init: true, unlock: true}, nil
		}
		sc.mu.Unlock()
		p, err := s.dev.tempAlloc(bytes, s)
		if err != nil {
			return lookBack{}, err
		}
		return lookBack{s: s, ptr: p, bytes: bytes, epoch: epochMax, init: true, pooled: true}, nil
	}
	if bytes > r.bytes {
		if err := s.growEpochs(bytes); err != nil {
			sc.mu.Unlock()
			return lookBack{}, err
		}
	}
	epoch, init := r.take(bytes)
	return lookBack{s: s, ptr: r.ptr, bytes: bytes, epoch: epoch, init: init, unlock: true}, nil
}

// take returns the epoch of a direct call over the first bytes of the
// region (allocated to at least bytes), and whether the call must run the
// init kernel over them first: when no init covered them since the region
// was allocated, or the epochs since the last init ran out. An init restarts
// the epochs at 1; direct calls never get epochMax.
func (r *epochRegion) take(bytes int) (epoch uint32, init bool) {
	init = r.ready < bytes || r.last >= epochMax-1
	if init {
		r.ready, r.last = bytes, 0
	}
	r.last++
	return r.last, init
}

// growEpochs replaces the stream's epoch region by one of at least bytes,
// once the stream's work is done with the old one. The caller holds
// scratch.mu, and no Graph holds the region.
func (s *Stream) growEpochs(bytes int) error {
	r, d := &s.scratch.epochs, s.dev
	if r.ptr != 0 {
		if err := d.ctx.StreamSynchronize(s.handle); err != nil {
			return fmt.Errorf("growing epoch tile states: %w", err)
		}
		untrackStreamOwned(d, r.ptr)
		if err := d.ctx.MemFree(r.ptr); err != nil {
			return fmt.Errorf("growing epoch tile states: %w", err)
		}
		*r = epochRegion{}
	}
	size := max(bytes, epochRegionMin)
	p, err := d.allocate(size)
	if err != nil {
		return fmt.Errorf("epoch tile states of %s: %w", byteSize(int64(size)), err)
	}
	trackStreamOwned(d, p)
	*r = epochRegion{ptr: p, bytes: size}
	return nil
}

// release ends the call's use of its tile states: it unlocks the stream's
// scratch, or frees pool memory once the stream's work is done with it.
func (lb lookBack) release() error {
	switch {
	case lb.pooled:
		return lb.s.dev.tempFree(lb.ptr, lb.s)
	case lb.unlock:
		lb.s.scratch.mu.Unlock()
	}
	return nil
}

// initGrid is the grid of an init kernel with threads threads a block over
// the call's states: one thread a tile for CUB's states (plus CUB's 32
// tiles of padding), one a word for the epoch region (whose init is
// grid-stride, so the grid is capped).
func (lb lookBack) initGrid(tiles, threads int) int {
	if lb.epoch == 0 {
		return max(1, (tiles+32+threads-1)/threads)
	}
	return max(1, min((lb.bytes/8+threads-1)/threads, 4096))
}
