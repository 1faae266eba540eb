package group

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// HistogramEven returns the counts of the samples of every shard of in in
// numBins evenly spaced bins over [lower, upper), as
// runtime.HistogramEvenOp.Run counts one Slice: every rank counts its
// shard, the counts are all-gathered and summed bin by bin (wrapping as
// int32, as one device's counters do). It waits for the result.
func HistogramEven[T runtime.HistogramSample](h *runtime.HistogramEvenOp[T], in *Sharded[T], numBins int, lower, upper T) ([]int32, error) {
	if h == nil {
		return nil, errors.New("gocccl: group.HistogramEven: nil instance")
	}
	if in == nil {
		return nil, errors.New("gocccl: group.HistogramEven: nil input")
	}
	if numBins < 1 {
		return nil, fmt.Errorf("gocccl: group.HistogramEven: %d bins, want at least 1", numBins)
	}
	return histogram("HistogramEven", in, numBins, func(shard *runtime.Slice[T], local *runtime.Slice[int32]) error {
		return h.Run(nil, shard, local, numBins, lower, upper)
	})
}

// HistogramRange returns the counts of the samples of every shard of in in
// the len(levels)-1 bins that levels bound, as runtime.HistogramRangeOp.Run
// counts one Slice (bin i counts levels[i] <= x < levels[i+1]): every rank
// uploads the levels, counts its shard, and the counts are all-gathered and
// summed bin by bin. It waits for the result.
func HistogramRange[T runtime.HistogramSample](h *runtime.HistogramRangeOp[T], in *Sharded[T], levels []T) ([]int32, error) {
	if h == nil {
		return nil, errors.New("gocccl: group.HistogramRange: nil instance")
	}
	if in == nil {
		return nil, errors.New("gocccl: group.HistogramRange: nil input")
	}
	if len(levels) < 2 {
		return nil, fmt.Errorf("gocccl: group.HistogramRange: %d levels, want at least 2", len(levels))
	}
	return histogram("HistogramRange", in, len(levels)-1, func(shard *runtime.Slice[T], local *runtime.Slice[int32]) error {
		lv, err := runtime.FromHost(shard.Device(), levels)
		if err != nil {
			return err
		}
		defer lv.Free()
		return h.Run(nil, shard, local, lv)
	})
}

// histogram counts every shard into numBins bins with count and sums the
// ranks' counts bin by bin.
func histogram[T any](alg string, in *Sharded[T], numBins int, count func(shard *runtime.Slice[T], local *runtime.Slice[int32]) error) ([]int32, error) {
	g := in.g
	results := make([][]int32, g.Size())
	err := g.each(func(r int) error {
		local, err := runtime.Alloc[int32](g.devs[r], numBins)
		if err != nil {
			return err
		}
		defer local.Free()
		if err := count(in.shards[r], local); err != nil {
			return err
		}
		counts, err := local.ToHost()
		if err != nil {
			return err
		}
		all, err := g.comm.allGather(r, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(counts))), 4*numBins))
		if err != nil {
			return err
		}
		sum := make([]int32, numBins)
		for i, b := range all {
			if len(b) != 4*numBins {
				return fmt.Errorf("gocccl: group: rank %d sent %d bytes for %d bins", i, len(b), numBins)
			}
			for j, c := range unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), numBins) {
				sum[j] += c
			}
		}
		results[r] = sum
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.%s: %w", alg, err)
	}
	return results[g.lead()], nil
}
