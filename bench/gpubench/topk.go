package main

import (
	"fmt"
	"slices"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// topkKs are the k of the top-k rows: "topk_16", "topk_1024", "topk_65536".
var topkKs = []int{16, 1024, 65536}

// topkSortedK is the k of the sorted row "topk_sorted_65536": past
// runtime.TopKSortedMax, so the GPU radix sorts the selected keys.
const topkSortedK = 65536

// Top-k selections: the k largest of n random uint32 or float32 keys,
// unsorted, as torch.topk(sorted=False) in bench/py/algos/topk.py, and
// sorted (topk_sorted_65536), against a full cub::DeviceRadixSort::SortKeys
// in bench/cub/topk.cu (CCCL 3.0 has no cub::DeviceTopK; its sort is sorted
// too). k larger than n is left out. segmented_topk_16: the 16 largest of
// every 1024-key segment (2^16 segments at n = 2^26), against
// cub::DeviceSegmentedSort::SortKeysDescending of the segments in
// bench/cub/topk.cu.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			for _, k := range topkKs {
				if k > n {
					continue
				}
				cs = append(cs, topkCase(n, k, false, "uint32", ops.TopKUint32), topkCase(n, k, false, "float32", ops.TopKFloat32))
			}
			if topkSortedK <= n {
				cs = append(cs, topkCase(n, topkSortedK, true, "uint32", ops.TopKUint32),
					topkCase(n, topkSortedK, true, "float32", ops.TopKFloat32))
			}
			if n >= segTopKSize {
				cs = append(cs, segTopKCase(n, "uint32", ops.SegmentedTopKUint32), segTopKCase(n, "float32", ops.SegmentedTopKFloat32))
			}
		}
		return cs
	})
}

// largestK returns the k largest of xs, ascending: a min-heap of k, so
// that a 2^28 case's check costs about one comparison an item.
func largestK[K num](xs []K, k int) []K {
	h := slices.Clone(xs[:k])
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= k {
				return
			}
			if r := l + 1; r < k && h[r] < h[l] {
				l = r
			}
			if h[i] <= h[l] {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range xs[k:] {
		if x > h[0] {
			h[0] = x
			down(0)
		}
	}
	slices.Sort(h)
	return h
}

// topkCase times the k largest of n keys, checked against the host's
// sorted copy: as multisets when unsorted (the order is unspecified), in
// order (largest first) when sorted.
func topkCase[K interface {
	num
	runtime.RadixKey
}](n, k int, sorted bool, typ string, op *runtime.TopKKeysOp[K]) Case {
	alg, note := fmt.Sprintf("topk_%d", k), "largest, unsorted"
	if sorted {
		alg, note = fmt.Sprintf("topk_sorted_%d", k), "largest, sorted (selection, then a radix sort of the k)"
	}
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: int64(n)*4 + int64(k)*4, Note: note,
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[K](rng(env, alg, typ, n), n)
			want := largestK(host, k)
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			out, err := alloc[K](h, env, k)
			if err != nil {
				return nil, err
			}
			o := runtime.TopKOptions{Largest: true, Sorted: sorted}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], out, k, o) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					got = got[:k]
					if sorted {
						slices.Reverse(got) // largest first
					} else {
						slices.Sort(got)
					}
					return sameItems(alg, got, want)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// segTopKSize and segTopKK are the segmented top-k rows' segment length
// and k: "segmented_topk_16" over n/1024 segments.
const segTopKSize, segTopKK = 1024, 16

// segTopKCase times the 16 largest keys of every 1024-key segment of n
// random keys (offsets in a buffer, unsorted results), checked segment by
// segment against the host's (as multisets: the order is unspecified).
func segTopKCase[K interface {
	num
	runtime.RadixKey
}](n int, typ string, op *runtime.SegmentedTopKKeysOp[K]) Case {
	alg := fmt.Sprintf("segmented_topk_%d", segTopKK)
	segs := n / segTopKSize
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: int64(n)*4 + int64(segs)*(16+segTopKK*4),
		Note: fmt.Sprintf("largest, unsorted, %d segments of %d", segs, segTopKSize),
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[K](rng(env, alg, typ, n), n)
			off := make([]int64, segs+1)
			for i := range off {
				off[i] = int64(i) * segTopKSize
			}
			h := &holder{}
			bufs, err := rot(h, env, host, 4)
			if err != nil {
				return nil, err
			}
			doff, err := upload(h, env, off)
			if err != nil {
				return nil, err
			}
			out, err := alloc[K](h, env, segs*segTopKK)
			if err != nil {
				return nil, err
			}
			begin, end := doff.Range(0, segs), doff.Range(1, segs+1)
			o := runtime.TopKOptions{Largest: true}
			return &Instance{
				Poison: poisoner(out),
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], out, begin, end, segTopKK, o) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					for s := range segs {
						g := got[s*segTopKK : (s+1)*segTopKK]
						slices.Sort(g)
						if err := sameItems(fmt.Sprintf("%s segment %d", alg, s), g, largestK(host[off[s]:off[s+1]], segTopKK)); err != nil {
							return err
						}
					}
					return nil
				},
				Free: h.Free,
			}, nil
		},
	}
}
