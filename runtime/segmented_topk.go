package runtime

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// SegmentedTopKSortedMax is the largest k that a sorted segmented top-k
// (TopKOptions.Sorted) takes: the GPU ranks each segment's k results in
// shared memory. Unsorted selections take any k.
const SegmentedTopKSortedMax = 1024

// segTopKWarpSortedMax is the largest sorted k of the warp-per-segment
// kernel (kernels/include/gocccl/segmented_topk.cuh, WARP_SORT_MAX); larger
// sorted selections run a block per segment.
const segTopKWarpSortedMax = 256

// SegmentedTopKKeysOp selects the k smallest or largest keys of every
// segment of a sequence, as TopKKeysOp selects them from a whole sequence:
// the same order of keys (TopKOptions), ties at the k-th place broken by
// the lower input position, on every backend. On a GPU a warp selects each
// segment when the segments are short on average (at most 512 keys, or at
// most 4 tiles with enough segments to fill the GPU) and a block each
// segment otherwise, by a radix select over the segment's keys in global
// memory, 8 bits a pass, with shared-memory digit counts; one launch, no
// scratch memory.
type SegmentedTopKKeysOp[K RadixKey] struct {
	instance
}

// SegmentedTopKKeys declares a segmented top-k of keys of type K:
// runtime.SegmentedTopKKeys[float32](). It takes no operator; gocccl-gen
// generates its kernels.
func SegmentedTopKKeys[K RadixKey]() *SegmentedTopKKeysOp[K] {
	return &SegmentedTopKKeysOp[K]{instance: newInstance(algo.SegmentedTopKKeys, nil, reflect.TypeFor[K]())}
}

