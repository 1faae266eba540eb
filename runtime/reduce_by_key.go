package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// ReduceByKeyOp reduces the values of every run of equal consecutive keys.
type ReduceByKeyOp[K, V any] struct {
	instance
	eq func(K, K) bool
	op func(V, V) V
}

// ReduceByKey declares a reduce-by-key with equal and op, //gocccl:op
// functions, as cub::DeviceReduce::ReduceByKey. op must be associative; it
// need not be commutative (values are combined in order, so floating-point
// sums differ from a sequential loop only by reassociation).
func ReduceByKey[K, V any](equal func(K, K) bool, op func(V, V) V) *ReduceByKeyOp[K, V] {
	return &ReduceByKeyOp[K, V]{eq: equal, op: op,
		instance: newInstance(algo.ReduceByKey, []any{equal, op}, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run finds the runs of consecutive keys that are equal to their
// predecessor, and writes for run r its first key to unique[r] and the
// reduction of its values (in order) to aggregates[r], and the number of
// runs to numRuns[0]. keys and values have equal lengths n; unique and
// aggregates must hold n elements (the count is only known on the device);
// elements past the runs are left alone. No two of the five buffers may
// overlap (as cub::DeviceReduce::ReduceByKey: a tile reads its
// predecessor's last key, and a twin's second scan its values again, while
// other tiles write their runs). It is enqueued on s (nil means the
// default stream of keys' device) and returns without waiting on a GPU
// (except on GPUs without stream-ordered memory pools).
func (r *ReduceByKeyOp[K, V]) Run(s *Stream, keys *Slice[K], values *Slice[V], unique *Slice[K], aggregates *Slice[V], numRuns *Slice[int64]) error {
	if r == nil || r.eq == nil || r.op == nil {
		return fmt.Errorf("gocccl: ReduceByKey: nil operator")
	}
	if err := keys.usable("ReduceByKey keys"); err != nil {
		return err
	}
	if err := values.usable("ReduceByKey values"); err != nil {
		return err
	}
	if err := unique.usable("ReduceByKey unique keys"); err != nil {
		return err
	}
	if err := aggregates.usable("ReduceByKey aggregates"); err != nil {
		return err
	}
	if err := numRuns.usable("ReduceByKey run count"); err != nil {
		return err
	}
	s, err := streamFor("ReduceByKey", s, keys.dev, values.dev, unique.dev, aggregates.dev, numRuns.dev)
	if err != nil {
		return err
	}
	n := keys.n
	switch {
	case values.n != n:
		return r.errorf("%d keys but %d values", n, values.n)
	case unique.n < n || aggregates.n < n:
		return r.errorf("outputs of %d unique keys and %d aggregates cannot hold up to %d runs", unique.n, aggregates.n, n)
	case numRuns.n < 1:
		return r.errorf("run count buffer has no element")
	}
	const alg = "ReduceByKey"
	if err := disjoint(alg, bufferOf(alg, "keys", keys), bufferOf(alg, "values", values), bufferOf(alg, "unique keys", unique),
		bufferOf(alg, "aggregates", aggregates), bufferOf(alg, "run count", numRuns)); err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		runs, err := reduceByKeyCPU(r.eq, r.op, keys.host, values.host, unique.host, aggregates.host)
		if err != nil {
			return r.wrap(err, "")
		}
		numRuns.host[0] = int64(runs)
		return nil
	}
	return r.runGPU(s, keys, values, unique, aggregates, numRuns)
}

// The ReduceByKey kernels, by their suffix in the description.
var (
	reduceByKeyInit  = kernelIndex("init", algo.ReduceByKey)
	reduceByKeySweep = kernelIndex("sweep", algo.ReduceByKey)
)

// reduceByKeyStateBytes bounds cub::ReduceByKeyScanTileState<V, long
// long>::AllocationSize(tiles) in either of its layouts: the generic one,
// three arrays (status words, partial and inclusive pairs) of tiles + 32
// (the look-back padding) entries, each 256-byte aligned, with room for
// aligning the base; and the packed one, one 16-byte word per entry, which
// is smaller. The init kernel traps if the bound were ever short.
func reduceByKeyStateBytes(tiles, valueSize int) int {
	pair := max(16, 8+(valueSize+7)/8*8)
	return 3*((tiles+32)*pair+256) + 512
}

// reduceByKeyPairSize is the size of the look-back's values,
// sizeof(cub::KeyValuePair<long long, V>) (reduce_by_key.cuh's RunPair<V>):
// Go lays out this struct as C++ does that one, since the C++ spelling of
// every V has V's Go size and alignment (gocccl-gen asserts it). 16 bytes
// for any V of up to 8 bytes (epoch tile states), more beyond (CUB's).
func reduceByKeyPairSize[V any]() int {
	var p struct {
		key   int64
		value V
	}
	return int(unsafe.Sizeof(p))
}

// runGPU launches a reduce-by-key: the sweep alone on one block for a
// single tile (n == 0 included), else the sweep over tile states
// (lookBack), after their init kernel when they need one: for look-back
// pairs of at most 16 bytes only when the stream's epoch region is new,
// grown or out of epochs, so a call is one launch.
func (r *ReduceByKeyOp[K, V]) runGPU(s *Stream, keys *Slice[K], values *Slice[V], unique *Slice[K], aggregates *Slice[V], numRuns *Slice[int64]) error {
	d := s.dev
	k, err := r.kernels(d)
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	tiles := max(1, (keys.n+tile-1)/tile)
	var lb lookBack
	var args cuda.Args
	if tiles > 1 {
		// A single tile reads and writes no tile state: no init, no state.
		if lb, err = s.lookBack(tiles, reduceByKeyPairSize[V](), reduceByKeyStateBytes(tiles, elemSize[V]())); err != nil {
			return r.wrap(err, "")
		}
		if lb.init {
			args.Ptr(lb.ptr)
			args.Int64(int64(lb.bytes))
			args.Int64(int64(tiles))
			err = k.launch(reduceByKeyInit, lb.initGrid(tiles, k.policy.BlockThreads), s, &args)
		}
	}
	if err == nil {
		args.Reset()
		args.Ptr(keys.ptr)
		args.Ptr(values.ptr)
		args.Ptr(unique.ptr)
		args.Ptr(aggregates.ptr)
		args.Ptr(numRuns.ptr)
		args.Int64(int64(keys.n))
		args.Ptr(lb.ptr)
		args.Int64(int64(lb.bytes))
		args.Uint32(lb.epoch)
		err = k.launch(reduceByKeySweep, tiles, s, &args)
	}
	if ferr := lb.release(); err == nil && ferr != nil {
		err = r.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the look-back's tile states. For values of at most 8 bytes
// (look-back pairs of at most 16) they live in the stream's own memory for
// epoch-tagged states, which the stream keeps and reuses with no allocation
// and no init launch per call (it grows once when a call needs more);
// larger values use the stream's scratch when they fit there, else the
// scratch pool (stream-ordered, freed as the work completes). It is 0 on
// the CPU backend and for n within one tile.
func (r *ReduceByKeyOp[K, V]) TempStorageBytes(d *Device, n int) (int, error) {
	if r == nil || r.eq == nil || r.op == nil {
		return 0, fmt.Errorf("gocccl: ReduceByKey: nil operator")
	}
	if n < 0 {
		return 0, r.errorf("negative length %d", n)
	}
	if err := r.enter(d); err != nil {
		return 0, r.wrap(err, "")
	}
	defer d.exit()
	if d.ctx == nil {
		return 0, nil
	}
	k, err := r.kernels(d)
	if err != nil {
		return 0, err
	}
	tile := k.policy.Tile()
	if n <= tile {
		return 0, nil
	}
	tiles := (n + tile - 1) / tile
	if bytes, ok := epochStateBytes(tiles, reduceByKeyPairSize[V]()); ok {
		return bytes, nil
	}
	return reduceByKeyStateBytes(tiles, elemSize[V]()), nil
}
