package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// segsortLayouts returns segment layouts over n keys: contiguous mixed
// lengths (0, 1, the class limits ± 1, longer), the same with gaps and in
// shuffled order, one segment holding 90% of the keys, one segment, all of
// length 1, and segments that are all empty.
func segsortLayouts(r *rand.Rand, n int) map[string][2][]int64 {
	lengths := []int{0, 1, 2, 3, 31, 32, 33, 127, 128, 129, 500, 1023, 1024, 1025, 3000, 4096, 4097, 9000}
	mixed := func(gaps bool) (b, e []int64) {
		for pos := 0; pos < n; {
			l := min(lengths[r.IntN(len(lengths))], n-pos)
			b, e = append(b, int64(pos)), append(e, int64(pos+l))
			pos += l
			if gaps {
				pos += r.IntN(3)
			}
		}
		return b, e
	}
	out := map[string][2][]int64{}
	b, e := mixed(false)
	out["mixed"] = [2][]int64{b, e}
	b, e = mixed(true)
	perm := r.Perm(len(b))
	sb, se := make([]int64, len(b)), make([]int64, len(b))
	for i, p := range perm {
		sb[i], se[i] = b[p], e[p]
	}
	out["gaps-shuffled"] = [2][]int64{sb, se}
	huge := n * 9 / 10
	b, e = []int64{0}, []int64{int64(huge)}
	for pos := huge; pos < n; {
		l := min(r.IntN(300), n-pos)
		b, e = append(b, int64(pos)), append(e, int64(pos+l))
		pos += l + 1
	}
	out["one-huge"] = [2][]int64{b, e}
	out["single"] = [2][]int64{{0}, {int64(n)}}
	ones := make([]int64, n+1)
	for i := range ones {
		ones[i] = int64(i)
	}
	out["ones"] = [2][]int64{ones[:n], ones[1:]}
	out["empty"] = [2][]int64{{0, int64(n / 2), int64(n)}, {0, int64(n / 2), int64(n)}}
	return out
}

// segsortOracle sorts each segment of keys with slices.SortStableFunc
// (oracleSort): the expected keys and, for each output position, the input
// position its pair came from (-1 outside every segment).
func segsortOracle[K RadixKey](keys []K, begin, end []int64, desc bool) ([]K, []int) {
	want := slices.Clone(keys)
	from := make([]int, len(keys))
	for i := range from {
		from[i] = -1
	}
	for s := range begin {
		b, e := begin[s], end[s]
		ks, idx := oracleSort(keys[b:e], RadixOptions{Descending: desc})
		copy(want[b:e], ks)
		for i, j := range idx {
			from[int(b)+i] = int(b) + j
		}
	}
	return want, from
}

// checkSegsort sorts the key patterns of one type in every layout, keys and
// pairs whose values are the input positions, ascending and descending.
func checkSegsort[K RadixKey](t *testing.T, d *Device, gen func(*rand.Rand) K, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 11))
	keysOp := SegmentedSortKeys[K]()
	pairsOp := SegmentedSortPairs[K, int32]()
	for pattern, keys := range patterns(r, n, gen, specials[K]()) {
		for layout, seg := range segsortLayouts(r, n) {
			for _, desc := range []bool{false, true} {
				what := fmt.Sprintf("%T %s %s n=%d desc=%v", keys[:0], pattern, layout, n, desc)
				want, from := segsortOracle(keys, seg[0], seg[1], desc)
				o := SegmentedSortOptions{Descending: desc}
				in := must(FromHost(d, keys))
				begin, end := must(FromHost(d, seg[0])), must(FromHost(d, seg[1]))
				// Poisoned outputs: positions outside every segment keep it.
				poison := make([]K, n)
				for i := range poison {
					poison[i] = K(0x5a)
				}
				out := must(FromHost(d, poison))
				require.NoError(t, keysOp.Run(nil, in, out, begin, end, o), what)
				got := must(out.ToHost())
				for i := range got {
					w := want[i]
					if from[i] < 0 {
						w = K(0x5a)
					}
					if !bitsEqual(got[i:i+1], []K{w}) {
						t.Fatalf("%s: key %d is %v, want %v", what, i, got[i], w)
					}
				}
				require.True(t, bitsEqual(keys, must(in.ToHost())), "%s: the input changed", what)

				idx := make([]int32, n)
				for i := range idx {
					idx[i] = int32(i)
				}
				vals := must(FromHost(d, idx))
				vout := must(FromHost(d, make([]int32, n)))
				kout := must(FromHost(d, poison))
				require.NoError(t, pairsOp.Run(nil, in, kout, vals, vout, begin, end, o), what)
				gotV := must(vout.ToHost())
				gotK := must(kout.ToHost())
				for i := range gotV {
					if from[i] >= 0 && int(gotV[i]) != from[i] {
						t.Fatalf("%s: value %d is %d, want %d (not stable)", what, i, gotV[i], from[i])
					}
				}
				require.True(t, bitsEqual(got, gotK), "%s: pairs' keys differ from keys'", what)
			}
		}
	}
}

