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
	g := in.g
	results := make([][]int32, g.Size())
	err := g.each(func(r int) error {
		local, err := runtime.Alloc[int32](g.devs[r], numBins)
		if err != nil {
			return err
		}
		defer local.Free()
		if err := h.Run(nil, in.shards[r], local, numBins, lower, upper); err != nil {
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
		return nil, fmt.Errorf("gocccl: group.HistogramEven: %w", err)
	}
	return results[g.lead()], nil
}
