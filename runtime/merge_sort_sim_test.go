package runtime

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// simMergeSort runs the device algorithm of merge_sort.cuh on the host, line
// by line, with a small tile: mergeSortGPU's launch sequence and ping-pong,
// merge_sort_partition's splits and merge_tile's per-tile bounds, per-thread
// merge path and serial merge (the block sort is a stable sort per tile, as
// cub::BlockMergeSort's). It checks the index arithmetic that the GPU tests
// can only run on a GPU. Values are the input positions.
func simMergeSort(keys []uint32, threads, items int) ([]uint32, []int) {
	return simMergeSortWith(keys, threads, items, false)
}

// simMergeSortWith is simMergeSort; with search, the merge kernel's blocks
// find their splits themselves (merge_sort_split with warp_merge_path, for
// the tile and, unless it is the last of its pair, the next one), and the
// partition kernel does not run.
func simMergeSortWith(keys []uint32, threads, items int, search bool) ([]uint32, []int) {
	n := len(keys)
	tile := threads * items
	vals := make([]int, n)
	for i := range vals {
		vals[i] = i
	}
	if n < 2 {
		return keys, vals
	}
	less := func(a, b uint32) bool { return a < b }
	tiles := (n + tile - 1) / tile
	passes := 0
	for 1<<passes < tiles {
		passes++
	}
	tmpK, tmpV := make([]uint32, n), make([]int, n)
	parts := make([]int, tiles+1)
	inTmp := passes%2 == 1

	// block sort
	for t := 0; t < tiles; t++ {
		lo, hi := t*tile, min(n, (t+1)*tile)
		type kv struct {
			k uint32
			v int
		}
		s := make([]kv, hi-lo)
		for i := range s {
			s[i] = kv{keys[lo+i], vals[lo+i]}
		}
		slices.SortStableFunc(s, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		outK, outV := keys, vals
		if inTmp {
			outK, outV = tmpK, tmpV
		}
		for i := range s {
			outK[lo+i], outV[lo+i] = s[i].k, s[i].v
		}
	}
	for p := 0; p < passes; p++ {
		merged := 2 << p
		inK, inV, outK, outV := keys, vals, tmpK, tmpV
		if inTmp {
			inK, inV, outK, outV = tmpK, tmpV, keys, vals
		}
		// merge_sort_split of output tile i, by one thread or by a warp
		split := func(i int, warp bool) int {
			mask := merged - 1
			start, size := (i&^mask)*tile, merged/2*tile
			beg1 := min(n, start)
			end1 := min(n, start+size)
			end2 := min(n, end1+size)
			diag := min(end2-beg1, (i&mask)*tile)
			if warp {
				key := func(i int64) int64 { return int64(inK[i]) }
				s, _ := warpMergePathSim(func(i int64) int64 { return key(int64(beg1) + i) }, int64(end1-beg1),
					func(i int64) int64 { return key(int64(end1) + i) }, int64(end2-end1), int64(diag), lessInt64)
				return beg1 + int(s)
			}
			return beg1 + mergePathCPU(inK[beg1:end1], inK[end1:end2], diag, less)
		}
		// partition kernel
		if !search {
			for i := 0; i <= tiles; i++ {
				parts[i] = split(i, false)
			}
		} else {
			clear(parts)
		}
		// merge kernel
		for t := 0; t < tiles; t++ {
			mask := merged - 1
			start, size := (t&^mask)*tile, merged/2*tile
			beg1, end1 := parts[t], parts[t+1]
			if search {
				beg1, end1 = split(t, true), 0
				if t&mask != mask {
					end1 = split(t+1, true)
				}
			}
			diag := t*tile - start
			beg2 := min(n, 2*start+size+diag-beg1)
			end2 := min(n, 2*start+size+diag+tile-end1)
			if t&mask == mask {
				end1 = min(n, start+size)
				end2 = min(n, start+2*size)
			}
			c1, c2 := end1-beg1, end2-beg2
			count := c1 + c2
			shK := append(append([]uint32{}, inK[beg1:end1]...), inK[beg2:end2]...)
			shV := append(append([]int{}, inV[beg1:end1]...), inV[beg2:end2]...)
			for tid := 0; tid < threads; tid++ {
				ld := min(count, items*tid)
				split := mergePathCPU(shK[:c1], shK[c1:count], ld, less)
				b1, e1, b2, e2 := split, c1, c1+ld-split, count
				for it := 0; it < items; it++ {
					take2 := b2 < e2 && (b1 >= e1 || less(shK[b2], shK[b1]))
					idx := b1
					if take2 {
						idx = b2
						b2++
					} else {
						b1++
					}
					if o := items*tid + it; o < count {
						outK[t*tile+o], outV[t*tile+o] = shK[idx], shV[idx]
					}
				}
			}
		}
		inTmp = !inTmp
	}
	if inTmp {
		panic("result not in the caller's buffer")
	}
	return keys, vals
}

func TestMergeSortDeviceAlgorithmSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, shape := range [][2]int{{4, 3}, {8, 1}, {2, 5}} {
		tile := shape[0] * shape[1]
		for _, n := range []int{0, 1, 2, tile - 1, tile, tile + 1, 2 * tile, 3*tile + 1, 5*tile - 1, 8 * tile, 9*tile + 2, 100*tile + 7, 1000} {
			for _, distinct := range []uint32{3, 1 << 30} {
				keys := make([]uint32, n)
				for i := range keys {
					keys[i] = r.Uint32N(distinct)
				}
				orig := slices.Clone(keys)
				gotK, gotV := simMergeSort(keys, shape[0], shape[1])
				idx := make([]int, n)
				for i := range idx {
					idx[i] = i
				}
				slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(orig[a], orig[b]) })
				for i := range idx {
					if gotV[i] != idx[i] || gotK[i] != orig[idx[i]] {
						t.Fatalf("tile %v, n %d, distinct %d: position %d holds (%d, %d), want (%d, %d)", shape, n, distinct, i, gotK[i], gotV[i], orig[idx[i]], idx[i])
					}
				}
			}
		}
	}
}
