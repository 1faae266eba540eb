package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// topkOracle returns the input positions of the k best keys, best first
// (a stable sort by ordered bits, reversed for the largest), written
// independently of the backend with oracleBits.
func topkOracle[K RadixKey](keys []K, k int, largest bool) []int {
	pos := make([]int, len(keys))
	for i := range pos {
		pos[i] = i
	}
	o := RadixOptions{Descending: largest}
	slices.SortStableFunc(pos, func(a, b int) int {
		x, y := oracleBits(keys[a], o), oracleBits(keys[b], o)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return pos[:k]
}

// topkKeys returns n random keys that are never all zeros: half random
// bits, a quarter from [1, 40) (many ties), a quarter the type's edge
// values (for floats ±0, ±Inf and NaNs of both signs).
func topkKeys[K RadixKey](r *rand.Rand, n int) []K {
	edges := specials[K]()
	xs := make([]K, n)
	for i := range xs {
		switch r.IntN(4) {
		case 0, 1:
			b := r.Uint64()
			p := unsafe.Pointer(&xs[i])
			switch unsafe.Sizeof(xs[i]) {
			case 1:
				*(*uint8)(p) = uint8(b)
			case 2:
				*(*uint16)(p) = uint16(b)
			case 4:
				*(*uint32)(p) = uint32(b)
			default:
				*(*uint64)(p) = b
			}
		case 2:
			xs[i] = K(1 + r.IntN(39))
		default:
			xs[i] = edges[r.IntN(len(edges))]
		}
	}
	var zero K
	switch any(zero).(type) {
	case float32:
		p := (*[]float32)(unsafe.Pointer(&xs))
		(*p)[r.IntN(n)] = float32(math.Copysign(0, -1))
		(*p)[r.IntN(n)] = math.Float32frombits(0xffc00001) // a NaN with the sign bit set
	case float64:
		p := (*[]float64)(unsafe.Pointer(&xs))
		(*p)[r.IntN(n)] = math.Copysign(0, -1)
		(*p)[r.IntN(n)] = math.Float64frombits(0xfff8000000000003)
	}
	return xs
}

// topkPoison is the value every output element holds before a Run: past k
// it must still hold it.
const topkPoison = 0xA5

func topkPoisoned[T any](t *testing.T, d *Device, n int) *Slice[T] {
	t.Helper()
	xs := make([]T, n)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), n*int(unsafe.Sizeof(*new(T))))
	for i := range b {
		b[i] = topkPoison
	}
	s, err := FromHost(d, xs)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

// requirePoisonPast requires the bytes of xs[k:] to be the poison.
func requirePoisonPast[T any](t *testing.T, xs []T, k int, what string) {
	t.Helper()
	tail := xs[k:]
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(tail))), len(tail)*int(unsafe.Sizeof(*new(T))))
	for i, x := range b {
		if x != topkPoison {
			t.Fatalf("%s: byte %d past k = %d was written", what, i, k)
		}
	}
}

// topkValue is a struct value carried by the pairs: the key's position and
// a tag derived from it.
type topkValue struct {
	Pos int32
	Tag uint16
}

