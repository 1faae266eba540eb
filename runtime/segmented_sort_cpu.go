package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"
)

// The CPU backend's segmented sort: the segments are checked (within the
// input, not overlapping), then each is sorted stably by its keys' ordered
// bits (the GPU's order, see RadixOptions) and its keys and values gathered
// into the output. Segments run in parallel, one worker each; a segment too
// long for one worker is sorted by the parallel radix sort of the whole
// device instead.

// segsortParallelMin is the length from which a segment is sorted by all
// workers rather than one.
const segsortParallelMin = 1 << 16

// segmentedSortCPU sorts keys (and values, when vin is not nil) of every
// segment [begin[s], end[s]) of kin into the same positions of kout (vout).
func segmentedSortCPU[K RadixKey, V any](kin, kout []K, vin, vout []V, begin, end []int64, desc bool, workers int) error {
	n := int64(len(kin))
	var long []int
	for s := range begin {
		b, e := begin[s], end[s]
		if b < 0 || b > e || e > n {
			return fmt.Errorf("segment %d is [%d, %d), not within [0, %d) in order", s, b, e, n)
		}
		if e-b >= segsortParallelMin {
			long = append(long, s)
		}
	}
	if err := segsortDisjoint(begin, end); err != nil {
		return err
	}
	width := 8 * int(unsafe.Sizeof(*new(K)))
	sortOne := func(s int, perm []int, bits []uint64) {
		b, e := int(begin[s]), int(end[s])
		m := e - b
		if m == 0 {
			return
		}
		if m >= segsortParallelMin {
			perm = radixPermutation(kin[b:e], 0, width, desc, workers)
		} else {
			perm, bits = perm[:m], bits[:m]
			orderedBits64(kin[b:e], bits, desc)
			for i := range perm {
				perm[i] = i
			}
			if m <= 32 {
				for i := 1; i < m; i++ { // insertion sort: stable
					for x := i; x > 0 && bits[perm[x-1]] > bits[perm[x]]; x-- {
						perm[x-1], perm[x] = perm[x], perm[x-1]
					}
				}
			} else {
				slices.SortStableFunc(perm, func(x, y int) int { return cmp.Compare(bits[x], bits[y]) })
			}
		}
		for i, p := range perm {
			kout[b+i] = kin[b+p]
		}
		if vin != nil {
			for i, p := range perm {
				vout[b+i] = vin[b+p]
			}
		}
	}
	for _, s := range long {
		sortOne(s, nil, nil)
	}
	_, err := parallel(len(begin), workers, func(_, lo, hi int) {
		var perm []int
		var bits []uint64
		for s := lo; s < hi; s++ {
			m := int(end[s] - begin[s])
			if m >= segsortParallelMin {
				continue
			}
			if m > len(perm) {
				perm, bits = make([]int, m), make([]uint64, m)
			}
			sortOne(s, perm, bits)
		}
	})
	return err
}

// orderedBits64 writes the ordered bits of every key (all of them) to dst.
func orderedBits64[K RadixKey](keys []K, dst []uint64, desc bool) {
	size := int(unsafe.Sizeof(keys[0]))
	mode := modeOf[K]()
	base := unsafe.Pointer(unsafe.SliceData(keys))
	switch size {
	case 1:
		orderedBits(unsafe.Slice((*uint8)(base), len(keys)), dst, 8, mode, 0, 8, desc)
	case 2:
		orderedBits(unsafe.Slice((*uint16)(base), len(keys)), dst, 16, mode, 0, 16, desc)
	case 4:
		orderedBits(unsafe.Slice((*uint32)(base), len(keys)), dst, 32, mode, 0, 32, desc)
	default:
		orderedBits(unsafe.Slice((*uint64)(base), len(keys)), dst, 64, mode, 0, 64, desc)
	}
}

// segsortDisjoint checks that no two non-empty segments overlap.
func segsortDisjoint(begin, end []int64) error {
	var idx []int
	sorted := true
	last := int64(-1)
	for s := range begin {
		if begin[s] == end[s] {
			continue
		}
		idx = append(idx, s)
		if begin[s] < last {
			sorted = false
		}
		last = begin[s]
	}
	if !sorted {
		slices.SortFunc(idx, func(x, y int) int { return cmp.Compare(begin[x], begin[y]) })
	}
	for i := 1; i < len(idx); i++ {
		if p, s := idx[i-1], idx[i]; end[p] > begin[s] {
			return fmt.Errorf("segments %d [%d, %d) and %d [%d, %d) overlap", p, begin[p], end[p], s, begin[s], end[s])
		}
	}
	return nil
}
