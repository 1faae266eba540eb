package group

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// samplesPerRank is how many splitter candidates each rank offers per rank
// of the group: more samples, shards closer to n/g.
const samplesPerRank = 16

// SortKeys sorts the keys of every shard of in across the group, in the
// order of sorter (runtime.RadixSortKeysOp with its default options: every
// bit, ascending), and returns them as a new sharded sequence: shard r
// holds keys that sort before every key of shard r+1, and each shard about
// n/g of them. The steps are those of a sample sort: every rank sorts its
// shard, offers evenly spaced samples, and all ranks choose the same g-1
// splitters from all the samples, weighted by the keys each stands for;
// every rank sends each other rank its keys between their splitters in one
// all-to-all exchange and sorts what it received. Concatenated in rank
// order, the shards are one device's sort of the whole input, bit for bit.
// Keys equal to a splitter all go to one rank, so many equal keys make
// uneven shards. It waits for the exchange.
func SortKeys[K runtime.RadixKey](sorter *runtime.RadixSortKeysOp[K], in *Sharded[K]) (*Sharded[K], error) {
	if sorter == nil {
		return nil, errors.New("gocccl: group.SortKeys: nil instance")
	}
	if in == nil {
		return nil, errors.New("gocccl: group.SortKeys: nil input")
	}
	g := in.g
	out := newSharded[K](g)
	err := g.each(func(r int) error {
		s, err := sortRank(g, r, sorter, in.shards[r])
		out.shards[r] = s
		if err != nil {
			return err
		}
		return exchangeLens(g, r, s.Len(), out.offs)
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gocccl: group.SortKeys: %w", err), out.Free())
	}
	return out, nil
}

// sortRank is rank r's part of SortKeys: it returns the rank's new shard.
func sortRank[K runtime.RadixKey](g *Group, r int, sorter *runtime.RadixSortKeysOp[K], shard *runtime.Slice[K]) (*runtime.Slice[K], error) {
	keys, err := sortShard(sorter, shard)
	if err != nil {
		return nil, err
	}
	recv, err := exchange(g, r, keys)
	if err != nil {
		return nil, err
	}
	return sortedSlice(sorter, g.devs[r], recv)
}

// bounds returns, for rank r's sorted keys, where the keys for each rank
// start: keys[b[j]:b[j+1]] go to rank j (b has g+1 entries). Every rank
// offers its samples and all choose the same splitters.
func bounds[K runtime.RadixKey](g *Group, r int, keys []K) ([]int, error) {
	order := orderOf[K]()
	all, err := g.comm.allGather(r, samplesOf(keys, order, samplesPerRank*g.Size()))
	if err != nil {
		return nil, err
	}
	splitters := chooseSplitters(all, g.Size())
	b := make([]int, g.Size()+1)
	for j := 1; j < g.Size(); j++ {
		b[j] = len(keys)
		if j-1 < len(splitters) {
			b[j] = b[j-1] + firstAtLeast(keys[b[j-1]:], order, splitters[j-1])
		}
	}
	b[g.Size()] = len(keys)
	return b, nil
}

// exchange sends each rank its part of the sorted keys (bounds) and
// returns what this rank received, in the order of the sending ranks.
func exchange[K runtime.RadixKey](g *Group, r int, keys []K) ([]K, error) {
	b, err := bounds(g, r, keys)
	if err != nil {
		return nil, err
	}
	return sendParts(g, r, keys, b)
}

// sendParts sends xs[b[j]:b[j+1]] to every rank j and returns what this
// rank received, concatenated in the order of the sending ranks.
func sendParts[T any](g *Group, r int, xs []T, b []int) ([]T, error) {
	sends := make([][]byte, g.Size())
	for j := range sends {
		sends[j] = bytesOf(xs[b[j]:b[j+1]])
	}
	got, err := g.comm.allToAll(r, sends)
	if err != nil {
		return nil, err
	}
	var recv []T
	for _, p := range got {
		recv = append(recv, keysOf[T](p)...)
	}
	return recv, nil
}

// sortShard sorts a shard with sorter and returns its keys on the host.
func sortShard[K runtime.RadixKey](sorter *runtime.RadixSortKeysOp[K], shard *runtime.Slice[K]) ([]K, error) {
	tmp, err := runtime.Alloc[K](shard.Device(), shard.Len())
	if err != nil {
		return nil, err
	}
	defer tmp.Free()
	if err := sorter.Run(nil, shard, tmp, runtime.RadixOptions{}); err != nil {
		return nil, err
	}
	return tmp.ToHost()
}

// sortedSlice uploads keys to d and sorts them there into a new Slice.
func sortedSlice[K runtime.RadixKey](sorter *runtime.RadixSortKeysOp[K], d *runtime.Device, keys []K) (*runtime.Slice[K], error) {
	if keys == nil {
		keys = []K{}
	}
	in, err := runtime.FromHost(d, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[K](d, len(keys))
	if err != nil {
		return nil, err
	}
	if err := sorter.Run(nil, in, out, runtime.RadixOptions{}); err != nil {
		return nil, errors.Join(err, out.Free())
	}
	return out, nil
}

// A sample is a splitter candidate: a key's ordered bits and the number of
// keys it stands for.
type sample struct {
	key    uint64
	weight float64
}

// samplesOf returns up to m evenly spaced samples of sorted keys, as bytes.
func samplesOf[K runtime.RadixKey](keys []K, order func(K) uint64, m int) []byte {
	m = min(m, len(keys))
	ss := make([]sample, m)
	for i := range ss {
		ss[i] = sample{order(keys[(2*i+1)*len(keys)/(2*m)]), float64(len(keys)) / float64(m)}
	}
	return bytesOf(ss)
}

// chooseSplitters returns up to g-1 splitters (ordered bits) from every
// rank's samples: the j-th is the first sample, in key order, at which the
// keys the samples stand for reach j/g of all of them. Every rank computes
// the same ones from the same samples.
func chooseSplitters(all [][]byte, g int) []uint64 {
	var ss []sample
	total := 0.0
	for _, b := range all {
		for _, s := range keysOf[sample](b) {
			ss = append(ss, s)
			total += s.weight
		}
	}
	slices.SortStableFunc(ss, func(a, b sample) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	var splitters []uint64
	cum := 0.0
	j := 1
	for _, s := range ss {
		cum += s.weight
		for j < g && cum >= float64(j)*total/float64(g) {
			splitters = append(splitters, s.key)
			j++
		}
	}
	return splitters
}

// firstAtLeast returns the index of the first of the sorted keys whose
// ordered bits are at least splitter.
func firstAtLeast[K runtime.RadixKey](keys []K, order func(K) uint64, splitter uint64) int {
	i, _ := slices.BinarySearchFunc(keys, splitter, func(k K, s uint64) int {
		if order(k) < s {
			return -1
		}
		return 1 // never 0: the first at least splitter
	})
	return i
}

// orderOf returns the function from a key to its bits in the radix sort's
// ascending order (CUB's: sign bit flipped for signed integers; for floats
// every bit flipped when negative, else the sign bit), so that unsigned
// comparison of the results is the sort's order.
func orderOf[K runtime.RadixKey]() func(K) uint64 {
	var k K
	width := 8 * uint(unsafe.Sizeof(k))
	sign := uint64(1) << (width - 1)
	all := ^uint64(0) >> (64 - width)
	raw := func(k K) uint64 {
		switch width {
		case 8:
			return uint64(*(*uint8)(unsafe.Pointer(&k)))
		case 16:
			return uint64(*(*uint16)(unsafe.Pointer(&k)))
		case 32:
			return uint64(*(*uint32)(unsafe.Pointer(&k)))
		}
		return *(*uint64)(unsafe.Pointer(&k))
	}
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Float32, reflect.Float64:
		return func(k K) uint64 {
			b := raw(k)
			if b&sign != 0 {
				return ^b & all
			}
			return b | sign
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return func(k K) uint64 { return raw(k) ^ sign }
	}
	return raw
}

// bytesOf views xs as bytes.
func bytesOf[T any](xs []T) []byte {
	if len(xs) == 0 {
		return nil
	}
	var x T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)*int(unsafe.Sizeof(x)))
}

// keysOf copies bytes b (a whole number of T) into a []T.
func keysOf[T any](b []byte) []T {
	var x T
	n := len(b) / int(unsafe.Sizeof(x))
	out := make([]T, n)
	copy(bytesOf(out), b)
	return out
}
