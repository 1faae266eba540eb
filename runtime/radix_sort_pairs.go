package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
)

// RadixSortPairsOp sorts key-value pairs by key, as RadixSortKeysOp sorts
// keys: each value moves with its key, as raw bytes, so V may be any plain
// type, structs included.
type RadixSortPairsOp[K RadixKey, V any] struct {
	instance
}

// RadixSortPairs declares a radix sort of keys of type K carrying values of
// type V: runtime.RadixSortPairs[uint32, float32]().
func RadixSortPairs[K RadixKey, V any]() *RadixSortPairsOp[K, V] {
	return &RadixSortPairsOp[K, V]{instance: newInstance(algo.RadixSortPairs, nil, reflect.TypeFor[K](), reflect.TypeFor[V]())}
}

// Run writes the pairs (keysIn[i], valuesIn[i]) sorted by key to keysOut
// and valuesOut. All four have equal lengths; each output is either disjoint
// from its input or the same slice. The sort is stable. It is enqueued on s
// (nil means the default stream of keysIn's device).
func (r *RadixSortPairsOp[K, V]) Run(s *Stream, keysIn, keysOut *Slice[K], valuesIn, valuesOut *Slice[V], o RadixOptions) error {
	for _, err := range []error{keysIn.usableAs(r.name(), "keys input"), keysOut.usableAs(r.name(), "keys output"),
		valuesIn.usableAs(r.name(), "values input"), valuesOut.usableAs(r.name(), "values output")} {
		if err != nil {
			return err
		}
	}
	if err := radixOut(r.name(), " keys", keysIn, keysOut); err != nil {
		return err
	}
	if err := radixOut(r.name(), " values", valuesIn, valuesOut); err != nil {
		return err
	}
	if valuesIn.n != keysIn.n {
		return r.errorf("%d keys and %d values", keysIn.n, valuesIn.n)
	}
	if same(keysIn, keysOut) != same(valuesIn, valuesOut) {
		return r.errorf("keys and values must both be sorted in place or both into other slices")
	}
	return r.run(s, keysIn, keysOut, valuesIn, valuesOut, o, false)
}

// RunDoubleBuffer sorts the pairs in keys.Current() and values.Current()
// using the alternate buffers as scratch, and sets both selectors to the
// buffers that hold the result: the alternate ones when the window takes an
// odd number of 8-bit passes. The two selectors must be equal on entry.
func (r *RadixSortPairsOp[K, V]) RunDoubleBuffer(s *Stream, keys *DoubleBuffer[K], values *DoubleBuffer[V], o RadixOptions) error {
	if err := keys.check(r.name() + " keys"); err != nil {
		return err
	}
	if err := values.check(r.name() + " values"); err != nil {
		return err
	}
	if keys.Selector != values.Selector {
		return r.errorf("key and value DoubleBuffers have selectors %d and %d", keys.Selector, values.Selector)
	}
	if keys.Current().n != values.Current().n {
		return r.errorf("%d keys and %d values", keys.Current().n, values.Current().n)
	}
	if err := r.run(s, keys.Current(), keys.Alternate(), values.Current(), values.Alternate(), o, true); err != nil {
		return err
	}
	begin, end, _ := o.window(elemSize[K]())
	flip := radixPasses(begin, end) % 2
	keys.Selector ^= flip
	values.Selector ^= flip
	return nil
}

func (r *RadixSortPairsOp[K, V]) run(s *Stream, kin, kout *Slice[K], vin, vout *Slice[V], o RadixOptions, doubleBuffer bool) error {
	begin, end, err := o.window(elemSize[K]())
	if err != nil {
		return r.errorf("%v", err)
	}
	s, err = streamFor(r.name(), s, kin.dev, kout.dev, vin.dev, vout.dev)
	if err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		w := s.dev.info.Workers
		perm := radixPermutation(kin.host, begin, end, o.Descending, w)
		kdst, vdst := kout.host, vout.host
		if doubleBuffer && radixPasses(begin, end)%2 == 0 {
			kdst, vdst = kin.host, vin.host
		}
		gather(kdst, kin.host, perm, w)
		gather(vdst, vin.host, perm, w)
		return nil
	}
	j := radixJob{inst: &r.instance, s: s, n: kin.n, ksize: elemSize[K](), vsize: elemSize[V](),
		kin: kin.ptr, kout: kout.ptr, vin: vin.ptr, vout: vout.ptr,
		begin: begin, end: end, desc: o.Descending, doubleBuffer: doubleBuffer}
	_, err = j.run()
	return err
}

// TempStorageBytes returns the device scratch memory a Run over n pairs on
// d takes for the duration of the call: the look-back state of ceil(n /
// tile) tiles, and a copy of the keys and values when the window takes more
// than one pass. It is 0 on the CPU backend and for n within one tile.
func (r *RadixSortPairsOp[K, V]) TempStorageBytes(d *Device, n int, o RadixOptions) (int, error) {
	return radixTempBytes(&r.instance, d, n, elemSize[K](), elemSize[V](), o, false)
}

// TempStorageBytesDoubleBuffer is TempStorageBytes for RunDoubleBuffer.
func (r *RadixSortPairsOp[K, V]) TempStorageBytesDoubleBuffer(d *Device, n int, o RadixOptions) (int, error) {
	return radixTempBytes(&r.instance, d, n, elemSize[K](), elemSize[V](), o, true)
}
