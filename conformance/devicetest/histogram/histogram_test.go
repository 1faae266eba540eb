package histogram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime"
)

// devices returns the device under test (GPU 0, or the CPU backend when
// there is none, so that CI runs this code too) and the CPU oracle.
func devices(t testing.TB) (dut, oracle *runtime.Device, gpu bool) {
	t.Helper()
	oracle, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { oracle.Close() })
	dut, err = runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU (%v): checking the CPU backend alone", err)
		return oracle, oracle, false
	}
	t.Cleanup(func() { require.NoError(t, dut.Close()) })
	return dut, oracle, true
}

// sizes: 0, 1, tile-1, tile, tile+1 for 4-byte samples (4096), odd primes,
// 10^6+3, and 2^26 on a GPU.
func sizes(gpu bool) []int {
	s := []int{0, 1, 4095, 4096, 4097, 8191, 65537, 1_000_003}
	if gpu {
		s = append(s, 1<<26)
	}
	return s
}

func evenOn[T runtime.HistogramSample](t *testing.T, d *runtime.Device, h *runtime.HistogramEvenOp[T], xs []T, bins int, lo, up T) []int32 {
	t.Helper()
	hist := devcheck.Upload(t, d, devcheck.Poison[int32](bins+1))
	require.NoError(t, h.Run(nil, devcheck.Upload(t, d, xs), hist, bins, lo, up))
	got := devcheck.Download(t, hist)
	require.Equal(t, devcheck.Poison[int32](1), got[bins:], "wrote past the bins")
	return got[:bins]
}

type evenCase[T runtime.HistogramSample] struct {
	bins   int
	lo, up T
}

func testEven[T runtime.HistogramSample](t *testing.T, h *runtime.HistogramEvenOp[T], gen func(*rand.Rand) T, cases []evenCase[T]) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes(gpu) {
		xs := make([]T, n)
		for i := range xs {
			xs[i] = gen(r)
		}
		for _, c := range cases {
			if n > 3 {
				xs[0], xs[1], xs[2] = c.lo, c.up, c.up-1
			}
			want := evenOn(t, oracle, h, xs, c.bins, c.lo, c.up)
			var total int64
			for _, v := range want {
				total += int64(v)
			}
			require.LessOrEqual(t, total, int64(n))
			if dut != oracle {
				require.Equal(t, want, evenOn(t, dut, h, xs, c.bins, c.lo, c.up), "n=%d bins=%d [%v, %v)", n, c.bins, c.lo, c.up)
			}
		}
	}
}

func TestHistogramEven(t *testing.T) {
	t.Run("uint8", func(t *testing.T) {
		testEven(t, EvenUint8, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, []evenCase[uint8]{{256, 0, 255}, {7, 3, 250}, {1, 10, 20}})
	})
	t.Run("int16", func(t *testing.T) {
		testEven(t, EvenInt16, func(r *rand.Rand) int16 { return int16(r.Uint32()) }, []evenCase[int16]{{256, math.MinInt16, math.MaxInt16}, {97, -1000, 30000}, {3000, -3000, 3000}})
	})
	t.Run("uint32", func(t *testing.T) {
		testEven(t, EvenUint32, func(r *rand.Rand) uint32 { return r.Uint32() }, []evenCase[uint32]{{256, 0, math.MaxUint32}, {1000, 7, 1 << 31}, {4099, 0, 1 << 30}})
	})
	t.Run("int64", func(t *testing.T) {
		testEven(t, EvenInt64, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, []evenCase[int64]{{256, math.MinInt64, math.MaxInt64}, {1 << 10, -1 << 61, 1 << 62}, {3, -5, 1 << 40}})
	})
	t.Run("float32", func(t *testing.T) {
		testEven(t, EvenFloat32, func(r *rand.Rand) float32 {
			switch r.IntN(50) {
			case 0:
				return float32(math.NaN())
			case 1:
				return float32(math.Inf(1 - 2*r.IntN(2)))
			}
			return float32(r.NormFloat64() * 10)
		}, []evenCase[float32]{{256, -10, 10}, {1, 0, 1}, {97, -3.3, 17.1}, {5000, -20, 20}})
	})
	t.Run("float64", func(t *testing.T) {
		testEven(t, EvenFloat64, func(r *rand.Rand) float64 { return r.NormFloat64() * 10 }, []evenCase[float64]{{256, -10, 10}, {3, 0.1, 0.7}})
	})
}