func TestSegmentedSortCPUTypes(t *testing.T) {
	d := cpuDevice(t)
	for _, n := range []int{0, 1, 2, 129, 5000} {
		checkSegsort(t, d, func(r *rand.Rand) int8 { return int8(r.Uint32()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) int16 { return int16(r.Uint32()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) int32 { return int32(r.Uint32()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) int { return int(r.Uint64()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) uint32 { return r.Uint32() }, n)
		checkSegsort(t, d, func(r *rand.Rand) uint64 { return r.Uint64() }, n)
		checkSegsort(t, d, func(r *rand.Rand) uint { return uint(r.Uint64()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) uintptr { return uintptr(r.Uint64()) }, n)
		checkSegsort(t, d, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 100) }, n)
		checkSegsort(t, d, func(r *rand.Rand) float64 { return r.NormFloat64() * 100 }, n)
	}
}

// TestSegmentedSortCPULarge takes the parallel path of long segments (one
// holds 90% of the keys) and the per-segment path side by side.
func TestSegmentedSortCPULarge(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	d := cpuDevice(t)
	checkSegsort(t, d, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 100) }, 100_003)
}

// TestSegmentedSortCPUMillionSegments sorts 10^6 segments of 0 to 9 keys.
func TestSegmentedSortCPUMillionSegments(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(5, 6))
	const segs = 1_000_000
	begin, end := make([]int64, segs), make([]int64, segs)
	pos := int64(0)
	for s := range begin {
		begin[s] = pos
		pos += int64(r.IntN(10))
		end[s] = pos
	}
	keys := make([]uint16, pos)
	for i := range keys {
		keys[i] = uint16(r.IntN(50))
	}
	want, _ := segsortOracle(keys, begin, end, true)
	in, out := must(FromHost(d, keys)), must(Alloc[uint16](d, len(keys)))
	require.NoError(t, SegmentedSortKeys[uint16]().Run(nil, in, out, must(FromHost(d, begin)), must(FromHost(d, end)),
		SegmentedSortOptions{Descending: true}))
	require.Equal(t, want, must(out.ToHost()))
}

// TestSegmentedSortCPUStructValues moves a user struct.
func TestSegmentedSortCPUStructValues(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(7, 8))
	const n = 10_000
	keys := make([]float64, n)
	vals := make([]payload, n)
	for i := range keys {
		keys[i] = float64(r.IntN(20))
		vals[i] = payload{A: int16(i), B: [3]float64{float64(i), 1, 2}, C: i%2 == 0}
	}
	begin, end := []int64{0, 100, 7000}, []int64{100, 7000, n}
	_, from := segsortOracle(keys, begin, end, false)
	vout := must(Alloc[payload](d, n))
	require.NoError(t, SegmentedSortPairs[float64, payload]().Run(nil, must(FromHost(d, keys)), must(Alloc[float64](d, n)),
		must(FromHost(d, vals)), vout, must(FromHost(d, begin)), must(FromHost(d, end)), SegmentedSortOptions{}))
	got := must(vout.ToHost())
	for i, j := range from {
		require.Equal(t, vals[j], got[i], "value %d", i)
	}
}

