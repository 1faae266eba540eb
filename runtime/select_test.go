package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// compactionSizes are the lengths every compaction is checked at: empty,
// one, around a 4-byte GPU tile (2048), odd primes, around a CPU chunk, and
// many chunks.
var compactionSizes = []int{0, 1, 2047, 2048, 2049, 3, 17, 65537, minChunk - 1, minChunk + 1, 1_000_003}

func odd(x uint32) bool       { return x&1 == 1 }
func third(x uint32) bool     { return x%3 == 0 }
func eqU32(a, b uint32) bool  { return a == b }
func eqF64(a, b float64) bool { return a == b }
func never(uint32) bool       { return false }
func boom(x uint32) bool      { panic("boom " + strconv.Itoa(int(x))) }
func eqBoom(a, b uint32) bool { panic("boom") }

const poisonU32 = 0xABABABAB

// runs returns n random values in runs of 1 to 12 equal values.
func runs(r *rand.Rand, n int) []uint32 {
	xs := make([]uint32, n)
	for i := 0; i < n; {
		v, k := r.Uint32()|1<<31, 1+r.IntN(12)
		for ; k > 0 && i < n; k-- {
			xs[i] = v
			i++
		}
	}
	return xs
}

func randoms(r *rand.Rand, n int) []uint32 {
	xs := make([]uint32, n)
	for i := range xs {
		xs[i] = r.Uint32()
	}
	return xs
}

func filled[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// Sequential oracles.

func selectLoop[T any](pred func(T) bool, in []T) (sel, rej []T) {
	for _, v := range in {
		if pred(v) {
			sel = append(sel, v)
		} else {
			rej = append(rej, v)
		}
	}
	return sel, rej
}

func uniqueLoop[K, V any](eq func(K, K) bool, keys []K, values []V) ([]K, []V, []int64) {
	var ks []K
	var vs []V
	var lens []int64
	for i := range keys {
		if i == 0 || !eq(keys[i-1], keys[i]) {
			ks = append(ks, keys[i])
			if values != nil {
				vs = append(vs, values[i])
			}
			lens = append(lens, 0)
		}
		lens[len(lens)-1]++
	}
	return ks, vs, lens
}

// requireSame requires equal elements, an empty slice being nil.
func requireSame[T any](t *testing.T, want, got []T, msg ...any) {
	t.Helper()
	if len(want) == 0 && len(got) == 0 {
		return
	}
	require.Equal(t, want, got, msg...)
}

// upload copies xs to d and returns the Slice.
func upload[T any](t *testing.T, d *Device, xs []T) *Slice[T] {
	t.Helper()
	s, err := FromHost(d, xs)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

func download[T any](t *testing.T, s *Slice[T]) []T {
	t.Helper()
	xs, err := s.ToHost()
	require.NoError(t, err)
	return xs
}

func TestSelectPartitionCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	for _, n := range compactionSizes {
		inputs := map[string][]uint32{"random": randoms(r, n), "all": filled(n, uint32(7)), "none": filled(n, uint32(8))}
		for name, xs := range inputs {
			t.Run(name+"/n="+strconv.Itoa(n), func(t *testing.T) {
				in := upload(t, d, xs)
				sel, rej := selectLoop(odd, xs)

				out, count := upload(t, d, filled(n, uint32(poisonU32))), upload(t, d, []int64{-1})
				require.NoError(t, Select(odd).Run(nil, in, out, count))
				got := download(t, out)
				require.Equal(t, []int64{int64(len(sel))}, download(t, count))
				requireSame(t, sel, got[:len(sel)], "selected")
				require.Equal(t, filled(n-len(sel), uint32(poisonU32)), got[len(sel):], "past the selection")

				out, count = upload(t, d, filled(n, uint32(poisonU32))), upload(t, d, []int64{-1})
				require.NoError(t, Partition(odd).Run(nil, in, out, count))
				slices.Reverse(rej)
				got = download(t, out)
				require.Equal(t, []int64{int64(len(sel))}, download(t, count))
				requireSame(t, append(slices.Clip(sel), rej...), got)
			})
		}
	}
}

func TestThreeWayPartitionCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 6))
	for _, n := range compactionSizes {
		t.Run("n="+strconv.Itoa(n), func(t *testing.T) {
			xs := randoms(r, n)
			var a, b, c []uint32
			for _, v := range xs {
				switch {
				case odd(v):
					a = append(a, v)
				case third(v):
					b = append(b, v)
				default:
					c = append(c, v)
				}
			}
			in := upload(t, d, xs)
			outs := [3]*Slice[uint32]{}
			for i := range outs {
				outs[i] = upload(t, d, filled(n, uint32(poisonU32)))
			}
			counts := upload(t, d, []int64{-1, -1, -1})
			require.NoError(t, ThreeWayPartition(odd, third).Run(nil, in, outs[0], outs[1], outs[2], counts))
			require.Equal(t, []int64{int64(len(a)), int64(len(b)), -1}, download(t, counts))
			for i, want := range [][]uint32{a, b, c} {
				got := download(t, outs[i])
				requireSame(t, want, got[:len(want)], "part %d", i)
				require.Equal(t, filled(n-len(want), uint32(poisonU32)), got[len(want):], "past part %d", i)
			}
		})
	}
}

func TestUniqueCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	for _, n := range compactionSizes {
		inputs := map[string][]uint32{"runs": runs(r, n), "distinct": randoms(r, n), "one run": filled(n, uint32(3))}
		for name, xs := range inputs {
			t.Run(name+"/n="+strconv.Itoa(n), func(t *testing.T) {
				vals := make([]float32, n)
				for i := range vals {
					vals[i] = float32(r.NormFloat64())
				}
				wantK, wantV, wantL := uniqueLoop(eqU32, xs, vals)
				k := len(wantK)
				in := upload(t, d, xs)

				out, count := upload(t, d, filled(n, uint32(poisonU32))), upload(t, d, []int64{-1})
				require.NoError(t, Unique(eqU32).Run(nil, in, out, count))
				require.Equal(t, []int64{int64(k)}, download(t, count))
				requireSame(t, wantK, download(t, out)[:k])

				vin := upload(t, d, vals)
				kout, vout, count := upload(t, d, filled(n, uint32(poisonU32))), upload(t, d, filled(n, float32(-7))), upload(t, d, []int64{-1})
				require.NoError(t, UniqueByKey[uint32, float32](eqU32).Run(nil, in, vin, kout, vout, count))
				require.Equal(t, []int64{int64(k)}, download(t, count))
				requireSame(t, wantK, download(t, kout)[:k])
				requireSame(t, wantV, download(t, vout)[:k])
				require.Equal(t, filled(n-k, float32(-7)), download(t, vout)[k:])

				uout, lens, count := upload(t, d, filled(n, uint32(poisonU32))), upload(t, d, filled(n, int64(-9))), upload(t, d, []int64{-1})
				require.NoError(t, RunLengthEncode(eqU32).Run(nil, in, uout, lens, count))
				require.Equal(t, []int64{int64(k)}, download(t, count))
				requireSame(t, wantK, download(t, uout)[:k])
				requireSame(t, wantL, download(t, lens)[:k])

				var wantOff, wantLen []int64
				at := int64(0)
				for _, l := range wantL {
					if l > 1 {
						wantOff, wantLen = append(wantOff, at), append(wantLen, l)
					}
					at += l
				}
				offs, lens, count := upload(t, d, filled(n, int64(-9))), upload(t, d, filled(n, int64(-9))), upload(t, d, []int64{-1})
				require.NoError(t, RunLengthEncode(eqU32).RunNonTrivial(nil, in, offs, lens, count))
				m := len(wantOff)
				require.Equal(t, []int64{int64(m)}, download(t, count))
				requireSame(t, wantOff, download(t, offs)[:m])
				requireSame(t, wantLen, download(t, lens)[:m])
				require.Equal(t, filled(n-m, int64(-9)), download(t, lens)[m:])
			})
		}
	}
}

// NaN is unequal to everything under ==, itself included: each NaN is a run
// of its own.
func TestUniqueNaNKeys(t *testing.T) {
	d := cpuDevice(t)
	nan := math.NaN()
	xs := []float64{nan, nan, 1, 1, nan, 2, 2, 2}
	in := upload(t, d, xs)
	out, lens, count := upload(t, d, filled(8, -1.0)), upload(t, d, filled(8, int64(-1))), upload(t, d, []int64{-1})
	require.NoError(t, RunLengthEncode(eqF64).Run(nil, in, out, lens, count))
	require.Equal(t, []int64{5}, download(t, count))
	require.Equal(t, []int64{1, 1, 2, 1, 3}, download(t, lens)[:5])
	got := download(t, out)
	require.True(t, math.IsNaN(got[0]) && math.IsNaN(got[1]) && got[2] == 1 && math.IsNaN(got[3]) && got[4] == 2, "%v", got)
}