func testRange[T runtime.HistogramSample](t *testing.T, h *runtime.HistogramRangeOp[T], gen func(*rand.Rand) T, levelSets [][]T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes(gpu) {
		xs := make([]T, n)
		for i := range xs {
			xs[i] = gen(r)
		}
		for _, lv := range levelSets {
			copy(xs, lv)
			bins := len(lv) - 1
			run := func(d *runtime.Device) []int32 {
				hist := devcheck.Upload(t, d, devcheck.Poison[int32](bins+1))
				require.NoError(t, h.Run(nil, devcheck.Upload(t, d, xs), hist, devcheck.Upload(t, d, lv)))
				got := devcheck.Download(t, hist)
				require.Equal(t, devcheck.Poison[int32](1), got[bins:], "wrote past the bins")
				return got[:bins]
			}
			require.Equal(t, run(oracle), run(dut), "n=%d, %d levels", n, len(lv))
		}
	}
}

func TestHistogramRange(t *testing.T) {
	steps := func(n int, lo, step float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = lo + float64(i)*step
		}
		return s
	}
	conv := func(f []float64) []float32 {
		s := make([]float32, len(f))
		for i, v := range f {
			s[i] = float32(v)
		}
		return s
	}
	t.Run("uint32", func(t *testing.T) {
		testRange(t, RangeUint32, func(r *rand.Rand) uint32 { return r.Uint32N(5000) }, [][]uint32{{0, 1}, {10, 20, 400, 401, 1500}, {0, 1, 2, 3, 4999}})
	})
	t.Run("float32", func(t *testing.T) {
		testRange(t, RangeFloat32, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 5) }, [][]float32{{-1, 1}, conv(steps(257, -10, 0.08)), conv(steps(3001, -15, 0.01))})
	})
	t.Run("float64", func(t *testing.T) {
		testRange(t, RangeFloat64, func(r *rand.Rand) float64 { return r.NormFloat64() }, [][]float64{steps(1025, -3, 0.006), steps(1026, -3, 0.006)})
	})
}

func searchOn(t *testing.T, d *runtime.Device, op *runtime.SearchOp[uint32], data, values []uint32) []int64 {
	out := devcheck.Upload(t, d, devcheck.Poison[int64](len(values)+1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, data), devcheck.Upload(t, d, values), out))
	got := devcheck.Download(t, out)
	require.Equal(t, devcheck.Poison[int64](1), got[len(values):])
	return got[:len(values)]
}

func TestSearch(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, nd := range []int{0, 1, 1000, 1_000_003} {
		data := make([]uint32, nd)
		for i := range data {
			data[i] = r.Uint32N(1 << 22)
		}
		slices.Sort(data)
		for _, nv := range sizes(gpu) {
			values := make([]uint32, nv)
			for i := range values {
				values[i] = r.Uint32N(1<<22 + 1000)
				if nd > 0 && i%4 == 0 {
					values[i] = data[r.IntN(nd)]
				}
			}
			if nv > 2 {
				values[0], values[1] = 0, math.MaxUint32
			}
			for _, op := range []*runtime.SearchOp[uint32]{LowerUint32, UpperUint32} {
				want := searchOn(t, oracle, op, data, values)
				for i, v := range values[:min(nv, 1000)] {
					w, _ := slices.BinarySearch(data, v)
					if op == UpperUint32 {
						w, _ = slices.BinarySearch(data, v+1)
						if v == math.MaxUint32 {
							w = nd
						}
					}
					require.Equal(t, int64(w), want[i], "oracle: value %d", v)
				}
				if dut != oracle {
					require.Equal(t, want, searchOn(t, dut, op, data, values), "nd=%d nv=%d", nd, nv)
				}
			}
		}
	}
}

