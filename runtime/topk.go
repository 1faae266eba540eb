package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
)

// TopKOptions choose what a top-k selects and how it writes it. The zero
// value selects the k smallest keys, in no particular order.
//
// Keys are ordered as a radix sort orders them (see RadixOptions): unsigned
// integers as they are, signed integers by value, floats by their ordered
// bits, so −0 comes before +0, NaNs with the sign bit clear (math.NaN())
// after +Inf and those with it set before −Inf; keys of equal bits are equal.
// Among equal keys at the k-th place, the lower input position is selected,
// on every backend, so the selection is deterministic.
type TopKOptions struct {
	// Largest selects the k largest keys instead of the k smallest.
	Largest bool
	// Sorted writes the k results best first (ascending, or descending with
	// Largest), equal keys in input order, for any k. Unsorted results come
	// in an order that depends on the backend (input order on the CPU
	// backend, any order on a GPU).
	Sorted bool
}

// TopKSortedMax is the largest k whose sorted selection (TopKOptions.Sorted)
// the GPU sorts in one block, one launch after the selection's. Larger k
// are sorted too: the GPU radix sorts the k results (Onesweep, as
// RadixSortPairs runs it) by their ordered bits and input positions, which
// takes a few launches more and about 32 bytes of scratch a result (see
// TempStorageBytes). The CPU backend sorts every k alike.
const TopKSortedMax = 4096

// topkMaxN bounds the input: the GPU's digit histograms are 32-bit.
const topkMaxN = 1<<32 - 1

// TopKKeysOp selects the k smallest or largest of n keys. On a GPU it is a
// radix select (AIR top-k, as cub::DeviceTopK of CCCL 3.2 runs it): each
// key's ordered bits and its input position form a composite, selected most
// significant digit first, 11 bits a pass, one kernel launch per pass and
// no synchronization with the host; inputs of at most one tile are selected
// by one block. Past 2^22 keys of 4 or 8 bytes with k at most n/4096, a
// bound sampled from every 256th key first keeps a few thousand candidates
// in one read of the input, and the passes select from those (the input
// again when the sample misleads: ties, skewed data); the results are the
// same either way. A sorted selection then sorts its k results: in one
// block up to TopKSortedMax, else by a radix sort of their ordered bits and
// positions.
type TopKKeysOp[K RadixKey] struct {
	instance
}

// TopKKeys declares a top-k selection of keys of type K. It takes no
// operator: declare it with its type, runtime.TopKKeys[float32](), and
// gocccl-gen generates its kernels.
func TopKKeys[K RadixKey]() *TopKKeysOp[K] {
	return &TopKKeysOp[K]{instance: newInstance(algo.TopKKeys, nil, reflect.TypeFor[K]())}
}

