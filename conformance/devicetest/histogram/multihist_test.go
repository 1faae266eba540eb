package histogram

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// multiPixels: pixel counts 0, 1, around a 4-byte tile (4096 samples) and a
// 1-byte one (16384) of 4 channels, primes, 10^6+3, and 2^26 samples on a
// GPU.
func multiPixels(gpu bool, channels int) []int {
	p := []int{0, 1, 1023, 1024, 1025, 4095, 4096, 4097, 7919, 65537, 1_000_003}
	if gpu {
		p = append(p, 1<<26/channels)
	}
	return p
}

// multiOn runs a multi-channel histogram on d into poisoned histograms of
// bins[c]+1 counters and checks the last is untouched.
func multiOn(t *testing.T, d *runtime.Device, bins []int, run func(hists []*runtime.Slice[int32]) error) [][]int32 {
	t.Helper()
	hists := make([]*runtime.Slice[int32], len(bins))
	for c, b := range bins {
		hists[c] = devcheck.Upload(t, d, devcheck.Poison[int32](b+1))
	}
	require.NoError(t, run(hists))
	out := make([][]int32, len(bins))
	for c, h := range hists {
		got := devcheck.Download(t, h)
		require.Equal(t, devcheck.Poison[int32](1), got[bins[c]:], "channel %d: wrote past the bins", c)
		out[c] = got[:bins[c]]
	}
	return out
}

type multiEvenCase[T runtime.HistogramSample] struct {
	channels     int
	bins         []int
	lower, upper []T
}

func testMultiEven[T runtime.HistogramSample](t *testing.T, h *runtime.MultiHistogramEvenOp[T], gen func(*rand.Rand) T, cases []multiEvenCase[T]) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, c := range cases {
		for _, px := range multiPixels(gpu, c.channels) {
			xs := make([]T, px*c.channels)
			for i := range xs {
				xs[i] = gen(r)
			}
			if px > 3 {
				for k := range c.bins {
					xs[k], xs[c.channels+k], xs[2*c.channels+k] = c.lower[k], c.upper[k], c.upper[k]-1
				}
			}
			on := func(d *runtime.Device, xs []T) [][]int32 {
				return multiOn(t, d, c.bins, func(hists []*runtime.Slice[int32]) error {
					return h.Run(nil, devcheck.Upload(t, d, xs), c.channels, hists, c.bins, c.lower, c.upper)
				})
			}
			want := on(oracle, xs)
			if dut == oracle {
				continue
			}
			require.Equal(t, want, on(dut, xs), "pixels=%d channels=%d bins=%v", px, c.channels, c.bins)
			if px == 65537 {
				// From the second pixel on: samples not aligned to a vector load.
				in := devcheck.Upload(t, dut, xs)
				want := on(oracle, xs[c.channels:])
				got := multiOn(t, dut, c.bins, func(hists []*runtime.Slice[int32]) error {
					return h.Run(nil, in.Range(c.channels, len(xs)), c.channels, hists, c.bins, c.lower, c.upper)
				})
				require.Equal(t, want, got, "unaligned: pixels=%d channels=%d", px-1, c.channels)
			}
		}
	}
}

func TestMultiHistogramEven(t *testing.T) {
	u8 := func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }
	t.Run("uint8", func(t *testing.T) {
		testMultiEven(t, MultiEvenUint8, u8, []multiEvenCase[uint8]{
			{4, []int{256, 256, 256}, []uint8{0, 0, 0}, []uint8{255, 255, 255}}, // RGBA, alpha not counted
			{4, []int{256, 7, 1, 100}, []uint8{0, 3, 10, 0}, []uint8{255, 250, 20, 200}},
			{3, []int{16, 64, 255}, []uint8{0, 10, 0}, []uint8{255, 200, 255}},
			{2, []int{200}, []uint8{50}, []uint8{250}},
			{1, []int{256}, []uint8{0}, []uint8{255}},
		})
	})
	t.Run("uint16", func(t *testing.T) {
		testMultiEven(t, MultiEvenUint16, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }, []multiEvenCase[uint16]{
			{4, []int{1000, 97, 1000}, []uint16{0, 100, 7}, []uint16{65535, 30000, 60000}}, // 2097 bins: not privatized
			{2, []int{1024, 1024}, []uint16{0, 0}, []uint16{65535, 1024}},
			{3, []int{4096}, []uint16{0}, []uint16{4096}},
		})
	})
	t.Run("float32", func(t *testing.T) {
		testMultiEven(t, MultiEvenFloat32, func(r *rand.Rand) float32 {
			switch r.IntN(50) {
			case 0:
				return float32(math.NaN())
			case 1:
				return float32(math.Inf(1 - 2*r.IntN(2)))
			}
			return float32(r.NormFloat64() * 10)
		}, []multiEvenCase[float32]{
			{4, []int{256, 3, 97}, []float32{-10, 0, -3.3}, []float32{10, 1, 17.1}},
			{3, []int{256, 256, 256}, []float32{-10, -5, -20}, []float32{10, 5, 20}},
			{1, []int{5000}, []float32{-20}, []float32{20}},
		})
	})
}

func testMultiRange[T runtime.HistogramSample](t *testing.T, h *runtime.MultiHistogramRangeOp[T], gen func(*rand.Rand) T, channels int, levelSets [][]T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	bins := make([]int, len(levelSets))
	for c, lv := range levelSets {
		bins[c] = len(lv) - 1
	}
	for _, px := range multiPixels(gpu, channels) {
		xs := make([]T, px*channels)
		for i := range xs {
			xs[i] = gen(r)
		}
		on := func(d *runtime.Device) [][]int32 {
			levels := make([]*runtime.Slice[T], len(levelSets))
			for c, lv := range levelSets {
				levels[c] = devcheck.Upload(t, d, lv)
			}
			return multiOn(t, d, bins, func(hists []*runtime.Slice[int32]) error {
				return h.Run(nil, devcheck.Upload(t, d, xs), channels, hists, levels)
			})
		}
		want := on(oracle)
		if dut != oracle {
			require.Equal(t, want, on(dut), "pixels=%d channels=%d", px, channels)
		}
	}
}

func TestMultiHistogramRange(t *testing.T) {
	steps := func(n int, lo, step float64) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(lo + float64(i)*step)
		}
		return s
	}
	u16 := func(r *rand.Rand) uint16 { return uint16(r.Uint32() >> (r.Uint32() % 16)) }
	t.Run("uint16", func(t *testing.T) {
		testMultiRange(t, MultiRangeUint16, u16, 4, [][]uint16{{0, 10, 100, 1000, 65535}, {5, 6}, {0, 1 << 15}})
	})
	t.Run("float32", func(t *testing.T) {
		f := func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 5) }
		testMultiRange(t, MultiRangeFloat32, f, 3, [][]float32{steps(257, -10, 0.08), steps(257, -5, 0.04), steps(257, -20, 0.16)})
		// 1500 + 3001 levels: the levels stay in global memory, and 4498 bins
		// are not privatized.
		testMultiRange(t, MultiRangeFloat32, f, 2, [][]float32{steps(1500, -10, 0.014), steps(3001, -15, 0.01)})
	})
}
