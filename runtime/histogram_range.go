package runtime

import (
	"fmt"
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// HistogramRangeOp counts samples into bins between given levels, as
// cub::DeviceHistogram::HistogramRange does.
type HistogramRangeOp[T HistogramSample] struct {
	instance
}

// HistogramRange declares a histogram of T samples over bins whose
// boundaries are given per call. Name the sample type, as in
// runtime.HistogramRange[float64]().
func HistogramRange[T HistogramSample]() *HistogramRangeOp[T] {
	return &HistogramRangeOp[T]{instance: newInstance(algo.HistogramRange, nil, reflect.TypeFor[T]())}
}

// Over declares the instance reading its samples through the iterator
// composition samples (package iterator), as HistogramEvenOp.Over does; the
// levels stay a Slice. It returns h.
func (h *HistogramRangeOp[T]) Over(samples Iterator[T]) *HistogramRangeOp[T] { return h }

// Run counts samples into hist[0:bins], overwriting it, where levels holds
// bins+1 increasing boundaries: bin i counts the samples x with
// levels[i] <= x < levels[i+1]. Samples outside [levels[0], levels[bins]),
// NaN among them, are not counted. Each sample's bin is found by binary
// search.
//
// Errors, before anything is enqueued: fewer than two levels, a histogram
// shorter than bins. On the CPU backend levels that do not increase are an
// error too; on a GPU, where checking them would mean a synchronous copy,
// they give unspecified counts (as with CUB), though no access leaves
// levels or hist. samples is a Slice or an iterator composition bound for
// the call that an instance declared with Over.
func (h *HistogramRangeOp[T]) Run(s *Stream, samples Input[T], hist *Slice[int32], levels *Slice[T]) error {
	if h == nil || h.key.Alg == nil {
		return fmt.Errorf("gocccl: HistogramRange: not declared with runtime.HistogramRange")
	}
	if err := levels.usableAs(h.name(), "levels"); err != nil {
		return err
	}
	if levels.n < 2 {
		return h.errorf("%d levels: want at least 2 (bins + 1)", levels.n)
	}
	bins := levels.n - 1
	src, s, err := histogramCheck(&h.instance, s, samples, hist, bins)
	if err != nil {
		return err
	}
	if levels.dev != s.dev {
		return h.errorf("levels are on another device than the stream (%s; the stream is on %s): copy them to the stream's device", levels.dev.shortName(), s.dev.shortName())
	}
	if err := h.enterThrough(s.dev, []*iter.Node{src.node()}, nil); err != nil {
		return h.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		lv := levels.host
		for i := 1; i < len(lv); i++ {
			if !(lv[i-1] < lv[i]) {
				return h.errorf("levels[%d] = %v is not below levels[%d] = %v: levels must increase", i-1, lv[i-1], i, lv[i])
			}
		}
		hs, err := src.host(s.dev)
		if err != nil {
			return h.wrap(err, "")
		}
		return h.wrap(histogramCPU(hs.host, hist.host[:bins], s.dev.info.Workers, func(x T) int { return rangeBin(lv, x) }), "")
	}
	var args cuda.Args
	k, grid, err := histogramGPU(&h.instance, s, src, hist, bins, &args)
	if err != nil {
		return err
	}
	args.Ptr(levels.ptr)
	return k.launch(histogramSweep, grid, s, &args)
}

// TempStorageBytes returns the device scratch memory a Run takes: none.
func (h *HistogramRangeOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if h == nil || h.key.Alg == nil {
		return 0, fmt.Errorf("gocccl: HistogramRange: not declared with runtime.HistogramRange")
	}
	return histogramTemp(d, n)
}