func TestCompactionBadArguments(t *testing.T) {
	d := cpuDevice(t)
	in := upload(t, d, []uint32{1, 2, 3, 4})
	short := upload(t, d, []uint32{0, 0, 0})
	out := upload(t, d, []uint32{0, 0, 0, 0})
	out2 := upload(t, d, []uint32{0, 0, 0, 0})
	out3 := upload(t, d, []uint32{0, 0, 0, 0})
	count := upload(t, d, []int64{-1, -1})
	empty := upload(t, d, []int64{})
	lens := upload(t, d, []int64{0, 0, 0, 0})
	vals := upload(t, d, []float32{1, 2, 3})

	require.ErrorContains(t, Select(odd).Run(nil, in, short, count), "fewer than the 4")
	require.ErrorContains(t, Select(odd).Run(nil, in, out, nil), "nil slice")
	require.ErrorContains(t, Select(odd).Run(nil, in, out, empty), "count")
	require.ErrorContains(t, Select(odd).Run(nil, in, in, count), "overlap")
	require.ErrorContains(t, Select(odd).Run(nil, in, in.Range(2, 4), count), "overlap")
	require.ErrorContains(t, Select(odd).Run(nil, in, in.Range(1, 9), count), "out of bounds")
	require.ErrorContains(t, (*SelectOp[uint32])(nil).Run(nil, in, out, count), "nil operator")
	require.ErrorContains(t, Select[uint32](nil).Run(nil, in, out, count), "nil operator")
	require.ErrorContains(t, Partition(odd).Run(nil, in, short, count), "fewer")
	require.ErrorContains(t, ThreeWayPartition(odd, third).Run(nil, in, out, out2, short, count), "fewer")
	require.ErrorContains(t, ThreeWayPartition(odd, third).Run(nil, in, out, out2, out3, count.Range(0, 1)), "fewer than the 2")
	require.ErrorContains(t, ThreeWayPartition(odd, third).Run(nil, in, out, out, out3, count), "overlap")
	require.ErrorContains(t, Unique(eqU32).Run(nil, in, short, count), "fewer")
	require.ErrorContains(t, UniqueByKey[uint32, float32](eqU32).Run(nil, in, vals, out, upload(t, d, filled(4, float32(0))), count), "4 keys but 3 values")
	require.ErrorContains(t, RunLengthEncode(eqU32).Run(nil, in, out, lens.Range(0, 3), count), "fewer")
	require.ErrorContains(t, RunLengthEncode(eqU32).RunNonTrivial(nil, in, lens.Range(0, 1), lens.Range(2, 4), count), "fewer than the 2")
	require.ErrorContains(t, RunLengthEncode(eqU32).RunNonTrivial(nil, in, lens, lens, count), "overlap")
	// Nothing was written by the failed calls.
	require.Equal(t, []int64{-1, -1}, download(t, count))

	// A panicking operator is an error, not a crash.
	require.ErrorContains(t, Select(boom).Run(nil, in, out, count), "panicked")
	require.ErrorContains(t, Partition(boom).Run(nil, in, out, count), "panicked")
	require.ErrorContains(t, ThreeWayPartition(never, boom).Run(nil, in, out, out2, out3, count), "panicked")
	require.ErrorContains(t, ThreeWayPartition(boom, never).Run(nil, in, out, out2, out3, count), "panicked")
	require.ErrorContains(t, Unique(eqBoom).Run(nil, in, out, count), "panicked")
	require.ErrorContains(t, RunLengthEncode(eqBoom).Run(nil, in, out, lens, count), "panicked")

	n, err := Select(odd).TempStorageBytes(d, 1<<20)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = Unique(eqU32).TempStorageBytes(d, -1)
	require.ErrorContains(t, err, "negative")
}

// TestCompactionStateBytes checks the epoch tile states the host sizes for
// select.cuh's carries: none for at most one tile; one count (long long)
// and a pair packed into one word (below 2^32 items: packs_counts) take two
// 8-byte words a tile, a pair of 64-bit values four.
func TestCompactionStateBytes(t *testing.T) {
	const tile = 6528 // 384 × 17
	for _, c := range []struct {
		tiles int
		pair  bool
		bytes int
	}{
		{0, false, 0},
		{1, false, 0},
		{1, true, 0},
		{2, false, (128 + 2*2) * 8},
		{2, true, (128 + 2*2) * 8},
		{1000, false, (128 + 2*1000) * 8},
		{(1<<32 - 1) / tile, true, (128 + 2*((1<<32-1)/tile)) * 8}, // the last item count that packs
		{(1<<32-1)/tile + 1, true, (128 + 4*((1<<32-1)/tile+1)) * 8},
		{(1<<32-1)/tile + 1, false, (128 + 2*((1<<32-1)/tile+1)) * 8}, // one count never needs more
	} {
		require.Equal(t, c.bytes, compactionStateBytes(c.tiles, tile, c.pair), "%d tiles, pair %v", c.tiles, c.pair)
	}
	require.Equal(t, 8, compactionCarry(1<<32/256-1, 256, true))
	require.Equal(t, 16, compactionCarry(1<<32/256, 256, true), "2^32 items exactly: packs_counts is false")
}
