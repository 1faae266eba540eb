package runtime

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// MaxHistogramChannels is the most interleaved channels MultiHistogramEven
// and MultiHistogramRange take, as many as CUB's callers usually name (RGBA
// pixels).
const MaxHistogramChannels = 4

// MultiHistogramEvenOp counts samples interleaved in channels into one
// histogram of bins of equal width per active channel, as
// cub::DeviceHistogram::MultiHistogramEven does.
type MultiHistogramEvenOp[T HistogramSample] struct {
	instance
}

// MultiHistogramEven declares a multi-channel histogram of T samples over
// evenly spaced bins. It takes no operator: name the sample type, as in
// runtime.MultiHistogramEven[uint8](), and gocccl-gen generates its kernels.
// The channel counts are arguments of Run: one instance serves every count
// from 1 to MaxHistogramChannels (its kernels are compiled for each).
func MultiHistogramEven[T HistogramSample]() *MultiHistogramEvenOp[T] {
	return &MultiHistogramEvenOp[T]{instance: newInstance(algo.MultiHistogramEven, nil, reflect.TypeFor[T]())}
}

// Over declares the instance reading its samples through the iterator
// composition samples (package iterator), as HistogramEvenOp.Over does. It
// returns h.
func (h *MultiHistogramEvenOp[T]) Over(samples Iterator[T]) *MultiHistogramEvenOp[T] { return h }

