package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// MergeSortKeysOp sorts keys in place with a comparison operator, stably.
type MergeSortKeysOp[K any] struct {
	instance
	less func(K, K) bool
}

// MergeSortKeys declares a stable sort by less, a //gocccl:op function that
// reports whether its first argument is ordered before its second. less
// must be a strict weak order (irreflexive, transitive, with transitive
// equivalence), as for cub::DeviceMergeSort and slices.SortStableFunc: with
// any other relation, e.g. a < b on floats that include NaNs, the order the
// GPU and the CPU backend produce is unspecified and they may differ.
// Equivalent keys keep their input order. Any key type an operator accepts
// works, structs included.
func MergeSortKeys[K any](less func(K, K) bool) *MergeSortKeysOp[K] {
	return &MergeSortKeysOp[K]{less: less, instance: newInstance(algo.MergeSortKeys, []any{less}, reflect.TypeFor[K]())}
}

// Run sorts keys in place. It is enqueued on s (nil means the default
// stream of keys' device) and returns without waiting on a GPU (except on
// GPUs without stream-ordered memory pools, where it waits to free its
// scratch memory).
func (m *MergeSortKeysOp[K]) Run(s *Stream, keys *Slice[K]) error {
	if m == nil || m.less == nil {
		return fmt.Errorf("gocccl: MergeSortKeys: nil comparator")
	}
	if err := keys.usable("MergeSortKeys keys"); err != nil {
		return err
	}
	s, err := streamFor("MergeSortKeys", s, keys.dev)
	if err != nil {
		return err
	}
	if err := m.enter(s.dev); err != nil {
		return m.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return m.wrap(sortStableCPU(keys.host, m.less, s.dev.info.Workers), "")
	}
	return mergeSortGPU(&m.instance, s, nil, sortInput{ptr: keys.ptr}, sortInput{}, keys.ptr, 0, keys.n, elemSize[K](), 0)
}

// TempStorageBytes returns the device scratch memory a Run over n keys on d
// takes for the duration of the call (stream-ordered, freed as the work
// completes): a copy of the keys and, when the merge passes launch a
// partition kernel (more tiles than four waves of resident merge blocks on
// d, mergeSearches), the merge splits. It is 0 on the CPU backend and for n within one
// tile.
func (m *MergeSortKeysOp[K]) TempStorageBytes(d *Device, n int) (int, error) {
	if m == nil || m.less == nil {
		return 0, fmt.Errorf("gocccl: MergeSortKeys: nil comparator")
	}
	return mergeSortTemp(&m.instance, d, n, elemSize[K](), 0)
}

// MergeSortPairsOp sorts keys in place with a comparison operator, stably,
// and moves a value with each key.
type MergeSortPairsOp[K, V any] struct {
	instance
	less func(K, K) bool
}