// checkTopK checks keys and pairs of key type K on d, sorted and unsorted,
// smallest and largest, for every k of ks, against topkOracle.
func checkTopK[K RadixKey](t *testing.T, d *Device, r *rand.Rand, n int, ks []int) {
	keys := topkKeys[K](r, n)
	values := make([]topkValue, n)
	for i := range values {
		values[i] = topkValue{int32(i), uint16(i*7 + 3)}
	}
	in, err := FromHost(d, keys)
	require.NoError(t, err)
	defer in.Free()
	vin, err := FromHost(d, values)
	require.NoError(t, err)
	defer vin.Free()
	keysOp, pairsOp := TopKKeys[K](), TopKPairs[K, topkValue]()
	for _, largest := range []bool{false, true} {
		bitsOf := func(x K) uint64 { return oracleBits(x, RadixOptions{Descending: largest}) }
		for _, k := range ks {
			want := topkOracle(keys, k, largest)
			for _, sorted := range []bool{false, true} {
				what := fmt.Sprintf("%T n=%d k=%d largest=%v sorted=%v", keys[0], n, k, largest, sorted)
				o := TopKOptions{Largest: largest, Sorted: sorted}
				// Unsorted, the CPU backend keeps the input order.
				order := want
				if !sorted {
					order = slices.Clone(want)
					slices.Sort(order)
				}
				out := topkPoisoned[K](t, d, k+3)
				require.NoError(t, keysOp.Run(nil, in, out, k, o), what)
				got, _ := out.ToHost()
				requirePoisonPast(t, got, k, what+" keys")
				for j, p := range order {
					if bitsOf(got[j]) != bitsOf(keys[p]) {
						t.Fatalf("%s: key %d has bits %#x, want %#x (position %d)", what, j, bitsOf(got[j]), bitsOf(keys[p]), p)
					}
				}
				kout, vout := topkPoisoned[K](t, d, k+3), topkPoisoned[topkValue](t, d, k+3)
				require.NoError(t, pairsOp.Run(nil, in, kout, vin, vout, k, o), what)
				gk, _ := kout.ToHost()
				gv, _ := vout.ToHost()
				requirePoisonPast(t, gk, k, what+" pairs keys")
				requirePoisonPast(t, gv, k, what+" pairs values")
				for j, p := range order {
					if gv[j] != values[p] || bitsOf(gk[j]) != bitsOf(keys[p]) {
						t.Fatalf("%s: pair %d is (bits %#x, %+v), want (bits %#x, %+v)", what, j, bitsOf(gk[j]), gv[j], bitsOf(keys[p]), values[p])
					}
				}
			}
		}
	}
	after, _ := in.ToHost()
	for i := range keys {
		if oracleBits(after[i], RadixOptions{}) != oracleBits(keys[i], RadixOptions{}) {
			t.Fatalf("input %d changed", i)
		}
	}
}

// TestTopKCPUSortedAnyK checks the CPU backend for k on both sides of
// TopKSortedMax (the GPU's block-sort bound) up to n, for every key type.
func TestTopKCPUSortedAnyK(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(37, 4097))
	n := 2*TopKSortedMax + 1001
	ks := []int{1, 7, TopKSortedMax - 1, TopKSortedMax, TopKSortedMax + 1, n / 2, n - 1, n}
	t.Run("int8", func(t *testing.T) { checkTopK[int8](t, d, r, n, ks) })
	t.Run("int16", func(t *testing.T) { checkTopK[int16](t, d, r, n, ks) })
	t.Run("int32", func(t *testing.T) { checkTopK[int32](t, d, r, n, ks) })
	t.Run("int64", func(t *testing.T) { checkTopK[int64](t, d, r, n, ks) })
	t.Run("int", func(t *testing.T) { checkTopK[int](t, d, r, n, ks) })
	t.Run("uint8", func(t *testing.T) { checkTopK[uint8](t, d, r, n, ks) })
	t.Run("uint16", func(t *testing.T) { checkTopK[uint16](t, d, r, n, ks) })
	t.Run("uint32", func(t *testing.T) { checkTopK[uint32](t, d, r, n, ks) })
	t.Run("uint64", func(t *testing.T) { checkTopK[uint64](t, d, r, n, ks) })
	t.Run("uint", func(t *testing.T) { checkTopK[uint](t, d, r, n, ks) })
	t.Run("uintptr", func(t *testing.T) { checkTopK[uintptr](t, d, r, n, ks) })
	t.Run("float32", func(t *testing.T) { checkTopK[float32](t, d, r, n, ks) })
	t.Run("float64", func(t *testing.T) { checkTopK[float64](t, d, r, n, ks) })
	t.Run("chunks", func(t *testing.T) {
		// Past minChunk, so that the selection's and the sort's passes
		// split the input among workers.
		if testing.Short() {
			t.Skip("short")
		}
		n := 3*minChunk + 17
		checkTopK[float32](t, d, r, n, []int{TopKSortedMax + 1, minChunk + 5, n})
	})
}

