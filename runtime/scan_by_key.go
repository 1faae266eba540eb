package runtime

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// InclusiveScanByKeyOp computes inclusive scans of values by segments of
// equal keys, as cub::DeviceScan::InclusiveScanByKey: a segment is a
// maximal run of consecutive keys that eq calls equal, and out[i] =
// values[h] op … op values[i] for the start h of i's segment. op must be
// associative; it need not be commutative.
type InclusiveScanByKeyOp[K, V any] struct {
	instance
	eq func(K, K) bool
	op func(V, V) V
}

// InclusiveScanByKey declares an inclusive scan by key with eq, the
// equality of keys, and op, the scan operator of values: both //gocccl:op
// functions.
func InclusiveScanByKey[K, V any](eq func(K, K) bool, op func(V, V) V) *InclusiveScanByKeyOp[K, V] {
	return &InclusiveScanByKeyOp[K, V]{eq: eq, op: op,
		instance: newInstance(algo.InclusiveScanByKey, []any{eq, op}, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run scans values by the segments of keys into out; keys, values and out
// have equal lengths. out may be values itself but must not overlap keys
// (or values otherwise). It is enqueued on s (nil means the default stream
// of keys' device) and returns without waiting on a GPU.
func (o *InclusiveScanByKeyOp[K, V]) Run(s *Stream, keys *Slice[K], values, out *Slice[V]) error {
	if o == nil || o.eq == nil || o.op == nil {
		return fmt.Errorf("gocccl: InclusiveScanByKey: nil operator")
	}
	var zero V
	return runScanByKey(&o.instance, &inclusiveScanByKeyNames, o.eq, o.op, true, s, keys, values, out, zero)
}

// TempStorageBytes returns the device scratch memory a Run over n elements
// on d uses: the look-back's tile states. For look-back pairs (an int32
// flag and a value) of at most 16 bytes they live in the stream's own
// memory for epoch-tagged states, which the stream keeps and reuses with no
// allocation and no init launch per call (it grows once when a call needs
// more); larger values use the stream's scratch when they fit there, else
// the scratch pool (stream-ordered, freed as the work completes). It is 0
// on the CPU backend and for n within one tile.
func (o *InclusiveScanByKeyOp[K, V]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.eq == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: InclusiveScanByKey: nil operator")
	}
	return scanByKeyTempBytes[V](&o.instance, "InclusiveScanByKey", d, n)
}

// ExclusiveScanByKeyOp computes exclusive scans of values by segments of
// equal keys with an init value, as cub::DeviceScan::ExclusiveScanByKey:
// out[h] = init at the start h of every segment, and out[i] = init op
// values[h] op … op values[i-1] inside it. The init value seeds every
// segment, so no identity element is needed.
type ExclusiveScanByKeyOp[K, V any] struct {
	instance
	eq func(K, K) bool
	op func(V, V) V
}

// ExclusiveScanByKey declares an exclusive scan by key with eq, the
// equality of keys, and op, the scan operator of values.
func ExclusiveScanByKey[K, V any](eq func(K, K) bool, op func(V, V) V) *ExclusiveScanByKeyOp[K, V] {
	return &ExclusiveScanByKeyOp[K, V]{eq: eq, op: op,
		instance: newInstance(algo.ExclusiveScanByKey, []any{eq, op}, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run scans values by the segments of keys into out, seeding every segment
// with init; otherwise as InclusiveScanByKeyOp.Run.
func (o *ExclusiveScanByKeyOp[K, V]) Run(s *Stream, keys *Slice[K], values, out *Slice[V], init V) error {
	if o == nil || o.eq == nil || o.op == nil {
		return fmt.Errorf("gocccl: ExclusiveScanByKey: nil operator")
	}
	return runScanByKey(&o.instance, &exclusiveScanByKeyNames, o.eq, o.op, false, s, keys, values, out, init)
}

// TempStorageBytes is as InclusiveScanByKeyOp's.
func (o *ExclusiveScanByKeyOp[K, V]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.eq == nil || o.op == nil {
		return 0, fmt.Errorf("gocccl: ExclusiveScanByKey: nil operator")
	}
	return scanByKeyTempBytes[V](&o.instance, "ExclusiveScanByKey", d, n)
}

// scanNames of the scans by key: keys, values and output.
var (
	inclusiveScanByKeyNames = scanNames{"InclusiveScanByKey", [3]string{"InclusiveScanByKey keys", "InclusiveScanByKey values", "InclusiveScanByKey output"}}
	exclusiveScanByKeyNames = scanNames{"ExclusiveScanByKey", [3]string{"ExclusiveScanByKey keys", "ExclusiveScanByKey values", "ExclusiveScanByKey output"}}
)

// runScanByKey checks a scan by key's arguments, then runs it.
func runScanByKey[K, V any](inst *instance, names *scanNames, eq func(K, K) bool, op func(V, V) V, inclusive bool, s *Stream, keys *Slice[K], values, out *Slice[V], init V) error {
	alg := names.alg
	if err := keys.usable(names.args[0]); err != nil {
		return err
	}
	if err := values.usable(names.args[1]); err != nil {
		return err
	}
	if err := out.usable(names.args[2]); err != nil {
		return err
	}
	s, err := streamFor(alg, s, keys.dev, values.dev, out.dev)
	if err != nil {
		return err
	}
	if keys.n != values.n || values.n != out.n {
		return fmt.Errorf("gocccl: %s: %d keys, %d values and an output of %d elements", alg, keys.n, values.n, out.n)
	}
	if overlaps(keys, out) {
		return fmt.Errorf("gocccl: %s: output overlaps the keys", alg)
	}
	if overlapsPartially(values, out) {
		return fmt.Errorf("gocccl: %s: output overlaps the values without being the values themselves", alg)
	}
	if err := inst.enter(s.dev); err != nil {
		return inst.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return inst.wrap(scanByKeyCPU(eq, op, keys.host, values.host, out.host, init, inclusive, s.dev.info.Workers), "")
	}
	return scanByKeyGPU(inst, s, keys, values, out, init, inclusive)
}

// scanByKeyGPU launches a scan by key: the sweep alone on one block for a
// single tile, else the sweep over tile states (lookBack), after their init
// kernel when they need one: for look-back pairs of at most 16 bytes only
// when the stream's epoch region is new, grown or out of epochs, so a call
// is one launch.
func scanByKeyGPU[K, V any](inst *instance, s *Stream, keys *Slice[K], values, out *Slice[V], init V, inclusive bool) error {
	d := s.dev
	k, err := inst.kernels(d)
	if err != nil || keys.n == 0 {
		return err
	}
	initKernel, sweepKernel := scanByKeyInit, scanByKeySweep
	tile := k.policy.Tile()
	tiles := (keys.n + tile - 1) / tile

	var lb lookBack
	var args cuda.Args
	if tiles > 1 {
		if lb, err = s.lookBack(tiles, scanByKeyPairSize[V](), scanByKeyStateBytes(tiles, elemSize[V]())); err != nil {
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
		args.Reset()
		args.Ptr(keys.ptr)
		args.Ptr(values.ptr)
		args.Ptr(out.ptr)
		args.Int64(int64(keys.n))
		args.Ptr(lb.ptr)
		args.Int64(int64(lb.bytes))
		args.Uint32(lb.epoch)
		if !inclusive {
			args.Value(unsafe.Pointer(&init), int(unsafe.Sizeof(init)), int(unsafe.Alignof(init)))
		}
		err = k.launch(sweepKernel, tiles, s, &args)
	}
	if ferr := lb.release(); err == nil && ferr != nil {
		err = inst.wrap(ferr, "freeing scratch memory")
	}
	return err
}

// scanByKeyPairSize is the size of the look-back's values,
// sizeof(cub::KeyValuePair<int, V>) (scan_by_key.cuh's Pair): Go lays out
// this struct as C++ does that one, since the C++ spelling of every V has
// V's Go size and alignment (gocccl-gen asserts it). 8 bytes for V of up to
// 4 bytes, 16 for 8-byte V (epoch tile states up to 16), more beyond.
func scanByKeyPairSize[V any]() int {
	var p struct {
		key   int32
		value V
	}
	return int(unsafe.Sizeof(p))
}

// scanByKeyStateBytes bounds cub::ReduceByKeyScanTileState<V, int>'s
// AllocationSize: tile states of (int, V) pairs, whose size is at most
// sizeof(V) + 8.
func scanByKeyStateBytes(tiles, size int) int { return scanStateBytes(tiles, size+8) }

// scanByKeyTempBytes is TempStorageBytes of a scan by key.
func scanByKeyTempBytes[V any](inst *instance, alg string, d *Device, n int) (int, error) {
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
	tiles := (n + tile - 1) / tile
	if bytes, ok := epochStateBytes(tiles, scanByKeyPairSize[V]()); ok {
		return bytes, nil
	}
	return scanByKeyStateBytes(tiles, elemSize[V]()), nil
}

// The scans by key's kernels, by their suffix in the descriptions
// (InclusiveScanByKey's and ExclusiveScanByKey's alike).
var (
	scanByKeyInit  = kernelIndex("init", algo.InclusiveScanByKey, algo.ExclusiveScanByKey)
	scanByKeySweep = kernelIndex("sweep", algo.InclusiveScanByKey, algo.ExclusiveScanByKey)
)