// MergeSortPairs declares a stable sort of key-value pairs by the keys with
// less, a strict weak order as for MergeSortKeys. V appears in no operator,
// so declare it with explicit type arguments:
// runtime.MergeSortPairs[Key, Value](Less).
func MergeSortPairs[K, V any](less func(K, K) bool) *MergeSortPairsOp[K, V] {
	return &MergeSortPairsOp[K, V]{less: less, instance: newInstance(algo.MergeSortPairs, []any{less}, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run sorts keys in place and permutes values (of the same length) alike:
// values[i] stays with keys[i]. It is enqueued on s (nil means the default
// stream of keys' device), as MergeSortKeysOp.Run.
func (m *MergeSortPairsOp[K, V]) Run(s *Stream, keys *Slice[K], values *Slice[V]) error {
	if m == nil || m.less == nil {
		return fmt.Errorf("gocccl: MergeSortPairs: nil comparator")
	}
	if err := keys.usable("MergeSortPairs keys"); err != nil {
		return err
	}
	if err := values.usable("MergeSortPairs values"); err != nil {
		return err
	}
	s, err := streamFor("MergeSortPairs", s, keys.dev, values.dev)
	if err != nil {
		return err
	}
	if keys.n != values.n {
		return m.errorf("%d keys and %d values", keys.n, values.n)
	}
	if err := m.enter(s.dev); err != nil {
		return m.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return m.wrap(sortPairsCPU(keys.host, values.host, m.less, s.dev.info.Workers), "")
	}
	return mergeSortGPU(&m.instance, s, nil, sortInput{ptr: keys.ptr}, sortInput{ptr: values.ptr}, keys.ptr, values.ptr, keys.n, elemSize[K](), elemSize[V]())
}

// TempStorageBytes returns the device scratch memory a Run over n pairs on
// d takes for the duration of the call: copies of the keys and values and,
// as for MergeSortKeysOp, the merge splits when the passes launch a
// partition kernel. It is 0 on the CPU backend and for n within one tile.
func (m *MergeSortPairsOp[K, V]) TempStorageBytes(d *Device, n int) (int, error) {
	if m == nil || m.less == nil {
		return 0, fmt.Errorf("gocccl: MergeSortPairs: nil comparator")
	}
	return mergeSortTemp(&m.instance, d, n, elemSize[K](), elemSize[V]())
}

// mergeSortScratch is the layout of a merge sort's scratch memory: the
// keys' copy at 0, the values' copy, and the num_tiles+1 merge splits
// (int64) when a partition kernel writes them, each aligned to 256 bytes.
type mergeSortScratch struct {
	values, partitions, total int
}

// mergeSortLayout lays out the scratch of a sort of n keys of ksize bytes
// and values of vsize (0: keys only) in tiles of tile keys; splits says
// whether the merge passes read their splits from it (a partition kernel
// per pass) rather than search them (mergeSearches).
func mergeSortLayout(n, tile, ksize, vsize int, splits bool) mergeSortScratch {
	up := func(x int) int { return (x + 255) &^ 255 }
	var l mergeSortScratch
	l.values = up(n * ksize)
	l.partitions = l.values + up(n*vsize)
	l.total = l.partitions
	if splits {
		l.total += ((n+tile-1)/tile + 1) * 8
	}
	return l
}

// mergeSortTemp is TempStorageBytes of both sorts (vsize 0: keys only).
// It reads the instance's own kernels also for RunCopy through iterators,
// whose kernels (kernelsThrough) are another registration: only the block
// and single kernels read the input, so the policy and the merge kernel's wave, all the
// layout depends on, are the same in both.
func mergeSortTemp(in *instance, d *Device, n, ksize, vsize int) (int, error) {
	if n < 0 {
		return 0, in.errorf("negative length %d", n)
	}
	if err := in.enter(d); err != nil {
		return 0, in.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := in.kernels(d)
	if err != nil {
		return 0, err
	}
	tile := k.policy.Tile()
	if n <= tile {
		return 0, nil
	}
	return mergeSortLayout(n, tile, ksize, vsize, !mergeSearches((n+tile-1)/tile, k.wave(mergeSortMerge))).total, nil
}

// The kernels of a merge sort instance, by their suffix in the
// descriptions (MergeSortKeys' and MergeSortPairs' alike).
var (
	mergeSortBlock     = kernelIndex("block", algo.MergeSortKeys, algo.MergeSortPairs)     // sorts each tile
	mergeSortPartition = kernelIndex("partition", algo.MergeSortKeys, algo.MergeSortPairs) // a pass's splits, above four waves of tiles
	mergeSortMerge     = kernelIndex("merge", algo.MergeSortKeys, algo.MergeSortPairs)     // a pass's merges
	mergeSortSingle    = kernelIndex("single", algo.MergeSortKeys, algo.MergeSortPairs)    // sorts up to one tile, in the smallest tile that holds it
)

// sortInput is what a merge sort's block kernel reads the keys or values
// from: a device pointer, or a bound iterator composition.
type sortInput struct {
	ptr cuda.DevicePtr
	it  *boundIter
}

// sortInputOf is the block kernel's input of a resolved input.
func sortInputOf[T any](a src[T]) sortInput {
	if a.it != nil {
		return sortInput{it: a.it}
	}
	return sortInput{ptr: a.s.ptr}
}

func (a sortInput) pack(args *cuda.Args) error {
	if a.it != nil {
		return a.it.pack(args)
	}
	args.Ptr(a.ptr)
	return nil
}

// mergeSortGPU enqueues the sort (kernels/include/gocccl/merge_sort.cuh) of
// n keys at keys and, when vsize > 0, n values at values: up to one tile,
// one launch of the single kernel; above, the block sort and the merge
// passes. The single kernel and the block sort read keysIn and valuesIn:
// the keys and values themselves to sort in place, or RunCopy's inputs,
// read through the compositions ins (nil: plain buffers). The kernels are
// block, partition, merge and single (mergeSortBlock, …). While the tiles are at most four waves of resident merge blocks
// (mergeSearches), every merge block searches its own splits: a pass is one
// launch, and the scratch holds no splits.
func mergeSortGPU(in *instance, s *Stream, ins []*iter.Node, keysIn, valuesIn sortInput, keys, values cuda.DevicePtr, n, ksize, vsize int) error {
	pairs := vsize > 0
	inPlace := keysIn.it == nil && keysIn.ptr == keys && (!pairs || valuesIn.it == nil && valuesIn.ptr == values)
	if n == 0 || n == 1 && inPlace {
		return nil
	}
	d := s.dev
	var k kernels
	var err error
	if ins == nil {
		k, err = in.kernels(d)
	} else {
		k, err = in.kernelsThrough(d, ins, nil)
	}
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	tiles := (n + tile - 1) / tile
	passes := 0
	for 1<<passes < tiles {
		passes++
	}

	var args cuda.Args
	// The arguments the single kernel and the block sort start with.
	packData := func() error {
		if err := keysIn.pack(&args); err != nil {
			return in.wrap(err, "")
		}
		if pairs {
			if err := valuesIn.pack(&args); err != nil {
				return in.wrap(err, "")
			}
		}
		args.Ptr(keys)
		if pairs {
			args.Ptr(values)
		}
		return nil
	}
	if tiles == 1 {
		if err := packData(); err != nil {
			return err
		}
		args.Int64(int64(n))
		return k.launch(mergeSortSingle, 1, s, &args)
	}

	searches := mergeSearches(tiles, k.wave(mergeSortMerge))
	l := mergeSortLayout(n, tile, ksize, vsize, !searches)
	tmp, err := d.tempAlloc(l.total, s)
	if err != nil {
		return in.wrap(err, fmt.Sprintf("scratch memory of %d bytes", l.total))
	}
	tmpKeys, tmpValues := tmp, tmp+cuda.DevicePtr(l.values)
	var parts cuda.DevicePtr // null: the merge blocks search their splits
	if !searches {
		parts = tmp + cuda.DevicePtr(l.partitions)
	}
	// The block sort writes to the scratch copy when the number of passes
	// is odd, so that the last pass writes to the caller's buffers.
	inTmp := passes%2 == 1
	err = packData()
	if err == nil {
		args.Ptr(tmpKeys)
		if pairs {
			args.Ptr(tmpValues)
		}
		args.Int64(int64(n))
		args.Int64(boolInt(inTmp))
		err = k.launch(mergeSortBlock, tiles, s, &args)
	}
	partitionGrid := (tiles + 1 + k.policy.BlockThreads - 1) / k.policy.BlockThreads
	for p := 0; p < passes && err == nil; p++ {
		merged := int64(2) << p
		if !searches {
			args.Reset()
			args.Ptr(keys)
			args.Ptr(tmpKeys)
			args.Int64(int64(n))
			args.Ptr(parts)
			args.Int64(boolInt(inTmp))
			args.Int64(merged)
			if err = k.launch(mergeSortPartition, partitionGrid, s, &args); err != nil {
				break
			}
		}
		args.Reset()
		args.Ptr(keys)
		if pairs {
			args.Ptr(values)
		}
		args.Ptr(tmpKeys)
		if pairs {
			args.Ptr(tmpValues)
		}
		args.Int64(int64(n))
		args.Ptr(parts)
		args.Int64(boolInt(inTmp))
		args.Int64(merged)
		err = k.launch(mergeSortMerge, tiles, s, &args)
		inTmp = !inTmp
	}
	if ferr := d.tempFree(tmp, s); err == nil && ferr != nil {
		err = in.wrap(ferr, "freeing scratch memory")
	}
	return err
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