// Run writes, for every segment s < begin.Len(), the k best keys of
// in[begin[s]:end[s]] (the smallest, or the largest with o.Largest) to
// out[s*k : s*k+k]. A segment of m < k keys writes all m of them to
// out[s*k : s*k+m] and leaves out[s*k+m : s*k+k] unchanged (its count is
// min(m, k), known from the offsets). Unsorted results come in input order
// on the CPU backend and in an unspecified order on a GPU; sorted ones
// (o.Sorted, k <= SegmentedTopKSortedMax) best first, equal keys in input
// order. Positions of out from begin.Len()*k on are left unchanged.
//
// begin and end have equal lengths; len(out) >= begin.Len()*k, and out
// does not overlap in. Segments must satisfy 0 <= begin[s] <= end[s] <=
// in.Len(); they may overlap, leave gaps and come in any order. The CPU
// backend checks this and returns an error; on a GPU the offsets are
// trusted, as by CUB, and clamped to the input (a segment with end < begin
// is empty). k = 0 or no segments launch nothing. It is enqueued on s (nil
// means the default stream of in's device) and returns without waiting on
// a GPU.
func (t *SegmentedTopKKeysOp[K]) Run(s *Stream, in, out *Slice[K], begin, end *Slice[int64], k int, o TopKOptions) error {
	for _, err := range []error{in.usableAs(t.name(), "input"), out.usableAs(t.name(), "output"),
		begin.usableAs(t.name(), "begin offsets"), end.usableAs(t.name(), "end offsets")} {
		if err != nil {
			return err
		}
	}
	if err := segTopKCheck(&t.instance, in.n, begin.n, end.n, out.n, -1, k, o); err != nil {
		return err
	}
	if overlaps(in, out) {
		return t.errorf("output overlaps the input")
	}
	s, err := streamFor(t.name(), s, in.dev, out.dev, begin.dev, end.dev)
	if err != nil {
		return err
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return t.wrap(segTopKCPU[K, struct{}](in.host, out.host, nil, nil, begin.host, end.host, k, o, s.dev.info.Workers), "")
	}
	j := segTopKJob{inst: &t.instance, s: s, n: in.n, segs: begin.n, k: k, o: o,
		kin: in.ptr, kout: out.ptr, begin: begin.ptr, end: end.ptr}
	return j.run()
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (t *SegmentedTopKKeysOp[K]) TempStorageBytes(d *Device, segments, k int, o TopKOptions) (int, error) {
	return 0, segTopKCheck(&t.instance, 0, segments, segments, segments*max(k, 0), -1, k, o)
}

// SegmentedTopKPairsOp selects the k best keys of every segment with the
// values at their positions, as SegmentedTopKKeysOp selects keys: values
// move as raw bytes, so V may be any plain type, structs included.
type SegmentedTopKPairsOp[K RadixKey, V any] struct {
	instance
}

// SegmentedTopKPairs declares a segmented top-k of keys of type K carrying
// values of type V: runtime.SegmentedTopKPairs[float32, int32]().
func SegmentedTopKPairs[K RadixKey, V any]() *SegmentedTopKPairsOp[K, V] {
	return &SegmentedTopKPairsOp[K, V]{instance: newInstance(algo.SegmentedTopKPairs, nil, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run writes the k best keys of every segment of keysIn to keysOut and,
// for each, the value at its input position in valuesIn to the same place
// of valuesOut. len(valuesIn) = len(keysIn), both outputs hold at least
// begin.Len()*k elements, and no output overlaps an input or the other
// output. Short segments leave the rest of their k places of both outputs
// unchanged. The rest is as SegmentedTopKKeysOp.Run.
func (t *SegmentedTopKPairsOp[K, V]) Run(s *Stream, keysIn, keysOut *Slice[K], valuesIn, valuesOut *Slice[V], begin, end *Slice[int64], k int, o TopKOptions) error {
	for _, err := range []error{keysIn.usableAs(t.name(), "keys input"), keysOut.usableAs(t.name(), "keys output"),
		valuesIn.usableAs(t.name(), "values input"), valuesOut.usableAs(t.name(), "values output"),
		begin.usableAs(t.name(), "begin offsets"), end.usableAs(t.name(), "end offsets")} {
		if err != nil {
			return err
		}
	}
	if valuesIn.n != keysIn.n {
		return t.errorf("%d keys and %d values", keysIn.n, valuesIn.n)
	}
	if err := segTopKCheck(&t.instance, keysIn.n, begin.n, end.n, keysOut.n, valuesOut.n, k, o); err != nil {
		return err
	}
	switch {
	case overlaps(keysIn, keysOut), overlaps(valuesIn, keysOut):
		return t.errorf("keys output overlaps an input")
	case overlaps(keysIn, valuesOut), overlaps(valuesIn, valuesOut):
		return t.errorf("values output overlaps an input")
	case overlaps(keysOut, valuesOut):
		return t.errorf("keys and values outputs overlap")
	}
	s, err := streamFor(t.name(), s, keysIn.dev, keysOut.dev, valuesIn.dev, valuesOut.dev, begin.dev, end.dev)
	if err != nil {
		return err
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return t.wrap(segTopKCPU(keysIn.host, keysOut.host, valuesIn.host, valuesOut.host, begin.host, end.host, k, o, s.dev.info.Workers), "")
	}
	j := segTopKJob{inst: &t.instance, s: s, n: keysIn.n, segs: begin.n, k: k, o: o, vsize: elemSize[V](),
		kin: keysIn.ptr, kout: keysOut.ptr, vin: valuesIn.ptr, vout: valuesOut.ptr, begin: begin.ptr, end: end.ptr}
	return j.run()
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (t *SegmentedTopKPairsOp[K, V]) TempStorageBytes(d *Device, segments, k int, o TopKOptions) (int, error) {
	return 0, segTopKCheck(&t.instance, 0, segments, segments, segments*max(k, 0), -1, k, o)
}

// segTopKCheck checks a segmented top-k's sizes before anything runs:
// n input keys, nb and ne offsets, outputs of kout keys and vout values (vout < 0: keys
// only).
func segTopKCheck(in *instance, n, nb, ne, kout, vout, k int, o TopKOptions) error {
	switch {
	case n > topkMaxN:
		return in.errorf("input of %d keys: a segmented top-k takes at most 2^32 - 1", n)
	case nb < 0:
		return in.errorf("negative segment count %d", nb)
	case k < 0:
		return in.errorf("negative k %d", k)
	case nb != ne:
		return in.errorf("%d begin offsets but %d end offsets", nb, ne)
	case k > 0 && nb > (1<<62)/k:
		return in.errorf("%d segments of k = %d results overflow", nb, k)
	case kout < nb*k:
		return in.errorf("keys output has %d elements, fewer than %d segments times k = %d", kout, nb, k)
	case vout >= 0 && vout < nb*k:
		return in.errorf("values output has %d elements, fewer than %d segments times k = %d", vout, nb, k)
	case o.Sorted && k > SegmentedTopKSortedMax:
		return in.errorf("sorted segmented top-k of k = %d: at most SegmentedTopKSortedMax = %d", k, SegmentedTopKSortedMax)
	}
	return nil
}

// segTopKSortMin is the segment length from which the CPU backend selects
// by a radix select (topkSelect) rather than a stable sort of the segment.
const segTopKSortMin = 256

// segTopKCPU is the CPU backend: the offsets are checked, then the
// segments run in parallel, one worker each; values are gathered when vin
// is not nil.
func segTopKCPU[K RadixKey, V any](kin, kout []K, vin, vout []V, begin, end []int64, k int, o TopKOptions, workers int) error {
	n := int64(len(kin))
	for s := range begin {
		if b, e := begin[s], end[s]; b < 0 || b > e || e > n {
			return fmt.Errorf("segment %d is [%d, %d), not within [0, %d) in order", s, b, e, n)
		}
	}
	if k == 0 {
		return nil
	}
	_, err := parallel(len(begin), workers, func(_, lo, hi int) {
		var bits []uint64
		var perm []int
		for s := lo; s < hi; s++ {
			b, e := int(begin[s]), int(end[s])
			m := e - b
			kk := min(k, m)
			if kk == 0 {
				continue
			}
			var pos []int
			if m >= segTopKSortMin {
				pos = topkSelect(kin[b:e], kk, o, 1)
			} else {
				bits = slices.Grow(bits[:0], m)[:m]
				perm = slices.Grow(perm[:0], m)[:m]
				orderedBits64(kin[b:e], bits, o.Largest)
				for i := range perm {
					perm[i] = i
				}
				slices.SortStableFunc(perm, func(x, y int) int {
					switch {
					case bits[x] < bits[y]:
						return -1
					case bits[x] > bits[y]:
						return 1
					}
					return 0
				})
				pos = perm[:kk]
				if !o.Sorted {
					slices.Sort(pos)
				}
			}
			at := s * k
			for i, p := range pos {
				kout[at+i] = kin[b+p]
				if vin != nil {
					vout[at+i] = vin[b+p]
				}
			}
		}
	})
	return err
}

// The segmented top-k kernels, by their suffix in the descriptions.
var (
	segTopKWarp  = kernelIndex("warp", algo.SegmentedTopKKeys, algo.SegmentedTopKPairs)
	segTopKBlock = kernelIndex("block", algo.SegmentedTopKKeys, algo.SegmentedTopKPairs)
)

// segTopKJob is one segmented selection on the GPU.
type segTopKJob struct {
	inst       *instance
	s          *Stream
	n, segs, k int
	vsize      int
	o          TopKOptions
	kin, kout  cuda.DevicePtr
	vin, vout  cuda.DevicePtr
	begin, end cuda.DevicePtr
}

// run enqueues the selection: the warp kernel (a warp per segment) or the
// block kernel (a block per segment), picked by segmentedDispatch from the
// average segment length; sorted selections of k above the warp's staging
// always take the block kernel. Both kernels stride over the segments, so
// the grid is capped at the occupancy-sized wave.
func (j *segTopKJob) run() error {
	k, err := j.inst.kernels(j.s.dev)
	if err != nil {
		return err
	}
	if j.segs == 0 || j.k == 0 {
		return nil
	}
	threads := k.policy.BlockThreads
	kernel, _ := segmentedDispatch(j.n, j.segs, threads, k.policy.Tile(), k.maxBlocks)
	if kernel == segmentedWarp && !(j.o.Sorted && j.k > segTopKWarpSortedMax) {
		kernel = segTopKWarp
	} else {
		kernel = segTopKBlock
	}
	var grid int
	if kernel == segTopKWarp {
		warps := threads / 32
		grid = max(1, min((j.segs+warps-1)/warps, k.maxBlocks))
	} else {
		grid = max(1, min(j.segs, k.maxBlocks))
	}
	var args cuda.Args
	args.Ptr(j.kin)
	args.Ptr(j.kout)
	if j.vsize > 0 {
		args.Ptr(j.vin)
		args.Ptr(j.vout)
	}
	args.Ptr(j.begin)
	args.Ptr(j.end)
	args.Int64(int64(j.n))
	args.Int64(int64(j.segs))
	args.Int64(int64(j.k))
	sorted := int64(0)
	if j.o.Sorted {
		sorted = 1
	}
	args.Int64(sorted)
	l := j.o.Largest
	args.Value(unsafe.Pointer(&l), 1, 1)
	return k.launch(kernel, grid, j.s, &args)
}
