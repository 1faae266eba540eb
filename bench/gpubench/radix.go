package main

import (
	"cmp"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Radix sorts: keys (sort_keys) and keys with uint32 values, their input
// positions (sort_pairs), over uint32, float32, uint64 and float64 keys,
// into other buffers, as cub::DeviceRadixSort in bench/cub/radix.cu.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				radixCase(n, "uint32", 4, ops.RadixSortKeysUint32, nil),
				radixCase(n, "uint32", 4, nil, ops.RadixSortPairsUint32),
				radixCase(n, "float32", 4, ops.RadixSortKeysFloat32, nil),
				radixCase(n, "float32", 4, nil, ops.RadixSortPairsFloat32),
				radixCase(n, "uint64", 8, ops.RadixSortKeysUint64, nil),
				radixCase(n, "uint64", 8, nil, ops.RadixSortPairsUint64),
				radixCase(n, "float64", 8, ops.RadixSortKeysFloat64, nil),
				radixCase(n, "float64", 8, nil, ops.RadixSortPairsFloat64),
			)
		}
		return cs
	})
}

func radixCase[K interface {
	wide
	cmp.Ordered
	runtime.RadixKey
}](n int, typ string, size int, keysOp *runtime.RadixSortKeysOp[K], pairsOp *runtime.RadixSortPairsOp[K, uint32]) Case {
	pairs := pairsOp != nil
	alg, bytes, note := "sort_keys", 2*int64(n)*int64(size), ""
	if pairs {
		alg, bytes, note = "sort_pairs", 2*int64(n)*int64(size+4), "uint32 values"
	}
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: bytes, Note: note,
		Setup: func(env *Env) (*Instance, error) {
			host := randomItems[K](rng(env, alg, typ, n), n)
			h := &holder{}
			bufs, err := rot(h, env, host, size)
			if err != nil {
				return nil, err
			}
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
			return &Instance{
				Poison: func() error {
					if pairs {
						return poisonAll(poisoner(out), poisoner(vout))()
					}
					return poisoner(out)()
				},
				Run: func(i int) error {
					if pairs {
						return pairsOp.Run(env.Stream, bufs[i%len(bufs)], out, vin, vout, runtime.RadixOptions{})
					}
					return keysOp.Run(env.Stream, bufs[i%len(bufs)], out, runtime.RadixOptions{})
				},
				Check: func() error {
					keys, err := out.ToHost()
					if err != nil {
						return err
					}
					if !pairs {
						return checkSorted(host, keys)
					}
					vals, err := vout.ToHost()
					if err != nil {
						return err
					}
					return checkStable(host, keys, vals)
				},
				Free: h.Free,
			}, nil
		},
	}
}
