package runtime

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// histSizes are the sample counts every histogram test runs at.
var histSizes = []int{0, 1, 4095, 4096, 4097, 7919, minChunk + 1, 1_000_003}

// evenOracle is the definition of HistogramEven's bins, sequentially: exact
// rational arithmetic for integers, T-rounded operations for floats.
func evenOracle[T HistogramSample](samples []T, bins int, lower, upper T, float bool) []int32 {
	h := make([]int32, bins)
	for _, x := range samples {
		if !(x >= lower && x < upper) {
			continue
		}
		var b int
		if float {
			scale := T(T(bins) / T(upper-lower))
			f := T(T(x-lower) * scale)
			if f < T(bins) {
				b = int(f)
			} else {
				b = bins - 1
			}
			b = min(b, bins-1)
		} else {
			num := new(big.Int).Mul(new(big.Int).Sub(bigOf(x), bigOf(lower)), big.NewInt(int64(bins)))
			b = int(num.Quo(num, new(big.Int).Sub(bigOf(upper), bigOf(lower))).Int64())
		}
		h[b]++
	}
	return h
}

func bigOf[T HistogramSample](x T) *big.Int {
	if T(0)-1 > 0 { // unsigned
		return new(big.Int).SetUint64(uint64(x))
	}
	return big.NewInt(int64(x))
}

func rangeOracle[T HistogramSample](samples []T, levels []T) []int32 {
	h := make([]int32, len(levels)-1)
	for _, x := range samples {
		for i := 0; i+1 < len(levels); i++ {
			if x >= levels[i] && x < levels[i+1] {
				h[i]++
				break
			}
		}
	}
	return h
}

func poisonHist(n int) []int32 {
	h := make([]int32, n)
	for i := range h {
		h[i] = -0x54545455
	}
	return h
}

func runEven[T HistogramSample](t *testing.T, d *Device, samples []T, bins int, lower, upper T) []int32 {
	t.Helper()
	in, err := FromHost(d, samples)
	require.NoError(t, err)
	hist, err := FromHost(d, poisonHist(bins+3))
	require.NoError(t, err)
	require.NoError(t, HistogramEven[T]().Run(nil, in, hist, bins, lower, upper))
	got, err := hist.ToHost()
	require.NoError(t, err)
	require.Equal(t, poisonHist(3), got[bins:], "wrote past the bins")
	return got[:bins]
}

func testEven[T HistogramSample](t *testing.T, gen func(*rand.Rand) T, float bool, cases [][3]T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 8))
	for _, c := range cases {
		lower, upper, bins := c[0], c[1], int(c[2])
		for _, n := range histSizes {
			xs := make([]T, n)
			for i := range xs {
				xs[i] = gen(r)
			}
			if n > 0 {
				xs[0] = lower
			}
			if n > 2 {
				xs[1], xs[2] = upper, upper-1
			}
			want := evenOracle(xs, bins, lower, upper, float)
			require.Equal(t, want, runEven(t, d, xs, bins, lower, upper), "n=%d bins=%d [%v, %v)", n, bins, lower, upper)
		}
	}
}

func TestHistogramEvenCPU(t *testing.T) {
	t.Run("uint8", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, false, [][3]uint8{{0, 255, 255}, {3, 250, 7}, {10, 20, 1}, {0, 200, 3}})
	})
	t.Run("int8", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) int8 { return int8(r.Uint32()) }, false, [][3]int8{{-128, 127, 100}, {-100, 100, 7}, {-5, 3, 1}})
	})
	t.Run("uint32", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) uint32 { return r.Uint32() }, false, [][3]uint32{{0, math.MaxUint32, 256}, {1000, 1 << 31, 97}, {7, 1 << 20, 1000}})
	})
	t.Run("int64", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, false, [][3]int64{{math.MinInt64, math.MaxInt64, 256}, {-1 << 40, 1 << 50, 1 << 20}, {-3, 1 << 62, 3}})
	})
	t.Run("uint64", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) uint64 { return r.Uint64() >> (r.Uint32() % 64) }, false, [][3]uint64{{0, math.MaxUint64, 256}, {5, 1 << 33, 1001}})
	})
	t.Run("float32", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 10) }, true, [][3]float32{{-10, 10, 256}, {0, 1, 1}, {-3.3, 17.1, 97}, {-1e30, 1e30, 1000}})
	})
	t.Run("float64", func(t *testing.T) {
		testEven(t, func(r *rand.Rand) float64 { return r.NormFloat64() * 10 }, true, [][3]float64{{-10, 10, 256}, {0.1, 0.7, 3}})
	})
}

func TestHistogramEvenSpecialFloats(t *testing.T) {
	d := cpuDevice(t)
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	xs := []float32{nan, inf, -inf, -1, 0, 0.5, 0.99999994, 1, 2, nan}
	got := runEven(t, d, xs, 4, 0, 1)
	require.Equal(t, []int32{1, 0, 1, 1}, got)
	require.Equal(t, evenOracle(xs, 4, 0, 1, true), got)
}

