package main

import (
	"cmp"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The host side of a 2^28 case (its inputs, its index arrays, its oracle)
// is O(n) work per case that a single goroutine takes seconds over; the
// helpers here spread it over GOMAXPROCS goroutines. Every split is by
// fixed-size blocks, independent of GOMAXPROCS, so results (random inputs,
// float sums combined in block order) are the same on any machine.

// parBlock is the number of items one goroutine handles at a time; below it
// a loop runs inline.
const parBlock = 1 << 16

// blocks returns how many parBlock blocks cover n items.
func blocks(n int) int { return (n + parBlock - 1) / parBlock }

// parallelFor calls fn(b, lo, hi) for every block b of [0, n), [lo, hi) its
// items, on up to GOMAXPROCS goroutines; blocks of one goroutine run in
// increasing order, but blocks of different goroutines in any order.
func parallelFor(n int, fn func(b, lo, hi int)) { parallelForBy(n, parBlock, fn) }

// parallelForBy is parallelFor over blocks of size items (at least 1): for
// loops whose iterations are larger than an item, such as segments.
func parallelForBy(n, size int, fn func(b, lo, hi int)) {
	size = max(size, 1)
	nb := (n + size - 1) / size
	workers := min(goruntime.GOMAXPROCS(0), nb)
	if workers <= 1 {
		for b := range nb {
			fn(b, b*size, min(n, (b+1)*size))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				fn(b, b*size, min(n, (b+1)*size))
			}
		})
	}
	wg.Wait()
}

// parallelBlocks returns fn's result for every block of [0, n), in block
// order (parallelFor's split), for the caller to combine deterministically.
func parallelBlocks[A any](n int, fn func(lo, hi int) A) []A {
	out := make([]A, blocks(n))
	parallelFor(n, func(b, lo, hi int) { out[b] = fn(lo, hi) })
	return out
}

// chunkStreams derives the seeds of the per-block random streams of one
// parallel generation from r, drawing two values from it whatever n is, so
// that what the caller draws from r afterwards is deterministic too.
type chunkStreams struct{ s1, s2 uint64 }

func newChunkStreams(r *rand.Rand) chunkStreams { return chunkStreams{r.Uint64(), r.Uint64()} }

// stream returns block b's generator: a PCG whose second seed word is the
// block number mixed with s2 (splitmix64's finaliser), so that neighbouring
// blocks get unrelated sequences.
func (c chunkStreams) stream(b int) *rand.Rand {
	z := c.s2 + uint64(b+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return rand.New(rand.NewPCG(c.s1, z^(z>>31)))
}

// parallelItems returns n items made by gen, block b's from its own stream
// (chunkStreams) on parallelFor's goroutines: deterministic for a given r,
// whatever GOMAXPROCS is.
func parallelItems[T any](r *rand.Rand, n int, gen func(*rand.Rand) T) []T {
	s := make([]T, n)
	cs := newChunkStreams(r)
	parallelFor(n, func(b, lo, hi int) {
		br := cs.stream(b)
		for i := lo; i < hi; i++ {
			s[i] = gen(br)
		}
	})
	return s
}

// iota32 returns 0, 1, …, n-1 (the values of the pair sorts).
func iota32(n int) []uint32 {
	s := make([]uint32, n)
	parallelFor(n, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			s[i] = uint32(i)
		}
	})
	return s
}

// parallelSort sorts s ascending (cmp.Less's order, as slices.Sort): parts
// sorted side by side, then merged pairwise, each round's merges side by
// side. The result is a sorted permutation of s, as slices.Sort's; among
// items that compare equal (+0 and -0) the order may differ from it.
func parallelSort[T cmp.Ordered](s []T) {
	parts := 1
	for parts < goruntime.GOMAXPROCS(0) && len(s)/(2*parts) >= parBlock {
		parts *= 2
	}
	if parts == 1 {
		slices.Sort(s)
		return
	}
	bounds := make([]int, parts+1)
	for p := range bounds {
		bounds[p] = len(s) * p / parts
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { slices.Sort(s[bounds[p]:bounds[p+1]]) })
	}
	wg.Wait()
	src, dst := s, make([]T, len(s))
	for width := 1; width < parts; width *= 2 {
		for p := 0; p < parts; p += 2 * width {
			lo, mid, hi := bounds[p], bounds[min(p+width, parts)], bounds[min(p+2*width, parts)]
			wg.Go(func() { mergeInto(dst[lo:hi], src[lo:mid], src[mid:hi]) })
		}
		wg.Wait()
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// mergeInto writes the stable merge of sorted a and b into out (len(a) +
// len(b) items): of equal items, a's come first.
func mergeInto[T cmp.Ordered](out, a, b []T) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp.Less(b[j], a[i]) {
			out[k] = b[j]
			j++
		} else {
			out[k] = a[i]
			i++
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}

// firstIndex returns the smallest i in [0, n) with bad(i), or -1: blocks
// tested in parallel, each up to its first bad item.
func firstIndex(n int, bad func(i int) bool) int {
	first := -1
	for _, i := range parallelBlocks(n, func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			if bad(i) {
				return i
			}
		}
		return -1
	}) {
		if i >= 0 {
			first = i
			break
		}
	}
	return first
}

// firstUnsorted returns the first i with s[i] < s[i-1], or -1.
func firstUnsorted[T cmp.Ordered](s []T) int {
	return firstIndex(len(s), func(i int) bool { return i > 0 && s[i] < s[i-1] })
}

// firstDifference returns the first i with got[i] != want[i] over
// len(want) items (got at least as long), or -1.
func firstDifference[T comparable](got, want []T) int {
	return firstIndex(len(want), func(i int) bool { return got[i] != want[i] })
}