// TestTopKCPUExact pins a sorted selection above TopKSortedMax: ties across
// the whole input go to the lower position, and NaN, ±0 and ±Inf order as
// the radix sort orders them.
func TestTopKCPUExact(t *testing.T) {
	d := cpuDevice(t)
	n := TopKSortedMax + 500
	keys := make([]float32, n)
	for i := range keys {
		keys[i] = float32(3 - i%7) // 3, 2, ..., -3, repeated
	}
	keys[10] = float32(math.NaN())
	keys[20] = float32(math.Inf(1))
	keys[30] = float32(math.Copysign(0, -1))
	in, err := FromHost(d, keys)
	require.NoError(t, err)
	defer in.Free()
	k := TopKSortedMax + 1
	out := topkPoisoned[float32](t, d, k)
	require.NoError(t, TopKKeys[float32]().Run(nil, in, out, k, TopKOptions{Largest: true, Sorted: true}))
	got, _ := out.ToHost()
	require.True(t, math.IsNaN(float64(got[0])), "NaN first")
	require.Equal(t, float32(math.Inf(1)), got[1])
	for j := 3; j < k; j++ {
		require.LessOrEqualf(t, got[j], got[j-1], "result %d", j)
	}
	// −0 orders before +0: with the largest first, the −0 comes after every
	// +0 that is selected.
	zeros := 0
	for j, x := range got {
		if x == 0 && math.Signbit(float64(x)) {
			for _, y := range got[j+1:] {
				require.False(t, y == 0 && !math.Signbit(float64(y)), "+0 after −0")
			}
		}
		if x == 0 {
			zeros++
		}
	}
	require.NotZero(t, zeros)
}

// TestTopKCPUBadArguments requires misuse to be answered with an error
// before anything is written, sorted or not, for any k.
func TestTopKCPUBadArguments(t *testing.T) {
	d := cpuDevice(t)
	n := TopKSortedMax + 10
	keys := topkKeys[int32](rand.New(rand.NewPCG(1, 1)), n)
	in, err := FromHost(d, keys)
	require.NoError(t, err)
	defer in.Free()
	op := TopKKeys[int32]()
	sorted := TopKOptions{Sorted: true}
	out := topkPoisoned[int32](t, d, n)
	for _, c := range []struct {
		k    int
		out  *Slice[int32]
		want string
	}{
		{-1, out, "negative k"},
		{n + 1, out, "more than the input"},
		{TopKSortedMax + 2, out.Range(0, TopKSortedMax+1), "fewer than k"},
		{TopKSortedMax + 1, in, "overlaps"},
	} {
		err := op.Run(nil, in, c.out, c.k, sorted)
		require.ErrorContains(t, err, c.want)
		require.ErrorContains(t, err, "TopKKeys")
	}
	got, _ := out.ToHost()
	requirePoisonPast(t, got, 0, "after rejected calls")

	pairs := TopKPairs[int32, topkValue]()
	vin := topkPoisoned[topkValue](t, d, n)
	vout := topkPoisoned[topkValue](t, d, n)
	require.ErrorContains(t, pairs.Run(nil, in, out, vin.Range(0, n-1), vout, 5, sorted), "values")
	require.ErrorContains(t, pairs.Run(nil, in, out, vin, vout.Range(0, TopKSortedMax), TopKSortedMax+1, sorted), "values output")
	require.ErrorContains(t, pairs.Run(nil, in, out, vin, vin, TopKSortedMax+1, sorted), "overlaps")
	got, _ = out.ToHost()
	requirePoisonPast(t, got, 0, "after rejected pair calls")
	gv, _ := vout.ToHost()
	requirePoisonPast(t, gv, 0, "values after rejected pair calls")

	for _, k := range []int{TopKSortedMax + 1, n} {
		b, err := op.TempStorageBytes(d, n, k, sorted)
		require.NoError(t, err)
		require.Zero(t, b, "the CPU backend takes no scratch")
	}
	_, err = op.TempStorageBytes(d, n, n+1, sorted)
	require.ErrorContains(t, err, "more than the input")
}

