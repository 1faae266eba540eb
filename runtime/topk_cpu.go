package runtime

import "unsafe"

// The CPU backend's top-k: a radix select over the keys' ordered bits
// (flipped for the largest), 8 bits a level, most significant first, each
// level counting in parallel the digits of the keys whose higher bits equal
// the threshold's so far. That gives the k-th best key T and how many keys
// equal to T are taken; one parallel pass then collects, in input order,
// every key better than T and the first of those equal to it. A sorted
// selection sorts the k positions stably by key (radixPermutation).

// topkSelect returns the input positions of the k > 0 best keys: in input
// order, or best first (ties in input order) when o.Sorted.
func topkSelect[K RadixKey](keys []K, k int, o TopKOptions, workers int) []int {
	n := len(keys)
	width := 8 * int(unsafe.Sizeof(keys[0]))
	bits := make([]uint64, n)
	orderedWindow(keys, bits, 0, width, o.Largest, workers)

	var prefix uint64 // the threshold's bits chosen so far
	remaining := k    // keys still to take at or below the prefix
	counts := make([][256]int, max(1, workers))
	for shift := width - 8; shift >= 0; shift -= 8 {
		high := prefix >> (shift + 8) // Go: 0 when shift + 8 = 64
		chunks, _ := parallel(n, workers, func(c, lo, hi int) {
			cnt := &counts[c]
			*cnt = [256]int{}
			for _, b := range bits[lo:hi] {
				if b>>(shift+8) == high {
					cnt[(b>>shift)&0xff]++
				}
			}
		})
		before := 0
		for d := 0; d < 256; d++ {
			h := 0
			for c := 0; c < chunks; c++ {
				h += counts[c][d]
			}
			if before+h >= remaining {
				prefix |= uint64(d) << shift
				remaining -= before
				break
			}
			before += h
		}
	}
	t, eqTake := prefix, remaining

	// Per chunk: keys below t and keys equal to it; then where each chunk
	// writes and how many of its equal keys it takes.
	type tally struct{ lt, eq, at, take int }
	tallies := make([]tally, max(1, workers))
	chunks, _ := parallel(n, workers, func(c, lo, hi int) {
		lt, eq := 0, 0
		for _, b := range bits[lo:hi] {
			if b < t {
				lt++
			} else if b == t {
				eq++
			}
		}
		tallies[c] = tally{lt: lt, eq: eq}
	})
	at, eqLeft := 0, eqTake
	for c := 0; c < chunks; c++ {
		tc := &tallies[c]
		tc.take = min(tc.eq, eqLeft)
		eqLeft -= tc.take
		tc.at = at
		at += tc.lt + tc.take
	}
	pos := make([]int, k)
	parallel(n, workers, func(c, lo, hi int) {
		tc := tallies[c]
		j, take := tc.at, tc.take
		for i := lo; i < hi; i++ {
			b := bits[i]
			if b < t || b == t && take > 0 {
				if b == t {
					take--
				}
				pos[j] = i
				j++
			}
		}
	})
	if !o.Sorted || k == 1 {
		return pos
	}
	sel := make([]K, k)
	topkGather(sel, keys, pos, workers)
	perm := radixPermutation(sel, 0, width, o.Largest, workers) // stable: ties stay in input order
	out := make([]int, k)
	for i, p := range perm {
		out[i] = pos[p]
	}
	return out
}

// topkGather writes src[pos[i]] to dst[i] in parallel (dst and src do not
// overlap).
func topkGather[T any](dst, src []T, pos []int, workers int) {
	parallel(len(pos), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = src[pos[i]]
		}
	})
}