// Run writes the k best keys of in (the smallest, or the largest with
// o.Largest) to out[:k]; the rest of out is left unchanged. 0 <= k <=
// len(in), len(out) >= k, and out must not overlap in. k = 0 launches
// nothing. It is enqueued on s (nil means the default stream of in's
// device) and returns without waiting on a GPU; see TempStorageBytes for
// its scratch memory.
func (t *TopKKeysOp[K]) Run(s *Stream, in, out *Slice[K], k int, o TopKOptions) error {
	if err := in.usableAs(t.name(), "input"); err != nil {
		return err
	}
	if err := out.usableAs(t.name(), "output"); err != nil {
		return err
	}
	if err := topkCheck(&t.instance, in.n, out.n, -1, k, o); err != nil {
		return err
	}
	if overlaps(in, out) {
		return t.errorf("output overlaps the input")
	}
	s, err := streamFor(t.name(), s, in.dev, out.dev)
	if err != nil {
		return err
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if k == 0 {
		return nil
	}
	if s.dev.ctx == nil {
		pos := topkSelect(in.host, k, o, s.dev.info.Workers)
		topkGather(out.host, in.host, pos, s.dev.info.Workers)
		return nil
	}
	j := topkJob{inst: &t.instance, s: s, n: in.n, k: k, ksize: elemSize[K](), o: o,
		kin: in.ptr, kout: out.ptr}
	return j.run()
}

// TempStorageBytes returns the device scratch memory a Run over n keys
// selecting k takes for the duration of the call (stream-ordered): digit
// histograms and control words (about 96 KiB), two candidate buffers of
// 16 bytes an item for about n/128 items, and k positions (8 bytes each)
// when sorted; a sorted k above TopKSortedMax adds the radix sort's items
// (24 bytes a result) and its scratch (about 1 KiB a tile of 4096 results,
// plus 20 KiB). It is 0 on the CPU backend, and only the positions for n
// within one tile.
func (t *TopKKeysOp[K]) TempStorageBytes(d *Device, n, k int, o TopKOptions) (int, error) {
	return topkTempBytes(&t.instance, d, n, k, elemSize[K](), o)
}

// TopKPairsOp selects the k smallest or largest of n keys with the values
// at their positions, as TopKKeysOp selects keys: values move as raw bytes,
// so V may be any plain type, structs included.
type TopKPairsOp[K RadixKey, V any] struct {
	instance
}

// TopKPairs declares a top-k selection of keys of type K carrying values of
// type V: runtime.TopKPairs[float32, int64]().
func TopKPairs[K RadixKey, V any]() *TopKPairsOp[K, V] {
	return &TopKPairsOp[K, V]{instance: newInstance(algo.TopKPairs, nil, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run writes the k best keys of keysIn to keysOut[:k] and, for each, the
// value at its input position in valuesIn to the same place of
// valuesOut. len(valuesIn) = len(keysIn), both outputs hold at least k
// elements, and no output overlaps an input or the other output. The rest
// is as TopKKeysOp.Run.
func (t *TopKPairsOp[K, V]) Run(s *Stream, keysIn, keysOut *Slice[K], valuesIn, valuesOut *Slice[V], k int, o TopKOptions) error {
	for _, err := range []error{keysIn.usableAs(t.name(), "keys input"), keysOut.usableAs(t.name(), "keys output"),
		valuesIn.usableAs(t.name(), "values input"), valuesOut.usableAs(t.name(), "values output")} {
		if err != nil {
			return err
		}
	}
	if valuesIn.n != keysIn.n {
		return t.errorf("%d keys and %d values", keysIn.n, valuesIn.n)
	}
	if err := topkCheck(&t.instance, keysIn.n, keysOut.n, valuesOut.n, k, o); err != nil {
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
	s, err := streamFor(t.name(), s, keysIn.dev, keysOut.dev, valuesIn.dev, valuesOut.dev)
	if err != nil {
		return err
	}
	if err := t.enter(s.dev); err != nil {
		return t.wrap(err, "")
	}
	defer s.dev.exit()
	if k == 0 {
		return nil
	}
	if s.dev.ctx == nil {
		w := s.dev.info.Workers
		pos := topkSelect(keysIn.host, k, o, w)
		topkGather(keysOut.host, keysIn.host, pos, w)
		topkGather(valuesOut.host, valuesIn.host, pos, w)
		return nil
	}
	j := topkJob{inst: &t.instance, s: s, n: keysIn.n, k: k, ksize: elemSize[K](), vsize: elemSize[V](), o: o,
		kin: keysIn.ptr, kout: keysOut.ptr, vin: valuesIn.ptr, vout: valuesOut.ptr}
	return j.run()
}

// TempStorageBytes is TopKKeysOp.TempStorageBytes for pairs.
func (t *TopKPairsOp[K, V]) TempStorageBytes(d *Device, n, k int, o TopKOptions) (int, error) {
	return topkTempBytes(&t.instance, d, n, k, elemSize[K](), o)
}

// topkCheck checks a top-k's sizes before anything runs: n inputs, outputs
// of kout keys and vout values (vout < 0: keys only).
func topkCheck(in *instance, n, kout, vout, k int, o TopKOptions) error {
	switch {
	case k < 0:
		return in.errorf("negative k %d", k)
	case k > n:
		return in.errorf("k = %d is more than the input's %d keys", k, n)
	case n > topkMaxN:
		return in.errorf("input of %d keys: a top-k takes at most 2^32 - 1", n)
	case kout < k:
		return in.errorf("keys output has %d elements, fewer than k = %d", kout, k)
	case vout >= 0 && vout < k:
		return in.errorf("values output has %d elements, fewer than k = %d", vout, k)
	}
	return nil
}
