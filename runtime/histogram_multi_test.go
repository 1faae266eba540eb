package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// multiPixels are the pixel counts the multi-channel tests run at: none,
// one, a 4096-sample tile's pixels (4 channels) +-1, primes, 10^6+3.
var multiPixels = []int{0, 1, 1023, 1024, 1025, 7919, 65537, 1_000_003}

// multiOracle is the per-channel histograms by a plain loop over pixels.
func multiOracle[T HistogramSample](samples []T, channels int, bin func(c int, x T) int, bins []int) [][]int32 {
	hs := make([][]int32, len(bins))
	for c := range hs {
		hs[c] = make([]int32, bins[c])
	}
	for p := 0; p+channels <= len(samples); p += channels {
		for c := range bins {
			if b := bin(c, samples[p+c]); b >= 0 {
				hs[c][b]++
			}
		}
	}
	return hs
}

func multiHists(t *testing.T, d *Device, bins []int) []*Slice[int32] {
	hists := make([]*Slice[int32], len(bins))
	for c, b := range bins {
		h, err := FromHost(d, poisonHist(b+3))
		require.NoError(t, err)
		hists[c] = h
	}
	return hists
}

func multiResults(t *testing.T, hists []*Slice[int32], bins []int) [][]int32 {
	out := make([][]int32, len(hists))
	for c, h := range hists {
		got, err := h.ToHost()
		require.NoError(t, err)
		require.Equal(t, poisonHist(3), got[bins[c]:], "channel %d: wrote past the bins", c)
		out[c] = got[:bins[c]]
	}
	return out
}

func testMultiEven[T HistogramSample](t *testing.T, gen func(*rand.Rand) T, float bool, channels int, bins []int, lower, upper []T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	h := MultiHistogramEven[T]()
	for _, px := range multiPixels {
		xs := make([]T, px*channels)
		for i := range xs {
			xs[i] = gen(r)
		}
		if px > 2 {
			for c := range bins {
				xs[c], xs[channels+c], xs[2*channels+c] = lower[c], upper[c], upper[c]-1
			}
		}
		want := multiOracle(xs, channels, func(c int, x T) int {
			o := evenOracle([]T{x}, bins[c], lower[c], upper[c], float)
			for b, v := range o {
				if v > 0 {
					return b
				}
			}
			return -1
		}, bins)
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		hists := multiHists(t, d, bins)
		require.NoError(t, h.Run(nil, in, channels, hists, bins, lower, upper))
		require.Equal(t, want, multiResults(t, hists, bins), "pixels=%d channels=%d", px, channels)
	}
}

func TestMultiHistogramEvenCPU(t *testing.T) {
	u8 := func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }
	t.Run("uint8 RGBA 3 active", func(t *testing.T) {
		testMultiEven(t, u8, false, 4, []int{256, 256, 256}, []uint8{0, 0, 0}, []uint8{255, 255, 255})
	})
	t.Run("uint8 4 of 4 mixed", func(t *testing.T) {
		testMultiEven(t, u8, false, 4, []int{256, 7, 1, 100}, []uint8{0, 3, 10, 0}, []uint8{255, 250, 20, 200})
	})
	t.Run("uint8 3 channels 2 active", func(t *testing.T) {
		testMultiEven(t, u8, false, 3, []int{16, 64}, []uint8{0, 10}, []uint8{255, 200})
	})
	t.Run("uint16 2 of 2", func(t *testing.T) {
		testMultiEven(t, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }, false, 2, []int{1000, 97}, []uint16{0, 100}, []uint16{65535, 30000})
	})
	t.Run("float32 1 channel", func(t *testing.T) {
		testMultiEven(t, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 10) }, true, 1, []int{256}, []float32{-10}, []float32{10})
	})
	t.Run("float32 4 channels 3 active", func(t *testing.T) {
		testMultiEven(t, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 10) }, true, 4, []int{256, 3, 97}, []float32{-10, 0, -3.3}, []float32{10, 1, 17.1})
	})
}

func TestMultiHistogramRangeCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 10))
	h := MultiHistogramRange[uint16]()
	lv := [][]uint16{{0, 10, 100, 1000, 65535}, {5, 6}, {0, 1 << 15}}
	bins := []int{4, 1, 1}
	for _, px := range multiPixels {
		xs := make([]uint16, px*4)
		for i := range xs {
			xs[i] = uint16(r.Uint32() >> (r.Uint32() % 16))
		}
		want := multiOracle(xs, 4, func(c int, x uint16) int { return rangeBin(lv[c], x) }, bins)
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		levels := make([]*Slice[uint16], len(lv))
		for c := range lv {
			levels[c], err = FromHost(d, lv[c])
			require.NoError(t, err)
		}
		hists := multiHists(t, d, bins)
		require.NoError(t, h.Run(nil, in, 4, hists, levels))
		require.Equal(t, want, multiResults(t, hists, bins), "pixels=%d", px)
	}
}

func TestMultiHistogramBadArguments(t *testing.T) {
	d := cpuDevice(t)
	h := MultiHistogramEven[uint8]()
	in, err := FromHost(d, make([]uint8, 12))
	require.NoError(t, err)
	hs := multiHists(t, d, []int{4, 4, 4, 4, 4})
	run := func(channels int, hists []*Slice[int32], bins []int, lo, up []uint8) error {
		return h.Run(nil, in, channels, hists, bins, lo, up)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{run(0, hs[:1], []int{4}, []uint8{0}, []uint8{4}), "0 channels: want 1 to 4"},
		{run(5, hs[:1], []int{4}, []uint8{0}, []uint8{4}), "5 channels: want 1 to 4"},
		{run(3, hs[:4], []int{4, 4, 4, 4}, make([]uint8, 4), []uint8{4, 4, 4, 4}), "4 histograms (active channels) of 3 channels"},
		{run(3, nil, nil, nil, nil), "0 histograms"},
		{run(3, hs[:2], []int{4}, []uint8{0, 0}, []uint8{4, 4}), "2 histograms, 1 bin counts"},
		{run(5, hs[:1], []int{4}, []uint8{0}, []uint8{4}), "MultiHistogramEven[uint8]"},
		{h.Run(nil, in, 5, hs[:1], []int{4}, []uint8{0}, []uint8{4}), "MultiHistogramEven"},
		{run(3, hs[:1], []int{4}, []uint8{0}, []uint8{4}), ""},
		{h.Run(nil, in.Range(0, 10), 4, hs[:3], []int{4, 4, 4}, make([]uint8, 3), []uint8{4, 4, 4}), "10 samples are not a whole number of 4-channel pixels"},
		{run(4, hs[:2], []int{4, 8}, []uint8{0, 0}, []uint8{4, 4}), "channel 1: histogram has 7 elements, 8 bins"},
		{run(4, hs[:2], []int{4, 0}, []uint8{0, 0}, []uint8{4, 4}), "channel 1: 0 bins"},
		{run(4, hs[:2], []int{4, 4}, []uint8{0, 9}, []uint8{4, 4}), "channel 1: lower level 9 is not below upper level 4"},
		{run(4, []*Slice[int32]{hs[0], nil}, []int{4, 4}, []uint8{0, 0}, []uint8{4, 4}), "histogram of channel 1"},
	} {
		if c.want == "" {
			require.NoError(t, c.err)
			continue
		}
		require.Error(t, c.err)
		require.Contains(t, c.err.Error(), c.want)
	}
	r := MultiHistogramRange[uint8]()
	lv, err := FromHost(d, []uint8{0, 1})
	require.NoError(t, err)
	one, err := FromHost(d, []uint8{0})
	require.NoError(t, err)
	err = r.Run(nil, in, 4, hs[:2], []*Slice[uint8]{lv})
	require.ErrorContains(t, err, "2 histograms and 1 level buffers")
	err = r.Run(nil, in, 4, hs[:2], []*Slice[uint8]{lv, one})
	require.ErrorContains(t, err, "channel 1: 1 levels")
	err = r.Run(nil, in, 4, hs[:2], []*Slice[uint8]{lv, lv})
	require.NoError(t, err)
	bad, err := FromHost(d, []uint8{3, 1})
	require.NoError(t, err)
	err = r.Run(nil, in, 4, hs[:2], []*Slice[uint8]{lv, bad})
	require.ErrorContains(t, err, "channel 1: levels[0] = 3 is not below")
}
