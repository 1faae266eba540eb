package runtime

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func lessU32(a, b uint32) bool { return a < b }

// mergeSortSizes cover one chunk, chunk boundaries, uneven chunk counts and
// many merge rounds.
var mergeSortSizes = []int{0, 1, 2, 3, 100, minChunk - 1, minChunk, minChunk + 1, 3*minChunk + 7, 1_000_003}

// keyPatterns generate the key layouts every sort is checked with.
var keyPatterns = map[string]func(r *rand.Rand, i, n int) uint32{
	"random":         func(r *rand.Rand, _, _ int) uint32 { return r.Uint32() },
	"nearly-sorted":  func(r *rand.Rand, i, _ int) uint32 { return uint32(i) + uint32(r.IntN(4)) },
	"all-equal":      func(*rand.Rand, int, int) uint32 { return 7 },
	"reversed":       func(_ *rand.Rand, i, n int) uint32 { return uint32(n - i) },
	"few-distinct":   func(r *rand.Rand, _, _ int) uint32 { return uint32(r.IntN(5)) },
	"extremes":       func(r *rand.Rand, _, _ int) uint32 { return []uint32{0, math.MaxUint32}[r.IntN(2)] },
	"sorted-runs-of": func(_ *rand.Rand, i, _ int) uint32 { return uint32(i % 1000) },
}

func TestMergeSortKeysCPU(t *testing.T) {
	d := cpuDevice(t)
	sorter := MergeSortKeys(lessU32)
	r := rand.New(rand.NewPCG(1, 2))
	for name, gen := range keyPatterns {
		for _, n := range mergeSortSizes {
			if n > 100_000 && name != "random" && name != "few-distinct" {
				continue // the large size's merges are the same for every pattern
			}
			t.Run(name+"/"+strconv.Itoa(n), func(t *testing.T) {
				keys := make([]uint32, n)
				for i := range keys {
					keys[i] = gen(r, i, n)
				}
				want := slices.Clone(keys)
				slices.SortStableFunc(want, cmp.Compare)
				s, err := FromHost(d, keys)
				require.NoError(t, err)
				require.NoError(t, sorter.Run(nil, s))
				got, err := s.ToHost()
				require.NoError(t, err)
				require.Equal(t, want, got)
			})
		}
	}
}

func TestMergeSortPairsCPUStable(t *testing.T) {
	d := cpuDevice(t)
	sorter := MergeSortPairs[uint32, int64](lessU32)
	r := rand.New(rand.NewPCG(3, 4))
	for name, gen := range keyPatterns {
		for _, n := range mergeSortSizes {
			if n > 100_000 && name != "random" && name != "few-distinct" {
				continue
			}
			t.Run(name+"/"+strconv.Itoa(n), func(t *testing.T) {
				keys, vals := make([]uint32, n), make([]int64, n)
				for i := range keys {
					keys[i], vals[i] = gen(r, i, n), int64(i)
				}
				type kv struct {
					k uint32
					v int64
				}
				want := make([]kv, n)
				for i := range want {
					want[i] = kv{keys[i], vals[i]}
				}
				slices.SortStableFunc(want, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
				ks, err := FromHost(d, keys)
				require.NoError(t, err)
				vs, err := FromHost(d, vals)
				require.NoError(t, err)
				require.NoError(t, sorter.Run(nil, ks, vs))
				gotK, _ := ks.ToHost()
				gotV, _ := vs.ToHost()
				for i := range want {
					if gotK[i] != want[i].k || gotV[i] != want[i].v {
						t.Fatalf("pair %d: got (%d, %d), want (%d, %d)", i, gotK[i], gotV[i], want[i].k, want[i].v)
					}
				}
			})
		}
	}
}

// record is a struct key ordered by several fields.
type record struct {
	Group int32
	Score float64
	ID    uint16
}

func lessRecord(a, b record) bool {
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	if a.Score != b.Score {
		return a.Score > b.Score // descending
	}
	return false // ID is not a key: equal records keep their order
}

func TestMergeSortStructKeysCPU(t *testing.T) {
	d := cpuDevice(t)
	sorter := MergeSortKeys(lessRecord)
	r := rand.New(rand.NewPCG(5, 6))
	n := 200_003
	keys := make([]record, n)
	for i := range keys {
		keys[i] = record{Group: int32(r.IntN(10)), Score: float64(r.IntN(50)), ID: uint16(i)}
	}
	want := slices.Clone(keys)
	slices.SortStableFunc(want, func(a, b record) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), -cmp.Compare(a.Score, b.Score))
	})
	s, err := FromHost(d, keys)
	require.NoError(t, err)
	require.NoError(t, sorter.Run(nil, s))
	got, _ := s.ToHost()
	require.Equal(t, want, got)
}