// Run counts samples, interleaved in channels channels (sample i is of
// channel i % channels: pixel p is samples[p*channels : (p+1)*channels]),
// into one histogram per active channel: the first len(hists) channels are
// active, and channel c is counted into hists[c][0:bins[c]], overwriting it,
// with bins[c] bins of equal width between lower[c] (inclusive) and upper[c]
// (exclusive), each sample's bin as HistogramEvenOp.Run computes it. The
// other channels are not read into any histogram. As
// cub::DeviceHistogram::MultiHistogramEven<channels, len(hists)>.
//
// Errors, all before anything is enqueued: channels outside 1 to
// MaxHistogramChannels; no histogram or more than channels; bins, lower or
// upper not of one length per histogram; a length of samples that is not a
// multiple of channels; and per channel what HistogramEvenOp.Run rejects.
// The histograms should not overlap: overlapping ones get unspecified
// counts. A row pitch (CUB's 2-D region of interest, row_stride_bytes) is
// not supported: run each row (a Slice's Sub) or copy the region first.
func (h *MultiHistogramEvenOp[T]) Run(s *Stream, samples Input[T], channels int, hists []*Slice[int32], bins []int, lower, upper []T) error {
	if h == nil || h.key.Alg == nil {
		return fmt.Errorf("gocccl: MultiHistogramEven: not declared with runtime.MultiHistogramEven")
	}
	if len(bins) != len(hists) || len(lower) != len(hists) || len(upper) != len(hists) {
		return h.errorf("%d histograms, %d bin counts, %d lower and %d upper levels: want one each per active channel", len(hists), len(bins), len(lower), len(upper))
	}
	src, s, err := multiHistogramCheck(&h.instance, s, samples, channels, hists, bins)
	if err != nil {
		return err
	}
	var e [MaxHistogramChannels]evenBinner[T]
	for c := range hists {
		if e[c], err = newEvenBinner(bins[c], lower[c], upper[c]); err != nil {
			return h.errorf("channel %d: %v", c, err)
		}
	}
	if err := h.enterThrough(s.dev, []*iter.Node{src.node()}, nil); err != nil {
		return h.wrap(err, "")
	}
	defer s.dev.exit()
	active := len(hists)
	if s.dev.ctx == nil {
		hs, err := src.host(s.dev)
		if err != nil {
			return h.wrap(err, "")
		}
		b := make([]evenBinner[T], active) // the CPU backend's binners, on the heap
		copy(b, e[:active])
		return h.wrap(multiHistogramCPU(hs.host, channels, hists, bins, s.dev.info.Workers, func(c int, x T) int { return b[c].bin(x) }), "")
	}
	var args cuda.Args
	k, grid, err := multiHistogramGPU(&h.instance, s, src, channels, hists, bins, &args)
	if err != nil {
		return err
	}
	var zero T
	size, align := int(unsafe.Sizeof(zero)), int(unsafe.Alignof(zero))
	for c := range MaxHistogramChannels {
		v := zero
		if c < active {
			v = lower[c]
		}
		args.Value(unsafe.Pointer(&v), size, align)
	}
	for c := range MaxHistogramChannels {
		v := zero
		if c < active {
			v = upper[c]
		}
		args.Value(unsafe.Pointer(&v), size, align)
	}
	for c := range MaxHistogramChannels {
		args.Float64(e[c].kernelScale()) // 0 for inactive channels
	}
	return k.launch(histogramSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (h *MultiHistogramEvenOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if h == nil || h.key.Alg == nil {
		return 0, fmt.Errorf("gocccl: MultiHistogramEven: not declared with runtime.MultiHistogramEven")
	}
	return histogramTemp(d, n)
}

// MultiHistogramRangeOp counts samples interleaved in channels into one
// histogram of bins between given levels per active channel, as
// cub::DeviceHistogram::MultiHistogramRange does.
type MultiHistogramRangeOp[T HistogramSample] struct {
	instance
}

// MultiHistogramRange declares a multi-channel histogram of T samples over
// bins whose boundaries are given per call and channel. Name the sample
// type, as in runtime.MultiHistogramRange[float32]().
func MultiHistogramRange[T HistogramSample]() *MultiHistogramRangeOp[T] {
	return &MultiHistogramRangeOp[T]{instance: newInstance(algo.MultiHistogramRange, nil, reflect.TypeFor[T]())}
}

// Over declares the instance reading its samples through the iterator
// composition samples (package iterator); the levels stay Slices. It
// returns h.
func (h *MultiHistogramRangeOp[T]) Over(samples Iterator[T]) *MultiHistogramRangeOp[T] { return h }

// Run counts samples, interleaved in channels channels as for
// MultiHistogramEvenOp.Run, into one histogram per active channel: channel
// c < len(hists) is counted into hists[c][0:levels[c].Len()-1], overwriting
// it, with the bins between the increasing levels[c], as HistogramRangeOp.Run
// counts. Errors, before anything is enqueued: as MultiHistogramEvenOp.Run
// (levels of one Slice per histogram), and per channel what
// HistogramRangeOp.Run rejects; levels that do not increase are an error on
// the CPU backend and give unspecified counts on a GPU.
func (h *MultiHistogramRangeOp[T]) Run(s *Stream, samples Input[T], channels int, hists []*Slice[int32], levels []*Slice[T]) error {
	if h == nil || h.key.Alg == nil {
		return fmt.Errorf("gocccl: MultiHistogramRange: not declared with runtime.MultiHistogramRange")
	}
	if len(levels) != len(hists) {
		return h.errorf("%d histograms and %d level buffers: want one each per active channel", len(hists), len(levels))
	}
	var binsArr [MaxHistogramChannels]int
	bins := binsArr[:0]
	for c, lv := range levels {
		if c >= MaxHistogramChannels {
			break // multiHistogramCheck reports the count
		}
		if err := lv.usableAs(h.name(), fmt.Sprintf("levels of channel %d", c)); err != nil {
			return err
		}
		if lv.n < 2 {
			return h.errorf("channel %d: %d levels: want at least 2 (bins + 1)", c, lv.n)
		}
		bins = append(bins, lv.n-1)
	}
	if len(levels) > MaxHistogramChannels {
		bins = make([]int, len(levels)) // the check fails on the count
	}
	src, s, err := multiHistogramCheck(&h.instance, s, samples, channels, hists, bins)
	if err != nil {
		return err
	}
	for c, lv := range levels {
		if lv.dev != s.dev {
			return h.errorf("levels of channel %d are on another device than the stream (%s; the stream is on %s): copy them to the stream's device", c, lv.dev.shortName(), s.dev.shortName())
		}
	}
	if err := h.enterThrough(s.dev, []*iter.Node{src.node()}, nil); err != nil {
		return h.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		for c, l := range levels {
			lv := l.host
			for i := 1; i < len(lv); i++ {
				if !(lv[i-1] < lv[i]) {
					return h.errorf("channel %d: levels[%d] = %v is not below levels[%d] = %v: levels must increase", c, i-1, lv[i-1], i, lv[i])
				}
			}
		}
		hs, err := src.host(s.dev)
		if err != nil {
			return h.wrap(err, "")
		}
		return h.wrap(multiHistogramCPU(hs.host, channels, hists, bins, s.dev.info.Workers, func(c int, x T) int { return rangeBin(levels[c].host, x) }), "")
	}
	var args cuda.Args
	k, grid, err := multiHistogramGPU(&h.instance, s, src, channels, hists, bins, &args)
	if err != nil {
		return err
	}
	for c := range MaxHistogramChannels {
		var p cuda.DevicePtr
		if c < len(levels) {
			p = levels[c].ptr
		}
		args.Ptr(p)
	}
	return k.launch(histogramSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (h *MultiHistogramRangeOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if h == nil || h.key.Alg == nil {
		return 0, fmt.Errorf("gocccl: MultiHistogramRange: not declared with runtime.MultiHistogramRange")
	}
	return histogramTemp(d, n)
}

// multiHistogramCheck checks the arguments every multi-channel histogram
// takes (bins has one count per histogram) and resolves its samples.
func multiHistogramCheck[T any](in *instance, s *Stream, samples Input[T], channels int, hists []*Slice[int32], bins []int) (src[T], *Stream, error) {
	var x src[T]
	if channels < 1 || channels > MaxHistogramChannels {
		return x, nil, in.errorf("%d channels: want 1 to %d", channels, MaxHistogramChannels)
	}
	if len(hists) < 1 || len(hists) > channels {
		return x, nil, in.errorf("%d histograms (active channels) of %d channels: want 1 to %d", len(hists), channels, channels)
	}
	x, err := inputAs(in, "samples", samples)
	if err != nil {
		return x, nil, err
	}
	var devs [1 + MaxHistogramChannels]*Device
	devs[0] = x.dev()
	for c, hist := range hists {
		if err := hist.usableAs(in.name(), fmt.Sprintf("histogram of channel %d", c)); err != nil {
			return x, nil, err
		}
		devs[1+c] = hist.dev
	}
	s, err = streamFor(in.name(), s, devs[:1+len(hists)]...)
	if err != nil {
		return x, nil, err
	}
	if n := x.len(); n%channels != 0 {
		return x, nil, in.errorf("%d samples are not a whole number of %d-channel pixels", n, channels)
	}
	for c, b := range bins {
		if b < 1 || b > math.MaxInt32 {
			return x, nil, in.errorf("channel %d: %d bins: want 1 to %d", c, b, math.MaxInt32)
		}
		if hists[c].n < b {
			return x, nil, in.errorf("channel %d: histogram has %d elements, %d bins need as many", c, hists[c].n, b)
		}
	}
	return x, s, nil
}

// multiHistogramGPU prepares a multi-channel histogram's launch as
// histogramGPU does a histogram's, packing the sweep's parameters up to the
// bins into args.
func multiHistogramGPU[T any](in *instance, s *Stream, samples src[T], channels int, hists []*Slice[int32], bins []int, args *cuda.Args) (kernels, int, error) {
	k, err := in.kernelsThrough(s.dev, []*iter.Node{samples.node()}, nil)
	if err != nil {
		return kernels{}, 0, err
	}
	tile := k.policy.Tile()
	grid := 1
	n := samples.len()
	if n > tile {
		grid = min((n+tile-1)/tile, k.resident)
	}
	packHists := func() {
		for c := range MaxHistogramChannels {
			var p cuda.DevicePtr
			if c < len(hists) {
				p = hists[c].ptr
			}
			args.Ptr(p)
		}
		for c := range MaxHistogramChannels {
			var b int64
			if c < len(bins) {
				b = int64(bins[c])
			}
			args.Int64(b)
		}
	}
	args.Reset()
	if grid > 1 {
		most := 0
		for _, b := range bins {
			most = max(most, b)
		}
		packHists()
		if err := k.launch(histogramZero, min((most+k.policy.BlockThreads-1)/k.policy.BlockThreads, 1024), s, args); err != nil {
			return kernels{}, 0, err
		}
		args.Reset()
	}
	if err := samples.pack(args); err != nil {
		return kernels{}, 0, in.wrap(err, "")
	}
	args.Int64(int64(n))
	args.Int64(int64(channels))
	args.Int64(int64(len(hists)))
	packHists()
	return k, grid, nil
}
