package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
)

// RadixSortKeysOp sorts keys by radix: stable, ascending or descending, over
// a window of the keys' bits (see RadixOptions). On a GPU it is Onesweep, as
// cub::DeviceRadixSort::SortKeys runs it: one histogram pass over all digits,
// then one pass per 8-bit digit that ranks a tile, looks back over the
// earlier tiles' digit counts and scatters; at most one tile is sorted by a
// single block.
type RadixSortKeysOp[K RadixKey] struct {
	instance
}

// RadixSortKeys declares a radix sort of keys of type K. It takes no
// operator: declare it with its type, runtime.RadixSortKeys[uint32](), and
// gocccl-gen generates its kernels.
func RadixSortKeys[K RadixKey]() *RadixSortKeysOp[K] {
	return &RadixSortKeysOp[K]{instance: newInstance(algo.RadixSortKeys, nil, reflect.TypeFor[K]())}
}

// Run writes the keys of in, sorted, to out. in and out have equal lengths
// and are either disjoint or the same slice; in is left unchanged when they
// differ. It is enqueued on s (nil means the default stream of in's device)
// and returns without waiting on a GPU.
func (r *RadixSortKeysOp[K]) Run(s *Stream, in, out *Slice[K], o RadixOptions) error {
	if err := in.usableAs(r.name(), "input"); err != nil {
		return err
	}
	if err := out.usableAs(r.name(), "output"); err != nil {
		return err
	}
	if err := radixOut(r.name(), "", in, out); err != nil {
		return err
	}
	return r.run(s, in, out, o, false)
}

// RunDoubleBuffer sorts the keys in keys.Current() using keys.Alternate()
// as its scratch copy, and sets keys.Selector to the buffer that holds the
// result: the alternate one when the window takes an odd number of 8-bit
// passes (on every backend). It needs less scratch memory than Run and no
// copy.
func (r *RadixSortKeysOp[K]) RunDoubleBuffer(s *Stream, keys *DoubleBuffer[K], o RadixOptions) error {
	if err := keys.check(r.name() + " keys"); err != nil {
		return err
	}
	cur, alt := keys.Current(), keys.Alternate()
	if err := r.run(s, cur, alt, o, true); err != nil {
		return err
	}
	begin, end, _ := o.window(elemSize[K]())
	keys.Selector ^= radixPasses(begin, end) % 2
	return nil
}

func (r *RadixSortKeysOp[K]) run(s *Stream, in, out *Slice[K], o RadixOptions, doubleBuffer bool) error {
	begin, end, err := o.window(elemSize[K]())
	if err != nil {
		return r.errorf("%v", err)
	}
	s, err = streamFor(r.name(), s, in.dev, out.dev)
	if err != nil {
		return err
	}
	if err := r.enter(s.dev); err != nil {
		return r.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		perm := radixPermutation(in.host, begin, end, o.Descending, s.dev.info.Workers)
		dst := out.host
		if doubleBuffer && radixPasses(begin, end)%2 == 0 {
			dst = in.host
		}
		gather(dst, in.host, perm, s.dev.info.Workers)
		return nil
	}
	j := radixJob{inst: &r.instance, s: s, n: in.n, ksize: elemSize[K](), kin: in.ptr, kout: out.ptr,
		begin: begin, end: end, desc: o.Descending, doubleBuffer: doubleBuffer}
	_, err = j.run()
	return err
}

// TempStorageBytes returns the device scratch memory a Run over n keys on d
// takes for the duration of the call (stream-ordered): the look-back state
// of ceil(n / tile) tiles, and a copy of the keys when the window takes more
// than one pass. It is 0 on the CPU backend and for n within one tile.
func (r *RadixSortKeysOp[K]) TempStorageBytes(d *Device, n int, o RadixOptions) (int, error) {
	return radixTempBytes(&r.instance, d, n, elemSize[K](), 0, o, false)
}

// TempStorageBytesDoubleBuffer is TempStorageBytes for RunDoubleBuffer.
func (r *RadixSortKeysOp[K]) TempStorageBytesDoubleBuffer(d *Device, n int, o RadixOptions) (int, error) {
	return radixTempBytes(&r.instance, d, n, elemSize[K](), 0, o, true)
}