func TestSegmentedSortErrors(t *testing.T) {
	d := cpuDevice(t)
	op := SegmentedSortKeys[uint8]()
	a, b, c := must(Alloc[uint8](d, 10)), must(Alloc[uint8](d, 9)), must(Alloc[uint8](d, 10))
	seg := func(xs ...int64) *Slice[int64] { return must(FromHost(d, xs)) }
	o := SegmentedSortOptions{}
	require.ErrorContains(t, op.Run(nil, a, b, seg(0), seg(9), o), "keys input has 10 elements, output 9")
	require.ErrorContains(t, op.Run(nil, a.Range(0, 5), a.Range(3, 8), seg(0), seg(5), o), "overlap")
	require.ErrorContains(t, op.Run(nil, a, a, seg(0), seg(5), o), "overlap")
	require.ErrorContains(t, op.Run(nil, a, c, seg(0, 1), seg(5), o), "2 begin offsets but 1 end offsets")
	require.ErrorContains(t, op.Run(nil, a, c, seg(0), seg(11), o), "segment 0 is [0, 11), not within [0, 10)")
	require.ErrorContains(t, op.Run(nil, a, c, seg(3), seg(2), o), "segment 0 is [3, 2)")
	require.ErrorContains(t, op.Run(nil, a, c, seg(-1), seg(2), o), "segment 0 is [-1, 2)")
	require.ErrorContains(t, op.Run(nil, a, c, seg(5, 0), seg(8, 6), o), "segments 1 [0, 6) and 0 [5, 8) overlap")
	require.NoError(t, op.Run(nil, a, c, seg(5, 0, 3), seg(8, 5, 3), o)) // out of order, with an empty one inside
	require.ErrorContains(t, op.Run(nil, a, c, nil, seg(2), o), "nil slice")
	p := SegmentedSortPairs[uint8, int32]()
	v, w := must(Alloc[int32](d, 9)), must(Alloc[int32](d, 9))
	require.ErrorContains(t, p.Run(nil, a, c, v, w, seg(0), seg(1), o), "10 keys and 9 values")
	n, err := op.TempStorageBytes(d, 1000, 10)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = op.TempStorageBytes(d, -1, 1)
	require.ErrorContains(t, err, "negative")
	c.Free()
	require.ErrorIs(t, op.Run(nil, a, c, seg(0), seg(1), o), ErrFreed)
}

// TestSegsortScratchBound: TempStorageBytes' bound covers what a Run takes
// for layouts with the most large segments, tiles and portions (arithmetic
// only: portions of 2^29 items are out of reach of a test's memory).
func TestSegsortScratchBound(t *testing.T) {
	for _, p := range []struct{ threads, tile int }{{256, 4096}, {384, 5760}, {384, 6912}, {384, 7680}, {512, 9728}, {256, 256}} {
		portion := radixPortion(p.tile)
		for _, n := range []int{p.tile + 1, 100_003, 1 << 24, 3*portion + 5, 5 << 30} {
			for _, l := range []int{p.tile + 1, 2*p.tile + 1, 4*p.threads + 1, portion, portion + 1, 2*portion + 1, n} {
				if l > n || l <= max(p.tile, 4*p.threads) {
					continue
				}
				large := n / l
				tiles := large * ((l + p.tile - 1) / p.tile)
				portions := large * ((l + portion - 1) / portion)
				for _, segs := range []int{large, large + 10, n} {
					c := newSegsortClasses(n, segs, p.threads, p.tile)
					for _, sz := range [][2]int{{4, 0}, {8, 4}, {2, 208}} {
						what := fmt.Sprintf("threads %d tile %d n %d segments of %d, %d segments, sizes %v", p.threads, p.tile, n, l, segs, sz)
						if segsortFallback(n, segs, sz[0]+sz[1]) {
							alt, _ := c.fallbackScratch(n, sz[0], sz[1])
							require.LessOrEqual(t, alt, c.maxBytes(n, segs, sz[0], sz[1]), what)
							continue
						}
						used, _, _, _ := c.largeScratch(n, large, portions, tiles, sz[0], sz[0], sz[1])
						require.LessOrEqual(t, 8*c.listWords+used, c.maxBytes(n, segs, sz[0], sz[1]), what)
					}
				}
			}
		}
	}
}