func mergeOn[T any](t *testing.T, d *runtime.Device, op *runtime.MergeOp[T], a, b []T) []T {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[T](len(a)+len(b)+1))
	require.NoError(t, op.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), out))
	got := devcheck.Download(t, out)
	require.Equal(t, devcheck.Poison[T](1), got[len(a)+len(b):])
	return got[:len(a)+len(b)]
}

// sortedBy returns n keys from key, stably sorted by less.
func sortedBy[T any](n int, key func() T, less func(a, b T) bool) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = key()
	}
	slices.SortStableFunc(s, func(a, b T) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	})
	return s
}

// stableMerge is the plain sequential merge of a and b, sorted by less: of
// equal keys, a's come first, each input's in its order.
func stableMerge[T any](a, b []T, less func(x, y T) bool) []T {
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// checkMerge merges a and b on both devices and compares each, bit for bit,
// with the sequential stable merge (so ties show the order of the inputs,
// and -0 differs from +0).
func checkMerge[T any](t *testing.T, dut, oracle *runtime.Device, op *runtime.MergeOp[T], less func(a, b T) bool, a, b []T) {
	t.Helper()
	want := stableMerge(a, b, less)
	require.True(t, slices.IsSortedFunc(want, func(x, y T) int {
		if less(x, y) {
			return -1
		}
		return 0
	}))
	what := fmt.Sprintf("merge of %d and %d keys", len(a), len(b))
	devcheck.RequireBitEqual(t, want, mergeOn(t, oracle, op, a, b), "CPU backend: "+what)
	if dut != oracle {
		devcheck.RequireBitEqual(t, want, mergeOn(t, dut, op, a, b), "device: "+what)
	}
}

func TestMerge(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	key := func() uint32 { return r.Uint32N(1 << 20) } // ByHigh: 16 distinct keys, many ties
	for _, c := range []struct {
		op   *runtime.MergeOp[uint32]
		less func(a, b uint32) bool
	}{{MergeUint32, LessUint32}, {MergeByHigh, ByHigh}} {
		second := map[int][]uint32{}
		for _, na := range sizes(gpu) {
			a := sortedBy(na, key, c.less)
			for _, nb := range []int{0, 1, 2047, 2049, 1_000_003} {
				if !gpu && na+nb > 1_100_000 {
					continue // the CPU alone: keep CI quick
				}
				if second[nb] == nil {
					second[nb] = sortedBy(nb, key, c.less)
				}
				checkMerge(t, dut, oracle, c.op, c.less, a, second[nb])
			}
		}
	}
}

// TestMergeTileEdges merges outputs of one item either side of one, two and
// seven tiles of the sm_90 policy, split between the inputs in every way
// that matters (all from one input, all from the other, and at random), for
// 4-byte keys with ties and for 8-byte float keys.
func TestMergeTileEdges(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	totals := func(size int64) []int {
		tile := algo.Merge.Policy(size, 90).Tile()
		var s []int
		for _, k := range []int{1, 2, 7} {
			s = append(s, k*tile-1, k*tile, k*tile+1)
		}
		return s
	}
	splits := func(total int) []int { return []int{0, total, 1 + r.IntN(total-1), total / 2} }
	u32 := func() uint32 { return r.Uint32N(1 << 20) }
	for _, total := range totals(4) {
		for _, na := range splits(total) {
			checkMerge(t, dut, oracle, MergeByHigh, ByHigh, sortedBy(na, u32, ByHigh), sortedBy(total-na, u32, ByHigh))
		}
	}
	f64 := func() float64 { return float64(r.IntN(1000)) / 8 * float64(1-2*r.IntN(2)) } // ties, signs, ±0
	for _, total := range totals(8) {
		for _, na := range splits(total) {
			checkMerge(t, dut, oracle, MergeFloat64, LessFloat64, sortedBy(na, f64, LessFloat64), sortedBy(total-na, f64, LessFloat64))
		}
	}
}

// mergeWave returns the largest number of tiles (four waves of resident
// blocks) a merge on dut runs without
// a partition kernel (its blocks search their own splits): the last one
// for which TempStorageBytes reports no split storage.
func mergeWave(t *testing.T, dut *runtime.Device, op *runtime.MergeOp[uint32], tile int) int {
	t.Helper()
	splits := func(tiles int) bool {
		b, err := op.TempStorageBytes(dut, tiles*tile)
		require.NoError(t, err)
		return b > 0
	}
	const most = 1 << 20
	require.False(t, splits(1), "one tile")
	require.True(t, splits(most), "%d tiles", most)
	return sort.Search(most, splits) - 1 // splits is false, then true
}

// TestMergeTempStorageBytes: a merge of at most four waves of resident tile
// blocks (runtime's mergeSearches) takes no scratch (its blocks search their own splits; no
// partition launch), more tiles one 8-byte split per tile boundary;
// nothing on the CPU backend.
func TestMergeTempStorageBytes(t *testing.T) {
	dut, oracle, gpu := devices(t)
	b, err := MergeUint32.TempStorageBytes(oracle, 1<<20)
	require.NoError(t, err)
	require.Zero(t, b, "CPU backend")
	if !gpu {
		return
	}
	info := dut.Info()
	p := algo.Merge.Policy(4, info.Major*10+info.Minor)
	tile := p.Tile()
	wave := mergeWave(t, dut, MergeUint32, tile) // four waves: the search bound
	require.Zero(t, wave%(4*info.Multiprocessors), "four waves are 4 × occupancy × SMs")
	if p.MinBlocks > 0 && p.MinBlocks*p.BlockThreads == 2048 {
		require.Equal(t, 4*p.MinBlocks*info.Multiprocessors, wave, "occupancy %d an SM", p.MinBlocks)
	}
	for _, c := range []struct{ n, want int }{{0, 0}, {1, 0}, {tile, 0}, {tile + 1, 0}, {wave * tile, 0},
		{wave*tile + 1, (wave + 2) * 8}, {10 * wave * tile, (10*wave + 1) * 8}} {
		b, err := MergeUint32.TempStorageBytes(dut, c.n)
		require.NoError(t, err)
		require.Equal(t, c.want, b, "n = %d (tile %d, wave %d)", c.n, tile, wave)
	}
}

// TestMergeWaveEdges merges outputs of one item either side of four waves
// of resident tile blocks (runtime's mergeSearches), where the blocks stop searching their own splits
// and a partition kernel runs first, and one tile past it, split between
// the inputs in every way that matters, with ties.
func TestMergeWaveEdges(t *testing.T) {
	dut, oracle, gpu := devices(t)
	if !gpu {
		t.Skip("no GPU: the bound is the GPU's")
	}
	r := devcheck.Rand(t)
	info := dut.Info()
	tile := algo.Merge.Policy(4, info.Major*10+info.Minor).Tile()
	wave := mergeWave(t, dut, MergeByHigh, tile)
	u32 := func() uint32 { return r.Uint32N(1 << 20) }
	for _, total := range []int{(wave-1)*tile + 1, wave*tile - 1, wave * tile, wave*tile + 1, (wave+1)*tile + 1} {
		for _, na := range []int{0, total, 1, total - 1, 1 + r.IntN(total-1), total / 2} {
			checkMerge(t, dut, oracle, MergeByHigh, ByHigh, sortedBy(na, u32, ByHigh), sortedBy(total-na, u32, ByHigh))
		}
	}
}
