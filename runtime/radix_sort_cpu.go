package runtime

import (
	"reflect"
	"unsafe"
)

// The CPU backend's radix sort: the keys' ordered window bits and their
// positions are sorted by a parallel stable LSD radix sort (8-bit digits;
// every pass counts digits by chunk in parallel, scans the counts in (digit,
// chunk) order and scatters each chunk in parallel), then keys and values
// are gathered once through the permutation. Passes whose digit is the same
// for every key are skipped. The order is the GPU's (see RadixOptions).

// keyMode says how a key type's bits are ordered.
type keyMode int

const (
	unsignedKey keyMode = iota
	signedKey
	floatKey
)

func modeOf[K RadixKey]() keyMode {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Float32, reflect.Float64:
		return floatKey
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return signedKey
	}
	return unsignedKey
}

// orderedWindow writes the window [begin, end) of each key's ordered bits to
// dst[i] (shifted down to bit 0), in parallel.
func orderedWindow[K RadixKey](keys []K, dst []uint64, begin, end int, desc bool, workers int) {
	size := int(unsafe.Sizeof(keys[0]))
	mode := modeOf[K]()
	base := unsafe.Pointer(unsafe.SliceData(keys))
	parallel(len(keys), workers, func(_, lo, hi int) {
		switch size {
		case 1:
			orderedBits(unsafe.Slice((*uint8)(base), len(keys))[lo:hi], dst[lo:hi], 8, mode, begin, end, desc)
		case 2:
			orderedBits(unsafe.Slice((*uint16)(base), len(keys))[lo:hi], dst[lo:hi], 16, mode, begin, end, desc)
		case 4:
			orderedBits(unsafe.Slice((*uint32)(base), len(keys))[lo:hi], dst[lo:hi], 32, mode, begin, end, desc)
		default:
			orderedBits(unsafe.Slice((*uint64)(base), len(keys))[lo:hi], dst[lo:hi], 64, mode, begin, end, desc)
		}
	})
}

// orderedBits converts raw key bits of the given width.
func orderedBits[B uint8 | uint16 | uint32 | uint64](src []B, dst []uint64, width int, mode keyMode, begin, end int, desc bool) {
	all := ^uint64(0) >> (64 - width)
	sign := uint64(1) << (width - 1)
	flip := uint64(0)
	if desc {
		flip = all
	}
	mask := ^uint64(0) >> (64 - max(end-begin, 1))
	if end == begin {
		mask = 0
	}
	for i, v := range src {
		b := uint64(v)
		switch mode {
		case signedKey:
			b ^= sign
		case floatKey:
			if b&sign != 0 {
				b = ^b & all
			} else {
				b ^= sign
			}
		}
		dst[i] = ((b ^ flip) >> begin) & mask
	}
}

// radixPermutation returns the stable order of keys by their ordered window
// bits: perm[i] is the input position of the i-th smallest key.
func radixPermutation[K RadixKey](keys []K, begin, end int, desc bool, workers int) []int {
	n := len(keys)
	perm := make([]int, n)
	if n == 0 {
		return perm
	}
	bits := make([]uint64, n)
	orderedWindow(keys, bits, begin, end, desc, workers)
	parallel(n, workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			perm[i] = i
		}
	})
	bits2, perm2 := make([]uint64, n), make([]int, n)
	counts := make([][256]int, max(1, workers))
	for shift := 0; shift < end-begin; shift += radixBits {
		chunks, _ := parallel(n, workers, func(c, lo, hi int) {
			cnt := &counts[c]
			*cnt = [256]int{}
			for _, b := range bits[lo:hi] {
				cnt[(b>>shift)&0xff]++
			}
		})
		// Exclusive offsets in (digit, chunk) order; skip a pass whose digit
		// is the same everywhere.
		off := 0
		single := false
		for d := 0; d < 256; d++ {
			total := 0
			for c := 0; c < chunks; c++ {
				k := counts[c][d]
				counts[c][d] = off
				off += k
				total += k
			}
			if total == n {
				single = true
			}
		}
		if single {
			continue
		}
		parallel(n, workers, func(c, lo, hi int) {
			next := &counts[c]
			for i := lo; i < hi; i++ {
				b := bits[i]
				d := (b >> shift) & 0xff
				j := next[d]
				next[d]++
				bits2[j], perm2[j] = b, perm[i]
			}
		})
		bits, bits2 = bits2, bits
		perm, perm2 = perm2, perm
	}
	return perm
}

// gather writes src[perm[i]] to dst[i] in parallel; dst may be src.
func gather[T any](dst, src []T, perm []int, workers int) {
	tmp := make([]T, len(perm))
	parallel(len(perm), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			tmp[i] = src[perm[i]]
		}
	})
	copy(dst, tmp)
}
