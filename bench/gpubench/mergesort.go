package main

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Merge sort: stable in-place sorts of uint32 and float32 keys, alone
// (merge_sort) and with uint32 values (merge_sort_pairs), as
// cub::DeviceMergeSort in bench/cub/mergesort.cu. Every timed run first
// copies its input into the work buffer (a UnaryTransform identity; the C++
// rows use cudaMemcpyAsync), since the sort overwrites its input.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				mergeSortCase(n, "uint32", ops.MergeSortUint32, ops.MergeSortPairsUint32, ops.MergeSortCopyUint32, false,
					func(r *rand.Rand) uint32 { return r.Uint32() }),
				mergeSortCase(n, "uint32", ops.MergeSortUint32, ops.MergeSortPairsUint32, ops.MergeSortCopyUint32, true,
					func(r *rand.Rand) uint32 { return r.Uint32() }),
				mergeSortCase(n, "float32", ops.MergeSortFloat32, ops.MergeSortPairsFloat32, ops.MergeSortCopyFloat32, false,
					func(r *rand.Rand) float32 { return float32(r.Float64()) }),
				mergeSortCase(n, "float32", ops.MergeSortFloat32, ops.MergeSortPairsFloat32, ops.MergeSortCopyFloat32, true,
					func(r *rand.Rand) float32 { return float32(r.Float64()) }),
			)
		}
		return cs
	})
}

// mergeSortCase times copy + sort of n random keys (every seventh repeats
// an earlier key, so that stability shows), with their positions as values
// when pairs.
func mergeSortCase[K uint32 | float32](n int, typ string, keysOp *runtime.MergeSortKeysOp[K], pairsOp *runtime.MergeSortPairsOp[K, uint32],
	cp *runtime.UnaryTransformOp[K, K], pairs bool, gen func(*rand.Rand) K) Case {
	alg, bytes := "merge_sort", 2*int64(n)*4
	if pairs {
		alg, bytes = "merge_sort_pairs", 2*int64(n)*8
	}
	return Case{
		Algorithm: alg, Type: typ, N: n, Bytes: bytes,
		Note: "includes a copy of the input into the work buffer (in-place sort)",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, alg, typ, n)
			// Random keys, every seventh a copy of the key at half its index
			// (in increasing order, so a copy of a copy is of the final key).
			host := parallelItems(r, n, gen)
			for i := 0; i < n; i += 7 {
				host[i] = host[i/2]
			}
			idx := iota32(n)
			bufs, free, err := rotation(env, host, 4)
			if err != nil {
				return nil, err
			}
			var vbufs []*runtime.Slice[uint32]
			freeV := func() {}
			if pairs {
				if vbufs, freeV, err = rotation(env, idx, 4); err != nil {
					free()
					return nil, err
				}
			}
			work, err := runtime.Alloc[K](env.Dev, n)
			if err != nil {
				free()
				freeV()
				return nil, err
			}
			vwork, err := runtime.Alloc[uint32](env.Dev, n)
			if err != nil {
				work.Free()
				free()
				freeV()
				return nil, err
			}
			valueCopy := ops.MergeSortCopyUint32
			return &Instance{
				Poison: func() error {
					if err := work.CopyFromHost(fill(n, poison[K]())); err != nil {
						return err
					}
					return vwork.CopyFromHost(fill(n, poison[uint32]()))
				},
				Run: func(i int) error {
					if err := cp.Run(env.Stream, bufs[i%len(bufs)], work); err != nil {
						return err
					}
					if !pairs {
						return keysOp.Run(env.Stream, work)
					}
					if err := valueCopy.Run(env.Stream, vbufs[i%len(vbufs)], vwork); err != nil {
						return err
					}
					return pairsOp.Run(env.Stream, work, vwork)
				},
				Check: func() error {
					keys, err := work.ToHost()
					if err != nil {
						return err
					}
					if !pairs {
						return checkSortedKeys(host, keys)
					}
					vals, err := vwork.ToHost()
					if err != nil {
						return err
					}
					return checkStablePairs(host, keys, vals)
				},
				Free: func() { vwork.Free(); work.Free(); freeV(); free() },
			}, nil
		},
	}
}

func fill[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// checkSortedKeys checks that got is ascending and a permutation of in:
// exactly, got equal item for item to a sorted copy of in (parallelSort;
// a map of counts took minutes at 2^28).
func checkSortedKeys[K uint32 | float32](in, got []K) error {
	if len(got) != len(in) {
		return fmt.Errorf("%d keys, want %d", len(got), len(in))
	}
	if i := firstUnsorted(got); i >= 0 {
		return fmt.Errorf("not sorted at %d of %d", i, len(got))
	}
	want := slices.Clone(in)
	parallelSort(want)
	if i := firstDifference(got, want); i >= 0 {
		return fmt.Errorf("key %v at %d is not in the input (as often): the sorted input has %v there", got[i], i, want[i])
	}
	return nil
}

// checkStablePairs checks that (keys, vals) is the stable sort of
// (in[i], i): vals a permutation, keys[i] == in[vals[i]], keys ascending,
// vals ascending among equal keys.
func checkStablePairs[K uint32 | float32](in, keys []K, vals []uint32) error {
	return checkStable(in, keys, vals)
}
