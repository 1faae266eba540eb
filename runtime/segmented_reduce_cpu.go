package runtime

import "fmt"

// segmentedReduceCPU checks every segment (and, with maxSize > 0, that none
// is longer than maxSize items), then folds each one from init in order,
// segments in parallel.
func segmentedReduceCPU[T any](op func(T, T) T, in []T, begin, end []int64, out []T, init T, maxSize, workers int) error {
	n := int64(len(in))
	for i := range begin {
		b, e := begin[i], end[i]
		if b < 0 || b > e || e > n {
			return fmt.Errorf("segment %d is [%d, %d), not within [0, %d) in order", i, b, e, n)
		}
		if maxSize > 0 && e-b > int64(maxSize) {
			return fmt.Errorf("segment %d is [%d, %d) of %d items, longer than MaxSegmentSize %d", i, b, e, e-b, maxSize)
		}
	}
	_, err := parallel(len(begin), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			acc := init
			for _, v := range in[begin[i]:end[i]] {
				acc = op(acc, v)
			}
			out[i] = acc
		}
	})
	return err
}

// segmentedReduceFixedCPU folds every segment of size items of in from
// init, the last one short, segments in parallel.
func segmentedReduceFixedCPU[T any](op func(T, T) T, in []T, size int, out []T, init T, workers int) error {
	segs := (len(in) + size - 1) / size
	_, err := parallel(segs, workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			acc := init
			for _, v := range in[i*size : min(len(in), (i+1)*size)] {
				acc = op(acc, v)
			}
			out[i] = acc
		}
	})
	return err
}