// totalLess orders float64s totally: -NaN < -Inf < … < -0 < +0 < … < +Inf <
// +NaN by their bits, so NaN and ±0 have well-defined places.
func totalLess(a, b float64) bool {
	ta, tb := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	ta ^= int64(uint64(ta>>63) >> 1)
	tb ^= int64(uint64(tb>>63) >> 1)
	return ta < tb
}

func TestMergeSortFloatTotalOrderCPU(t *testing.T) {
	d := cpuDevice(t)
	sorter := MergeSortKeys(totalLess)
	r := rand.New(rand.NewPCG(7, 8))
	special := []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	n := 100_000
	keys := make([]float64, n)
	for i := range keys {
		if r.IntN(4) == 0 {
			keys[i] = special[r.IntN(len(special))]
		} else {
			keys[i] = r.NormFloat64()
		}
	}
	want := slices.Clone(keys)
	slices.SortStableFunc(want, func(a, b float64) int {
		switch {
		case totalLess(a, b):
			return -1
		case totalLess(b, a):
			return 1
		}
		return 0
	})
	s, err := FromHost(d, keys)
	require.NoError(t, err)
	require.NoError(t, sorter.Run(nil, s))
	got, _ := s.ToHost()
	require.Equal(t, len(want), len(got))
	for i := range want {
		require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "index %d", i)
	}
	require.True(t, math.Signbit(got[slices.IndexFunc(got, func(x float64) bool { return x == 0 })]), "-0 sorts before +0")
}

func lessPanics(a, b uint32) bool {
	if a == 12345 {
		panic("bad key")
	}
	return a < b
}

func TestMergeSortErrors(t *testing.T) {
	d := cpuDevice(t)
	keys := make([]uint32, 100_000)
	keys[77_777] = 12345
	s, err := FromHost(d, keys)
	require.NoError(t, err)
	err = MergeSortKeys(lessPanics).Run(nil, s)
	require.ErrorContains(t, err, "panicked")
	require.ErrorContains(t, err, "bad key")

	v, err := Alloc[int32](d, 3)
	require.NoError(t, err)
	err = MergeSortPairs[uint32, int32](lessU32).Run(nil, s, v)
	require.ErrorContains(t, err, "100000 keys and 3 values")

	var nilSort *MergeSortKeysOp[uint32]
	require.Error(t, nilSort.Run(nil, s))
	require.Error(t, MergeSortKeys[uint32](nil).Run(nil, s))
	_, err = MergeSortKeys(lessU32).TempStorageBytes(d, -1)
	require.ErrorContains(t, err, "negative")
	b, err := MergeSortPairs[uint32, int32](lessU32).TempStorageBytes(d, 1<<20)
	require.NoError(t, err)
	require.Zero(t, b, "the CPU backend takes no device scratch")
}

func TestMergeSortLayout(t *testing.T) {
	l := mergeSortLayout(10_000, 4352, 4, 8, true)
	require.Equal(t, 40_192, l.values)
	require.Equal(t, 40_192+80_128, l.partitions)
	require.Equal(t, l.partitions+4*8, l.total)
	require.Equal(t, l.values, mergeSortLayout(10_000, 4352, 4, 0, true).partitions)
	// Merge blocks that search their own splits take no room for them.
	searched := mergeSortLayout(10_000, 4352, 4, 8, false)
	require.Equal(t, l.partitions, searched.partitions)
	require.Equal(t, l.partitions, searched.total)
}
