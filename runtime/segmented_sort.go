package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
)

// SegmentedSortOptions choose the order of a segmented sort. The zero value
// sorts every segment ascending.
//
// Keys are compared by all their bits as RadixOptions describes (the order
// of cub::DeviceRadixSort): −0 before +0, NaNs with the sign bit clear after
// +Inf and those with it set before −Inf.
type SegmentedSortOptions struct {
	// Descending sorts every segment from the largest key down. The sort
	// stays stable: equal keys keep their input order.
	Descending bool
}

// SegmentedSortKeysOp sorts every segment of a sequence of keys on its own,
// stably, as cub::DeviceSegmentedSort::StableSortKeys does. On a GPU, a
// call of at most 500 segments over at most 2^17 keys, whose keys and values
// take at most 512 KiB or whose segments are at most 2048 keys long on
// average, is one launch, a block per segment (cub's fallback kernel): a
// warp of it sorts a segment of at most 128 keys, the block one that fits
// its shared memory (1024 keys, or the radix tile when that is larger) in
// one pass, and a longer one alone, one pass over it through global memory
// per 8-bit digit that varies in the segment. Other calls
// partition the segments by length: a warp sorts each segment of at most 128
// keys, a block each segment that fits its shared memory in one launch, and
// Onesweep sorts the tiles of all longer segments at once, one launch per
// 8-bit digit.
type SegmentedSortKeysOp[K RadixKey] struct {
	instance
}

// SegmentedSortKeys declares a segmented sort of keys of type K:
// runtime.SegmentedSortKeys[uint32](). It takes no operator; gocccl-gen
// generates its kernels.
func SegmentedSortKeys[K RadixKey]() *SegmentedSortKeysOp[K] {
	return &SegmentedSortKeysOp[K]{instance: newInstance(algo.SegmentedSortKeys, nil, reflect.TypeFor[K]())}
}

// Run sorts every segment s < begin.Len() of in, the keys in[begin[s]] …
// in[end[s]-1], into the same positions of out. Elements of out outside
// every segment are left unchanged. in and out have equal lengths and do not
// overlap; begin and end have equal lengths. With one offsets buffer of k+1
// elements, pass offsets.Range(0, k) and offsets.Range(1, k+1).
//
// Segments must satisfy 0 <= begin[s] <= end[s] <= in.Len() and must not
// overlap; they may leave gaps and come in any order. The CPU backend checks
// this and returns an error. On a GPU the offsets live in device memory and
// are trusted, as by CUB: the kernels clamp every segment to the input, so a
// bad offset never makes them access memory outside the buffers, but
// overlapping segments give unspecified output.
//
// It is enqueued on s (nil means the default stream of in's device). On a
// GPU, a call the fallback kernel takes (see SegmentedSortKeysOp) is that
// one launch and returns without waiting; its copy of the keys, needed only
// when in is longer than the block-sorted class, lives in the stream's
// scratch memory (grown once to hold it: a wait then, never while Capture
// records the call) or, when larger than 4 MiB or captured before the
// scratch grew, in the scratch pool. Otherwise, when in is longer than the
// block-sorted class, Run waits for the classification of the segments to
// learn how many long ones there are (as CUB does without CUDA dynamic
// parallelism), so it cannot be captured in a CUDA graph then; else it
// returns without waiting.
func (r *SegmentedSortKeysOp[K]) Run(s *Stream, in, out *Slice[K], begin, end *Slice[int64], o SegmentedSortOptions) error {
	for _, err := range []error{in.usableAs(r.name(), "input"), out.usableAs(r.name(), "output"),
		begin.usableAs(r.name(), "begin offsets"), end.usableAs(r.name(), "end offsets")} {
		if err != nil {
			return err
		}
	}
	if err := segsortOut(&r.instance, "keys", in, out); err != nil {
		return err
	}
	if begin.n != end.n {
		return r.errorf("%d begin offsets but %d end offsets", begin.n, end.n)
	}
	s, err := streamFor(r.name(), s, in.dev, out.dev, begin.dev, end.dev)
	if err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return r.wrap(segmentedSortCPU[K, struct{}](in.host, out.host, nil, nil, begin.host, end.host, o.Descending, s.dev.info.Workers), "")
	}
	j := segsortJob{inst: &r.instance, s: s, n: in.n, segs: begin.n, ksize: elemSize[K](),
		kin: in.ptr, kout: out.ptr, begin: begin.ptr, end: end.ptr, desc: o.Descending}
	return j.run()
}

