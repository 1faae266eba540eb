package runtime

// histogramCPU counts with one private histogram per worker, then sums them.
func histogramCPU[T any](samples []T, hist []int32, workers int, bin func(T) int) error {
	parts := make([][]int32, max(1, workers))
	chunks, err := parallel(len(samples), workers, func(c, lo, hi int) {
		h := make([]int32, len(hist))
		for _, x := range samples[lo:hi] {
			if b := bin(x); b >= 0 {
				h[b]++
			}
		}
		parts[c] = h
	})
	if err != nil {
		return err
	}
	clear(hist)
	for _, h := range parts[:chunks] {
		for i, v := range h {
			hist[i] += v
		}
	}
	return nil
}

// rangeBin is the kernel's search: i-1 for the first i in [1, bins] with
// x < levels[i], or -1 when x is outside [levels[0], levels[bins]).
func rangeBin[T HistogramSample](levels []T, x T) int {
	bins := len(levels) - 1
	if !(x >= levels[0] && x < levels[bins]) {
		return -1
	}
	lo, hi := 1, bins
	for lo < hi {
		mid := lo + (hi-lo)/2
		if x < levels[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}

// multiHistogramCPU counts samples interleaved in channels into
// hists[c][0:bins[c]] for the active channels c < len(hists), with one
// private set of histograms per worker over a share of the pixels.
func multiHistogramCPU[T any](samples []T, channels int, hists []*Slice[int32], bins []int, workers int, bin func(c int, x T) int) error {
	active := len(hists)
	parts := make([][][]int32, max(1, workers))
	chunks, err := parallel(len(samples)/channels, workers, func(w, lo, hi int) {
		hs := make([][]int32, active)
		for c := range hs {
			hs[c] = make([]int32, bins[c])
		}
		for p := lo; p < hi; p++ {
			px := samples[p*channels : p*channels+active]
			for c, x := range px {
				if b := bin(c, x); b >= 0 {
					hs[c][b]++
				}
			}
		}
		parts[w] = hs
	})
	if err != nil {
		return err
	}
	for c := range hists {
		clear(hists[c].host[:bins[c]])
	}
	for _, hs := range parts[:chunks] {
		for c, h := range hs {
			out := hists[c].host
			for i, v := range h {
				out[i] += v
			}
		}
	}
	return nil
}