// TestTopKScratchLayout checks the GPU's scratch layout for sorted
// selections past the block sort: every region within the bytes, aligned
// and disjoint, and the block-sorted layout unchanged.
func TestTopKScratchLayout(t *testing.T) {
	const tile, sortMax = 4096, 4096
	for _, n := range []int{4097, 10_000, 1 << 20, 1 << 22, 1<<32 - 1} {
		for _, k := range []int{1, 1024, 4096, 4097, n / 2, n} {
			for _, sorted := range []bool{false, true} {
				for _, filter := range []bool{false, true} {
					l := topkScratch(n, k, 4, tile, sortMax, sorted, filter)
					base := topkBufsAt + 32*topkCap(n, tile)
					rank, planned := topkFilterPlan(n, k, 4, topkFilterStride)
					what := fmt.Sprintf("n=%d k=%d sorted=%v filter=%v", n, k, sorted, filter)
					if filter && planned && n >= topkFilterMin {
						require.Equal(t, rank, l.rank, what)
						require.Positive(t, l.rank, what)
					} else {
						require.Zero(t, l.rank, what)
						require.Zero(t, l.sampleAt, what)
					}
					// The regions after the candidate buffers, in layout order.
					var regions [][2]int
					if sorted {
						require.Equal(t, base, l.posAt, what)
						regions = append(regions, [2]int{l.posAt, 8 * k})
					}
					if l.rank > 0 {
						regions = append(regions, [2]int{l.sampleAt, topkSampleBytes})
					}
					if sorted && k > sortMax {
						require.True(t, l.big, what)
						regions = append(regions, [2]int{l.bitsAt, 8 * k}, [2]int{l.bitsAlt, 8 * k}, [2]int{l.posAlt, 8 * k},
							[2]int{l.radixAt, 8 * (radixStateWords + radixLookbackWords(k, tile))})
					} else {
						require.False(t, l.big, what)
					}
					end := base
					for i, r := range regions {
						require.GreaterOrEqualf(t, r[0], end, "%s: region %d overlaps the one before", what, i)
						if r[0] != base {
							require.Zerof(t, r[0]%radixAlign, "%s: region %d aligned", what, i)
						}
						end = r[0] + r[1]
					}
					require.Equal(t, end, l.bytes, what)
				}
			}
		}
	}
	// Within a tile the block sort holds every k, and no prefilter runs.
	require.Equal(t, topkLayout{bytes: 8 * 100}, topkScratch(4096, 100, 4, tile, sortMax, true, true))
	require.Equal(t, topkLayout{}, topkScratch(4096, 100, 4, tile, sortMax, false, true))
}

// TestTopKFilterPlan pins when the prefilter runs and its sample rank.
func TestTopKFilterPlan(t *testing.T) {
	for _, c := range []struct {
		n, k, ksize int
		rank        int
		ok          bool
	}{
		{1 << 22, 1, 4, 17, true},      // e = 1/256: ceil(e + 4 sqrt e) = 1
		{1 << 22, 1024, 4, 28, true},   // e = 4: 4 + 8 + 16
		{1 << 22, 1025, 4, 0, false},   // k > n / 4096
		{1 << 28, 65536, 8, 336, true}, // e = 256: 256 + 64 + 16
		{1 << 28, 16, 2, 0, false},     // 2-byte keys: the bound takes 22 key bits
		{1 << 22, 0, 4, 0, false},      // nothing to select
		{4096 * 300, 300, 4, 22, true}, // s = 4800, e = 75/64: ceil(1.17 + 4.33) + 16
		{8192, 2, 4, 17, true},         // s = 32: 1 + 16, within s
		{256, 1, 4, 0, false},          // k > n / 4096 = 0
	} {
		rank, ok := topkFilterPlan(c.n, c.k, c.ksize, topkFilterStride)
		require.Equal(t, c.ok, ok, "n=%d k=%d", c.n, c.k)
		require.Equal(t, c.rank, rank, "n=%d k=%d", c.n, c.k)
	}
}

// TestTopKSortPlan pins how the results past the block sort are radix
// sorted: one sort of composites up to 64 bits, else by position and then
// by key bits.
func TestTopKSortPlan(t *testing.T) {
	for _, c := range []struct {
		n, ksize, shift int
		steps           []topkSortStep
	}{
		{5000, 1, 13, []topkSortStep{{begin: 0, end: 21}}},
		{1 << 20, 2, 20, []topkSortStep{{begin: 0, end: 36}}},
		{1<<32 - 1, 4, 32, []topkSortStep{{begin: 0, end: 64}}},
		{5000, 8, 0, []topkSortStep{{byPos: true, begin: 0, end: 13}, {begin: 0, end: 64}}},
		{1, 8, 0, []topkSortStep{{begin: 0, end: 64}}},
	} {
		shift, steps := topkSortPlan(c.n, c.ksize)
		require.Equal(t, c.shift, shift, "n=%d ksize=%d", c.n, c.ksize)
		require.Equal(t, c.steps, steps, "n=%d ksize=%d", c.n, c.ksize)
	}
}
