package main

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Segmented sorts of uint32 and uint64 keys (segmented_sort_keys_<layout>)
// and of keys with uint32 values, their input positions
// (segmented_sort_pairs_<layout>), into other buffers, on the layouts of
// bench/cub/segsort.cu: 1024-item segments, and mixed lengths of 0 to 65535
// items.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			for _, layout := range []string{"1024", "mixed"} {
				cs = append(cs,
					segsortCase(n, layout, "uint32", ops.SegmentedSortKeysUint32, nil),
					segsortCase(n, layout, "uint32", nil, ops.SegmentedSortPairsUint32),
					segsortCase(n, layout, "uint64", ops.SegmentedSortKeysUint64, nil),
					segsortCase(n, layout, "uint64", nil, ops.SegmentedSortPairsUint64))
			}
		}
		return cs
	})
}

// segsortOffsets returns the begin offsets of a layout over n keys and n at
// the end, as bench/cub/segsort.cu computes them.
func segsortOffsets(layout string, n int) []int64 {
	off := []int64{0}
	if layout == "1024" {
		for p := 1024; p < n; p += 1024 {
			off = append(off, int64(p))
		}
	} else {
		s := uint64(0x5e65)
		for p := 0; p < n; {
			x := splitmix64(&s)
			p = min(n, p+int((x>>32)%(2<<(x&15))))
			if p < n {
				off = append(off, int64(p))
			}
		}
	}
	return append(off, int64(n))
}

// splitmix64 is bench.cuh's generator.
func splitmix64(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// segsortCase times keysOp, or pairsOp when keysOp is nil, on one layout.
func segsortCase[K uint32 | uint64](n int, layout, tn string, keysOp *runtime.SegmentedSortKeysOp[K], pairsOp *runtime.SegmentedSortPairsOp[K, uint32]) Case {
	pairs := keysOp == nil
	ksize := int64(unsafe.Sizeof(K(0)))
	alg, note := "segmented_sort_keys_"+layout, "1024-item segments"
	if layout != "1024" {
		note = "mixed segments (0..65535 items)"
	}
	off := segsortOffsets(layout, n)
	segs := len(off) - 1
	bytes := 2*int64(n)*ksize + 16*int64(segs)
	if pairs {
		alg, note, bytes = "segmented_sort_pairs_"+layout, note+"; uint32 values", bytes+2*int64(n)*4
	}
	return Case{
		Algorithm: alg, Type: tn, N: n, Bytes: bytes, Note: note,
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[K](rng(env, alg, tn, n), n)
			h := &holder{}
			bufs, err := rot(h, env, host, int(ksize))
			if err != nil {
				return nil, err
			}
			doff, err := upload(h, env, off)
			if err != nil {
				return nil, err
			}
			begin, end := doff.Range(0, segs), doff.Range(1, segs+1)
			out, err := alloc[K](h, env, n)
			if err != nil {
				return nil, err
			}
			var vin, vout *runtime.Slice[uint32]
			if pairs {
				idx := iota32(n)
				if vin, err = upload(h, env, idx); err != nil {
					return nil, err
				}
				if vout, err = alloc[uint32](h, env, n); err != nil {
					return nil, err
				}
			}
			o := runtime.SegmentedSortOptions{}
			return &Instance{
				Poison: func() error {
					if pairs {
						return poisonAll(poisoner(out), poisoner(vout))()
					}
					return poisoner(out)()
				},
				Run: func(i int) error {
					if pairs {
						return pairsOp.Run(env.Stream, bufs[i%len(bufs)], out, vin, vout, begin, end, o)
					}
					return keysOp.Run(env.Stream, bufs[i%len(bufs)], out, begin, end, o)
				},
				Check: func() error {
					keys, err := out.ToHost()
					if err != nil {
						return err
					}
					var vals []uint32
					if pairs {
						if vals, err = vout.ToHost(); err != nil {
							return err
						}
					}
					return checkSegments(host, keys, vals, off)
				},
				Free: h.Free,
			}, nil
		},
	}
}

// checkSegments checks that every segment of keys is the ascending sort of
// in's, and, when vals is not nil, the stable one of (in[i], i).
func checkSegments[K uint32 | uint64](in, keys []K, vals []uint32, off []int64) error {
	for s := 0; s+1 < len(off); s++ {
		b, e := off[s], off[s+1]
		var err error
		if vals == nil {
			err = checkSorted(in[b:e], keys[b:e])
		} else {
			v := make([]uint32, e-b)
			for i := range v {
				v[i] = vals[b+int64(i)] - uint32(b)
			}
			err = checkStable(in[b:e], keys[b:e], v)
		}
		if err != nil {
			return fmt.Errorf("segment %d [%d, %d): %w", s, b, e, err)
		}
	}
	return nil
}