// TestSegsortFallbackDispatch: few segments over few keys take the
// fallback's one launch, at the limits and either side of them (segments,
// items, bytes of keys and values, mean segment length); the benchmark's
// layouts among them (1024-item segments; the mixed layout's 14 segments at
// 2^16 and 57 at 2^17).
func TestSegsortFallbackDispatch(t *testing.T) {
	for _, c := range []struct {
		n, segs, itemBytes int
		want               bool
	}{
		{1 << 10, 1, 4, true}, {1 << 16, 64, 4, true}, {1 << 16, 64, 8, true}, {1, 1, 12, true},
		{1 << 17, 1, 4, true}, {1 << 17, 1, 8, false}, {1 << 16, 1, 8, true}, {1<<16 + 1, 1, 8, false},
		{1 << 15, 1, 12, true}, {1 << 16, 1, 12, false}, {segsortFallbackBytes / 12, 1, 12, true},
		{segsortFallbackBytes/12 + 1, 1, 12, false},
		// Over 512 KiB, short segments on average still take it.
		{1 << 16, 64, 12, true}, {1 << 17, 128, 12, true}, {1 << 16, 32, 12, true}, {1 << 16, 31, 12, false},
		{1 << 16, 14, 12, false}, {1 << 17, 57, 8, false}, {1 << 17, 64, 8, true},
		{segsortFallbackItems, segsortFallbackSegments, 4, true}, {segsortFallbackItems, segsortFallbackSegments, 1, true},
		{segsortFallbackItems + 1, 1, 1, false}, {segsortFallbackItems + 1, 1, 4, false}, {1 << 20, 1024, 4, false},
		{1000, segsortFallbackSegments + 1, 4, false}, {1 << 16, 1 << 16, 4, false},
	} {
		require.Equal(t, c.want, segsortFallback(c.n, c.segs, c.itemBytes), "n %d segments %d, %d bytes an item", c.n, c.segs, c.itemBytes)
	}
}

// TestSegsortFallbackScratch: the fallback's alternate buffers hold n keys
// and, aligned after them, n values, only when a segment can be longer than
// the big class and the keys take more than one pass; TempStorageBytes'
// bound is exactly them on the fallback's calls and still covers the
// classify path's lists and copies on the others.
func TestSegsortFallbackScratch(t *testing.T) {
	for _, p := range []struct{ threads, tile int }{{256, 4096}, {384, 7680}, {512, 9728}, {256, 256}} {
		c := newSegsortClasses(1<<17, 100, p.threads, p.tile)
		for _, sz := range [][2]int{{4, 0}, {8, 4}, {2, 208}, {1, 4}} {
			for _, n := range []int{1, c.bigMax, c.bigMax + 1, 100_003, segsortFallbackItems} {
				what := fmt.Sprintf("threads %d tile %d n %d sizes %v", p.threads, p.tile, n, sz)
				// 100 segments of at most 2^17 keys have a mean of at most
				// 1311, so every call here takes the fallback.
				require.True(t, segsortFallback(n, 100, sz[0]+sz[1]), what)
				c := newSegsortClasses(n, 100, p.threads, p.tile)
				bytes, valuesAt := c.fallbackScratch(n, sz[0], sz[1])
				require.Equal(t, bytes, c.maxBytes(n, 100, sz[0], sz[1]), what)
				if n <= c.bigMax || sz[0] == 1 {
					require.Zero(t, bytes, what+": no segment needs more than one pass in shared memory")
					continue
				}
				require.GreaterOrEqual(t, bytes, n*(sz[0]+sz[1]), what)
				if sz[1] > 0 {
					require.GreaterOrEqual(t, valuesAt, n*sz[0], what+": values after the keys")
					require.Zero(t, valuesAt%radixAlign, what+": values aligned")
					require.Equal(t, valuesAt+n*sz[1], bytes, what)
				}
			}
		}
		// Past the fallback's limits the bound is the classify path's again.
		n := segsortFallbackItems + 1
		c = newSegsortClasses(n, 1, p.threads, p.tile)
		require.Greater(t, c.maxBytes(n, 1, 4, 4), 8*c.listWords+n*8, "threads %d: the lists and a copy of keys and values", p.threads)
	}
}

// TestGrowScratchDuringCapture checks that the scratch does not grow while a
// capture records a call: growing synchronizes the stream, which would end
// the capture. The stream has no device, so growing would fault.
func TestGrowScratchDuringCapture(t *testing.T) {
	s := &Stream{}
	s.setCapturing(true)
	require.NoError(t, s.growScratch(1<<20))
	require.Zero(t, s.scratch.ptr, "no scratch was made")
	s.setCapturing(false)
	require.True(t, func() (faulted bool) {
		defer func() { faulted = recover() != nil }()
		_ = s.growScratch(1 << 20)
		return false
	}(), "outside a capture growScratch goes on to grow the scratch (here: without a device)")
}
