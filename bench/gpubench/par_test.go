package main

import (
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"testing"
)

// withProcs runs f with GOMAXPROCS set to p.
func withProcs(t *testing.T, p int, f func()) {
	t.Helper()
	old := goruntime.GOMAXPROCS(p)
	defer goruntime.GOMAXPROCS(old)
	f()
}

func TestParallelItemsDeterministic(t *testing.T) {
	for _, n := range []int{0, 1, parBlock - 1, parBlock, 3*parBlock + 17} {
		gen := func(procs int) ([]uint64, uint64) {
			var s []uint64
			var after uint64
			withProcs(t, procs, func() {
				r := rand.New(rand.NewPCG(7, 11))
				s = randomItems[uint64](r, n)
				after = r.Uint64()
			})
			return s, after
		}
		a, afterA := gen(1)
		b, afterB := gen(8)
		if !slices.Equal(a, b) {
			t.Fatalf("n=%d: GOMAXPROCS 1 and 8 give different items", n)
		}
		if afterA != afterB {
			t.Fatalf("n=%d: the case's stream is left in different states", n)
		}
		// Whatever n is, the case's stream gives two values to the chunks.
		r := rand.New(rand.NewPCG(7, 11))
		r.Uint64()
		r.Uint64()
		if want := r.Uint64(); afterA != want {
			t.Fatalf("n=%d: parallelItems drew more than two values from the case's stream", n)
		}
		if c := randomItems[uint64](rand.New(rand.NewPCG(8, 11)), n); n > 0 && slices.Equal(a, c) {
			t.Fatalf("n=%d: another seed gives the same items", n)
		}
	}
}

// TestParallelItemsChunksDiffer checks that no chunk repeats another one,
// whole or shifted: a window of four items of each chunk appears nowhere in
// the others.
func TestParallelItemsChunksDiffer(t *testing.T) {
	const chunks = 6
	s := randomItems[uint64](rand.New(rand.NewPCG(1, 2)), chunks*parBlock)
	at := make(map[uint64]int, len(s)) // item -> chunk
	for i, x := range s {
		if c, ok := at[x]; ok {
			t.Fatalf("item %d (chunk %d) repeats an item of chunk %d", i, i/parBlock, c)
		}
		at[x] = i / parBlock
	}
	for c := range chunks {
		a := s[c*parBlock : (c+1)*parBlock]
		for d := c + 1; d < chunks; d++ {
			if slices.Equal(a, s[d*parBlock:(d+1)*parBlock]) {
				t.Fatalf("chunks %d and %d are equal", c, d)
			}
		}
	}
	// The float and 4-byte kinds go through the same streams.
	f := randomItems[float32](rand.New(rand.NewPCG(1, 2)), 2*parBlock)
	if slices.Equal(f[:parBlock], f[parBlock:]) {
		t.Fatal("float32 chunks 0 and 1 are equal")
	}
	for _, x := range f {
		if !(x >= 0 && x < 1) {
			t.Fatalf("float32 item %v outside [0, 1)", x)
		}
	}
}

func TestParallelSort(t *testing.T) {
	withProcs(t, 8, func() {
		for _, n := range []int{0, 1, 5, 2*parBlock - 1, 2 * parBlock, 9*parBlock + 3, 1 << 20} {
			r := rand.New(rand.NewPCG(uint64(n), 3))
			s := parallelItems(r, n, func(r *rand.Rand) uint32 { return r.Uint32() % 1000 }) // many equal keys
			want := slices.Clone(s)
			slices.Sort(want)
			parallelSort(s)
			if !slices.Equal(s, want) {
				t.Fatalf("n=%d: parallelSort differs from slices.Sort", n)
			}
		}
	})
}