// TempStorageBytes returns the most device scratch memory a Run over n keys
// in the given number of segments on d takes for the duration of the call
// (stream-ordered): with the fallback kernel a copy of the keys when a
// segment can be longer than the block-sorted class (from the stream's
// scratch when it fits there), otherwise the classified segment lists, and
// for segments longer than the block-sorted class Onesweep's digit counts
// and look-back state and a copy of the keys. A Run takes only what its
// segments need. It is 0 on the CPU backend.
func (r *SegmentedSortKeysOp[K]) TempStorageBytes(d *Device, n, segments int) (int, error) {
	return segsortTempBytes(&r.instance, d, n, segments, elemSize[K](), 0)
}

// SegmentedSortPairsOp sorts every segment of key-value pairs by key, as
// SegmentedSortKeysOp sorts keys: each value moves with its key, as raw
// bytes, so V may be any plain type, structs included.
type SegmentedSortPairsOp[K RadixKey, V any] struct {
	instance
}

// SegmentedSortPairs declares a segmented sort of keys of type K carrying
// values of type V: runtime.SegmentedSortPairs[uint32, float32]().
func SegmentedSortPairs[K RadixKey, V any]() *SegmentedSortPairsOp[K, V] {
	return &SegmentedSortPairsOp[K, V]{instance: newInstance(algo.SegmentedSortPairs, nil, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run sorts the pairs (keysIn[i], valuesIn[i]) of every segment s <
// begin.Len() by key into the same positions of keysOut and valuesOut,
// stably. All four have equal lengths; no output overlaps an input. The
// segments, the positions outside them and the stream are as for
// SegmentedSortKeysOp.Run.
func (r *SegmentedSortPairsOp[K, V]) Run(s *Stream, keysIn, keysOut *Slice[K], valuesIn, valuesOut *Slice[V], begin, end *Slice[int64], o SegmentedSortOptions) error {
	for _, err := range []error{keysIn.usableAs(r.name(), "keys input"), keysOut.usableAs(r.name(), "keys output"),
		valuesIn.usableAs(r.name(), "values input"), valuesOut.usableAs(r.name(), "values output"),
		begin.usableAs(r.name(), "begin offsets"), end.usableAs(r.name(), "end offsets")} {
		if err != nil {
			return err
		}
	}
	if err := segsortOut(&r.instance, "keys", keysIn, keysOut); err != nil {
		return err
	}
	if err := segsortOut(&r.instance, "values", valuesIn, valuesOut); err != nil {
		return err
	}
	if valuesIn.n != keysIn.n {
		return r.errorf("%d keys and %d values", keysIn.n, valuesIn.n)
	}
	if begin.n != end.n {
		return r.errorf("%d begin offsets but %d end offsets", begin.n, end.n)
	}
	s, err := streamFor(r.name(), s, keysIn.dev, keysOut.dev, valuesIn.dev, valuesOut.dev, begin.dev, end.dev)
	if err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return r.wrap(segmentedSortCPU(keysIn.host, keysOut.host, valuesIn.host, valuesOut.host, begin.host, end.host, o.Descending, s.dev.info.Workers), "")
	}
	j := segsortJob{inst: &r.instance, s: s, n: keysIn.n, segs: begin.n, ksize: elemSize[K](), vsize: elemSize[V](),
		kin: keysIn.ptr, kout: keysOut.ptr, vin: valuesIn.ptr, vout: valuesOut.ptr, begin: begin.ptr, end: end.ptr,
		desc: o.Descending}
	return j.run()
}

// TempStorageBytes returns the most device scratch memory a Run over n
// pairs in the given number of segments on d takes, as for
// SegmentedSortKeysOp.TempStorageBytes (the copy holds keys and values).
func (r *SegmentedSortPairsOp[K, V]) TempStorageBytes(d *Device, n, segments int) (int, error) {
	return segsortTempBytes(&r.instance, d, n, segments, elemSize[K](), elemSize[V]())
}

// segsortOut checks a segmented sort's input and output: equally long and
// disjoint.
func segsortOut[T any](in *instance, what string, src, dst *Slice[T]) error {
	if src.n != dst.n {
		return in.errorf("%s input has %d elements, output %d", what, src.n, dst.n)
	}
	if overlaps(src, dst) {
		return in.errorf("%s input and output overlap", what)
	}
	return nil
}