func TestHistogramEvenBadArguments(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []float32{1, 2, 3})
	require.NoError(t, err)
	hist, err := FromHost(d, poisonHist(4))
	require.NoError(t, err)
	h := HistogramEven[float32]()
	for _, c := range []struct {
		bins         int
		lower, upper float32
		msg          string
	}{
		{0, 0, 1, "0 bins"},
		{-1, 0, 1, "bins"},
		{5, 0, 1, "histogram has 4 elements"},
		{2, 1, 1, "not below"},
		{2, 2, 1, "not below"},
		{2, float32(math.NaN()), 1, "finite"},
		{2, 0, float32(math.Inf(1)), "finite"},
		{2, -3e38, 3e38, "does not fit"},
	} {
		err := h.Run(nil, in, hist, c.bins, c.lower, c.upper)
		require.ErrorContains(t, err, c.msg)
		require.ErrorContains(t, err, "HistogramEven[float32]")
	}
	got, err := hist.ToHost()
	require.NoError(t, err)
	require.Equal(t, poisonHist(4), got, "an error must leave the histogram alone")
	require.ErrorContains(t, h.Run(nil, nil, hist, 1, 0, 1), "nil slice")
	require.ErrorContains(t, (*HistogramEvenOp[float32])(nil).Run(nil, in, hist, 1, 0, 1), "not declared")
	require.ErrorContains(t, new(HistogramEvenOp[float32]).Run(nil, in, hist, 1, 0, 1), "not declared")
	require.ErrorContains(t, HistogramEven[int8]().Run(nil, &Slice[int8]{}, hist, 1, 0, 1), "uninitialized")
}

func testRange[T HistogramSample](t *testing.T, gen func(*rand.Rand) T, levelSets [][]T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	h := HistogramRange[T]()
	for _, lv := range levelSets {
		levels, err := FromHost(d, lv)
		require.NoError(t, err)
		bins := len(lv) - 1
		for _, n := range histSizes {
			xs := make([]T, n)
			for i := range xs {
				xs[i] = gen(r)
			}
			for i := 0; i < min(n, len(lv)); i++ {
				xs[i] = lv[i] // every level, the last one included, is a sample
			}
			in, err := FromHost(d, xs)
			require.NoError(t, err)
			hist, err := FromHost(d, poisonHist(bins+2))
			require.NoError(t, err)
			require.NoError(t, h.Run(nil, in, hist, levels))
			got, err := hist.ToHost()
			require.NoError(t, err)
			require.Equal(t, rangeOracle(xs, lv), got[:bins], "n=%d levels=%v", n, lv)
			require.Equal(t, poisonHist(2), got[bins:])
		}
	}
}

func TestHistogramRangeCPU(t *testing.T) {
	t.Run("uint32", func(t *testing.T) {
		testRange(t, func(r *rand.Rand) uint32 { return r.Uint32N(2000) }, [][]uint32{{0, 1}, {10, 20, 400, 401, 1500}, {0, 1000, 1999}})
	})
	t.Run("float32", func(t *testing.T) {
		lv := make([]float32, 2001)
		for i := range lv {
			lv[i] = float32(i)/100 - 10
		}
		testRange(t, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 5) }, [][]float32{{-1, 1}, {-3, -0.5, 0, 0.25, 7}, lv})
	})
	t.Run("int16", func(t *testing.T) {
		testRange(t, func(r *rand.Rand) int16 { return int16(r.Uint32()) }, [][]int16{{math.MinInt16, math.MaxInt16}, {-1000, -3, 0, 77, 30000}})
	})
}

func TestHistogramRangeBadArguments(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []float64{1, math.NaN(), 3})
	require.NoError(t, err)
	hist, err := FromHost(d, poisonHist(3))
	require.NoError(t, err)
	h := HistogramRange[float64]()
	for _, c := range []struct {
		levels []float64
		msg    string
	}{
		{nil, "0 levels"},
		{[]float64{1}, "1 levels"},
		{[]float64{1, 2, 3, 4, 5}, "histogram has 3 elements"},
		{[]float64{1, 1, 2}, "must increase"},
		{[]float64{1, 3, 2}, "must increase"},
		{[]float64{1, math.NaN(), 2}, "must increase"},
	} {
		lv, err := FromHost(d, c.levels)
		require.NoError(t, err)
		require.ErrorContains(t, h.Run(nil, in, hist, lv), c.msg)
	}
	got, err := hist.ToHost()
	require.NoError(t, err)
	require.Equal(t, poisonHist(3), got)
	require.ErrorContains(t, h.Run(nil, in, hist, nil), "nil slice")
}
