package runtime

import "fmt"

// argBetter reports whether b comes strictly before a in the order of an
// ArgMin (max false: b is less than a) or an ArgMax (b is greater).
func argBetter[T any](less func(T, T) bool, max bool, b, a T) bool {
	if max {
		return less(a, b)
	}
	return less(b, a)
}

// argScan returns the first extremum of xs and its index, or index -1.
func argScan[T any](less func(T, T) bool, max bool, xs []T) (T, int) {
	if len(xs) == 0 {
		var zero T
		return zero, -1
	}
	best, at := xs[0], 0
	for i := 1; i < len(xs); i++ {
		if argBetter(less, max, xs[i], best) {
			best, at = xs[i], i
		}
	}
	return best, at
}

// argReduceCPU is ArgMin or ArgMax on the host: the first extremum of each
// chunk in parallel, then the chunks' in order (an earlier chunk keeps its
// element against an equivalent later one). An empty input gives T's zero
// value and -1.
func argReduceCPU[T any](less func(T, T) bool, max bool, in []T, workers int) (T, int, error) {
	type pair struct {
		v  T
		at int
	}
	parts := make([]pair, workers+1)
	chunks, err := parallel(len(in), workers, func(c, lo, hi int) {
		v, at := argScan(less, max, in[lo:hi])
		parts[c] = pair{v, lo + at}
	})
	if err != nil || chunks == 0 {
		var zero T
		return zero, -1, err
	}
	best := parts[0]
	for _, p := range parts[1:chunks] {
		if argBetter(less, max, p.v, best.v) {
			best = p
		}
	}
	return best.v, best.at, nil
}

// segmentedArgReduceCPU checks every segment, then writes each one's first
// extremum and its index in the segment (T's zero value and -1 for an empty
// one), segments in parallel.
func segmentedArgReduceCPU[T any](less func(T, T) bool, max bool, in []T, begin, end []int64, value []T, index []int64, workers int) error {
	n := int64(len(in))
	for i := range begin {
		if b, e := begin[i], end[i]; b < 0 || b > e || e > n {
			return fmt.Errorf("segment %d is [%d, %d), not within [0, %d) in order", i, b, e, n)
		}
	}
	_, err := parallel(len(begin), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			v, at := argScan(less, max, in[begin[i]:end[i]])
			value[i], index[i] = v, int64(at)
		}
	})
	return err
}
