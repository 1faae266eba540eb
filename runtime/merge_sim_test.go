package runtime

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// warpMergePathSim runs detail::warp_merge_path (kernels/include/gocccl/
// merge.cuh) on the host, line by line, for the 32 lanes of one warp: the
// probe points, the ballot and the narrowing of [lo, hi). The keys are
// read through functions, so that ranges far larger than memory can be
// searched (the device arithmetic is 64-bit, as here). It returns the split
// and the number of rounds (each a round of dependent loads on the GPU).
func warpMergePathSim(a func(int64) int64, na int64, b func(int64) int64, nb, diag int64, less func(x, y int64) bool) (split int64, rounds int) {
	lo := max(0, diag-nb)
	hi := min(diag, na)
	for lo < hi {
		length := hi - lo
		probes := int(min(length, 32))
		point := func(k int) int64 {
			if length <= 32 {
				return lo + int64(k)
			}
			return lo + length*int64(k+1)/33
		}
		var ballot uint32
		for lane := range 32 {
			if lane < probes {
				x := point(lane)
				if x < lo || x >= hi {
					panic("probe outside the range")
				}
				if less(b(diag-1-x), a(x)) {
					ballot |= 1 << lane
				}
			}
		}
		first := probes
		if ballot != 0 {
			first = bits.TrailingZeros32(ballot) // __ffs(ballot) - 1
		}
		nextHi := hi
		if first < probes {
			nextHi = point(first)
		}
		if first > 0 {
			lo = point(first-1) + 1
		}
		hi = nextHi
		rounds++
		if lo > hi {
			panic("empty range")
		}
	}
	return lo, rounds
}

// sliceKeys reads s[i] as a search's key function does.
func sliceKeys(s []int64) func(int64) int64 { return func(i int64) int64 { return s[i] } }

func lessInt64(x, y int64) bool { return x < y }

// TestWarpMergePathSimulated checks that the warp-cooperative search finds
// merge_path's split (mergePath, the serial binary search that the
// partition kernel runs) on every diagonal of small merges and on random
// diagonals of large ones, with many ties (stability: a's first), skewed and
// empty inputs, and that it takes the rounds it should.
func TestWarpMergePathSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	sorted := func(n int, keys int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = r.Int64N(keys)
		}
		slices.Sort(s)
		return s
	}
	check := func(a, b []int64, diag int64) {
		t.Helper()
		want := int64(mergePath(a, b, int(diag), lessInt64))
		got, _ := warpMergePathSim(sliceKeys(a), int64(len(a)), sliceKeys(b), int64(len(b)), diag, lessInt64)
		if got != want {
			t.Fatalf("na %d, nb %d, diag %d: split %d, want %d", len(a), len(b), diag, got, want)
		}
	}
	sizes := []int{0, 1, 2, 31, 32, 33, 34, 65, 1089, 1090, 2500}
	for _, na := range sizes {
		for _, nb := range sizes {
			for _, keys := range []int64{1, 3, 1 << 40} {
				a, b := sorted(na, keys), sorted(nb, keys)
				for diag := int64(0); diag <= int64(na+nb); diag += 1 + int64(r.IntN(3)) {
					check(a, b, diag)
				}
				check(a, b, int64(na+nb))
			}
			// All of a before b, and all of b before a.
			lowA, highB := sorted(na, 100), sorted(nb, 100)
			for i := range highB {
				highB[i] += 100
			}
			for diag := int64(0); diag <= int64(na+nb); diag += 1 + int64(r.IntN(7)) {
				check(lowA, highB, diag)
				check(highB, lowA, diag)
			}
		}
	}
	for range 10 {
		na, nb := r.IntN(1<<20), r.IntN(1<<20)
		a, b := sorted(na, 1+r.Int64N(1<<20)), sorted(nb, 1+r.Int64N(1<<20))
		for range 200 {
			check(a, b, r.Int64N(int64(na+nb)+1))
		}
	}

	// Ranges of up to 2^40 keys, read through functions: a holds the even
	// numbers and b the odd ones (or b's keys tie with a's), so the split is
	// known. 2^27 keys take 6 rounds, as merge.cuh says.
	for _, c := range []struct {
		n      int64
		rounds int
	}{{1 << 10, 2}, {1 << 19, 4}, {1 << 27, 6}, {1 << 40, 8}} {
		even := func(i int64) int64 { return 2 * i }
		odd := func(i int64) int64 { return 2*i + 1 }
		for _, diag := range []int64{1, c.n / 3, c.n, 2*c.n - 1} {
			got, rounds := warpMergePathSim(even, c.n, odd, c.n, diag, lessInt64)
			if want := (diag + 1) / 2; got != want {
				t.Fatalf("n %d, diag %d: split %d, want %d", c.n, diag, got, want)
			}
			if rounds > c.rounds {
				t.Errorf("n %d, diag %d: %d rounds, want at most %d", c.n, diag, rounds, c.rounds)
			}
			// Ties: b's keys equal a's, so the merge is a0 b0 a1 b1 …
			// (a first at each tie): diag outputs take (diag+1)/2 from a.
			got, _ = warpMergePathSim(even, c.n, even, c.n, diag, lessInt64)
			if want := (diag + 1) / 2; got != want {
				t.Fatalf("ties, n %d, diag %d: split %d, want %d", c.n, diag, got, want)
			}
		}
	}
}

// TestMergeSortSelfSearchSimulated runs simMergeSort with the merge blocks
// searching their own splits (the null-partitions path of merge_sort.cuh's
// merge kernel) and checks it against the partition kernel's run.
func TestMergeSortSelfSearchSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, shape := range [][2]int{{4, 3}, {8, 1}, {2, 5}, {32, 3}} {
		tile := shape[0] * shape[1]
		for _, n := range []int{2, tile + 1, 2 * tile, 3*tile + 1, 5*tile - 1, 8 * tile, 9*tile + 2, 100*tile + 7, 1000} {
			for _, distinct := range []uint32{1, 3, 1 << 30} {
				keys := make([]uint32, n)
				for i := range keys {
					keys[i] = r.Uint32N(distinct)
				}
				wantK, wantV := simMergeSortWith(slices.Clone(keys), shape[0], shape[1], false)
				gotK, gotV := simMergeSortWith(slices.Clone(keys), shape[0], shape[1], true)
				if !slices.Equal(gotK, wantK) || !slices.Equal(gotV, wantV) {
					t.Fatalf("tile %v, n %d, distinct %d: the self-searched sort differs", shape, n, distinct)
				}
			}
		}
	}
}