func TestParallelChecks(t *testing.T) {
	withProcs(t, 4, func() {
		const n = 5*parBlock + 9
		in := parallelItems(rand.New(rand.NewPCG(5, 6)), n, func(r *rand.Rand) uint32 { return r.Uint32() % 5000 })
		idx := iota32(n)
		keys, vals := slices.Clone(in), slices.Clone(idx)
		// A stable sort of (in[i], i): sort indices by key, then index.
		slices.SortFunc(vals, func(a, b uint32) int {
			if in[a] != in[b] {
				return int(in[a]) - int(in[b])
			}
			return int(a) - int(b)
		})
		for i, v := range vals {
			keys[i] = in[v]
		}
		if err := checkStable(in, keys, vals); err != nil {
			t.Fatal(err)
		}
		if err := checkSorted(in, keys); err != nil {
			t.Fatal(err)
		}
		if err := checkSortedKeys(in, keys); err != nil {
			t.Fatal(err)
		}
		if idx[n-1] != n-1 || firstUnsorted(idx) != -1 {
			t.Fatal("iota32 is not 0, 1, …")
		}
		// Break each property late in the arrays.
		k := n - 3*parBlock/2
		dupVals := slices.Clone(vals)
		for j := k + 1; j < n; j++ { // a value repeated: the later pair is not fresh
			if keys[j] == keys[k] {
				dupVals[j] = dupVals[k]
				break
			}
		}
		if checkStable(in, keys, dupVals) == nil {
			t.Error("checkStable accepted a repeated value")
		}
		swapped := slices.Clone(vals)
		for j := k; j+1 < n; j++ { // equal keys out of index order
			if keys[j] == keys[j+1] {
				swapped[j], swapped[j+1] = swapped[j+1], swapped[j]
				break
			}
		}
		if checkStable(in, keys, swapped) == nil {
			t.Error("checkStable accepted an unstable order")
		}
		other := slices.Clone(keys)
		other[k] = other[k+1] // still sorted, no longer a permutation
		if other[k] != keys[k] && checkSortedKeys(in, other) == nil {
			t.Error("checkSortedKeys accepted keys that are not a permutation of the input")
		}
		if other[k] != keys[k] && checkSorted(in, other) == nil {
			t.Error("checkSorted accepted keys that are not a permutation of the input")
		}
		unsorted := slices.Clone(keys)
		unsorted[k], unsorted[n-1] = unsorted[n-1], unsorted[k]
		if unsorted[k] != keys[k] && firstUnsorted(unsorted) != k+1 {
			t.Errorf("firstUnsorted = %d, want %d", firstUnsorted(unsorted), k+1)
		}
		if i := firstDifference(other, keys); other[k] != keys[k] && i != k {
			t.Errorf("firstDifference = %d, want %d", i, k)
		}
	})
}

// TestRandomItemsIsParallelItems checks that randomItems' typed loops give
// what parallelItems gives with gen.
func TestRandomItemsIsParallelItems(t *testing.T) {
	const n = 2*parBlock + 5
	same := func(name string, eq bool) {
		if !eq {
			t.Errorf("%s: randomItems differs from parallelItems with gen", name)
		}
	}
	r := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
	same("uint32", slices.Equal(randomItems[uint32](r(), n), parallelItems(r(), n, gen[uint32])))
	same("uint64", slices.Equal(randomItems[uint64](r(), n), parallelItems(r(), n, gen[uint64])))
	same("float32", slices.Equal(randomItems[float32](r(), n), parallelItems(r(), n, gen[float32])))
	same("float64", slices.Equal(randomItems[float64](r(), n), parallelItems(r(), n, gen[float64])))
}

// TestCheckPrefixBlocks checks the blocked checkPrefix on true prefix sums
// (inclusive and exclusive, with and without keys, runs across block
// boundaries) and on a wrong item late in the array.
func TestCheckPrefixBlocks(t *testing.T) {
	withProcs(t, 4, func() {
		const n = 4*parBlock + 123
		r := rand.New(rand.NewPCG(9, 9))
		keys := make([]uint32, n)
		for i := 1; i < n; i++ {
			keys[i] = keys[i-1]
			if r.IntN(parBlock/2) == 0 { // long runs: most blocks have no restart
				keys[i]++
			}
		}
		ints := randomItems[uint32](r, n)
		floats := randomItems[float32](r, n)
		for _, keyed := range []bool{false, true} {
			var k []uint32
			if keyed {
				k = keys
			}
			for _, inclusive := range []bool{false, true} {
				gi, gf := make([]uint32, n), make([]float32, n)
				var acc uint32
				var exact float64
				for i := range n {
					if k != nil && (i == 0 || k[i-1] != k[i]) {
						acc, exact = 0, 0
					}
					if inclusive {
						acc, exact = acc+ints[i], exact+float64(floats[i])
					}
					gi[i], gf[i] = acc, float32(exact)
					if !inclusive {
						acc, exact = acc+ints[i], exact+float64(floats[i])
					}
				}
				if err := checkPrefix(ints, gi, inclusive, k); err != nil {
					t.Fatalf("keys %v inclusive %v: %v", keyed, inclusive, err)
				}
				if err := checkPrefix(floats, gf, inclusive, k); err != nil {
					t.Fatalf("keys %v inclusive %v: %v", keyed, inclusive, err)
				}
				gi[n-parBlock/3]++
				if checkPrefix(ints, gi, inclusive, k) == nil {
					t.Fatalf("keys %v inclusive %v: a wrong item passed", keyed, inclusive)
				}
				gf[n-parBlock/3] = gf[n-parBlock/3]*1.01 + 1 // beyond closeTo's 1e-5 of the magnitude
				if checkPrefix(floats, gf, inclusive, k) == nil {
					t.Fatalf("keys %v inclusive %v: a wrong float passed", keyed, inclusive)
				}
			}
		}
	})
}
