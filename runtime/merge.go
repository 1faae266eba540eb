package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// MergeOp merges two sorted sequences into one, stably, as
// cub::DeviceMerge::MergeKeys does.
type MergeOp[T any] struct {
	instance
	less func(T, T) bool
}

// Merge declares a stable merge ordered by less, a //gocccl:op function
// that is a strict weak ordering.
func Merge[T any](less func(T, T) bool) *MergeOp[T] {
	return &MergeOp[T]{less: less, instance: newInstance(algo.Merge, []any{less}, reflect.TypeFor[T]())}
}

// Run writes the merge of a and b, both sorted by less, to out[0:a.Len()+
// b.Len()]. It is stable: of equal elements, a's come first, each input's in
// its order. It is enqueued on s (nil means the default stream of a's
// device).
func (m *MergeOp[T]) Run(s *Stream, a, b, out *Slice[T]) error {
	if m == nil || m.less == nil {
		return fmt.Errorf("gocccl: Merge: nil comparison")
	}
	if err := a.usableAs(m.name(), "first input"); err != nil {
		return err
	}
	if err := b.usableAs(m.name(), "second input"); err != nil {
		return err
	}
	if err := out.usableAs(m.name(), "output"); err != nil {
		return err
	}
	s, err := streamFor(m.name(), s, a.dev, b.dev, out.dev)
	if err != nil {
		return err
	}
	total := a.n + b.n
	if out.n < total {
		return m.errorf("output has %d elements, the inputs %d and %d", out.n, a.n, b.n)
	}
	if err := m.enter(s.dev); err != nil {
		return m.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return m.wrap(m.mergeCPU(a.host, b.host, out.host[:total], s.dev.info.Workers), "")
	}
	if total == 0 {
		return nil
	}
	return m.runGPU(s, a, b, out)
}

// runGPU enqueues merge_tiles (kernel 0) over the tiles of the output, with
// merge_partition (kernel 1) first when mergeSearches says the tiles should
// not find their splits themselves.
func (m *MergeOp[T]) runGPU(s *Stream, a, b, out *Slice[T]) error {
	d := s.dev
	k, err := m.kernels(d)
	if err != nil {
		return err
	}
	tilesK, partition := mergeTiles, mergePartition
	tile, threads := k.policy.Tile(), k.policy.BlockThreads
	tiles := (a.n + b.n + tile - 1) / tile
	// The splits live in the stream's scratch when they fit (the partition
	// kernel writes every one before the tiles read them). A grid of one
	// tile needs none, and one wave of tiles searches its own: no
	// partition launch either way, and a null splits pointer.
	var splits tileStates
	var args cuda.Args
	if !mergeSearches(tiles, k.resident) {
		if splits, err = s.tileStates((tiles + 1) * 8); err != nil {
			return m.wrap(err, fmt.Sprintf("scratch memory of %d bytes", (tiles+1)*8))
		}
		args.Ptr(a.ptr)
		args.Int64(int64(a.n))
		args.Ptr(b.ptr)
		args.Int64(int64(b.n))
		args.Ptr(splits.ptr)
		args.Int64(int64(tiles))
		err = k.launch(partition, (tiles+threads)/threads, s, &args)
	}
	if err == nil {
		args.Reset()
		args.Ptr(a.ptr)
		args.Int64(int64(a.n))
		args.Ptr(b.ptr)
		args.Int64(int64(b.n))
		args.Ptr(out.ptr)
		args.Ptr(splits.ptr)
		err = k.launch(tilesK, tiles, s, &args)
	}
	if ferr := splits.release(); err == nil && ferr != nil {
		err = m.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// mergeSearches reports whether a merge grid of tiles blocks finds its
// merge-path splits itself (the kernel's null-splits path: no partition
// launch, no split storage) rather than reading them from a partition
// kernel launched first: for one tile (nothing to find) and while the grid
// is at most four waves of resident blocks. Each block's search is a few
// rounds of dependent, warp-cooperative loads (about 1–2 µs on an H200)
// against a launch of 3–4 µs saved and the partition kernel's own binary
// searches; beyond a few waves the searches of later blocks cost
// throughput instead (each block probes 2 × 64 scattered keys a round where
// the partition kernel's one thread per boundary loads one). Measured on
// the H200 through Go (bench/NOTES.md, 2026-12-04 fourth session), search
// against partition: Merge uint64 at 2.1 waves 33 µs against 42, uint32 at
// 4.1 waves 61 against 64, uint64 at 8.3 waves 102 against 96, uint32 at
// 16 waves 213 against 176; MergeSort uint32 at 2.4 waves 223 against 256,
// at 9.7 waves 905 against 860. Merge and MergeSort share it.
func mergeSearches(tiles, resident int) bool {
	return tiles <= 4*max(1, resident)
}

// TempStorageBytes returns the device scratch memory a Run over n = a.Len()
// + b.Len() elements on d takes for the duration of the call: when the
// merge launches a partition kernel (a grid of more than one wave of
// resident tiles on d), one 8-byte split per tile boundary, in the stream's
// own scratch when they fit there (no allocation), else from the scratch
// pool. A merge whose tiles find their own splits (one tile, or at most one
// wave of them) takes none. It is 0 on the CPU backend.
func (m *MergeOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if m == nil || m.less == nil {
		return 0, fmt.Errorf("gocccl: Merge: nil comparison")
	}
	if n < 0 {
		return 0, fmt.Errorf("gocccl: %s: negative length %d", m.name(), n)
	}
	if err := m.enter(d); err != nil {
		return 0, err
	}
	defer d.exit()
	if d.ctx == nil || n == 0 {
		return 0, nil
	}
	k, err := m.kernels(d)
	if err != nil {
		return 0, err
	}
	tiles := (n + k.policy.Tile() - 1) / k.policy.Tile()
	if mergeSearches(tiles, k.resident) {
		return 0, nil
	}
	return (tiles + 1) * 8, nil
}

// The kernels of Merge, by their suffix in the description.
var (
	mergeTiles     = kernelIndex("tiles", algo.Merge)
	mergePartition = kernelIndex("partition", algo.Merge)
)
