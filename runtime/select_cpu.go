package runtime

// The CPU backend of the compactions. Each runs in two parallel passes over
// the same chunks (parallel splits [0, n) the same way for the same n and
// workers): the first counts what every chunk keeps, the second writes each
// chunk's items at the offsets the counts give. Operators are called again
// in the second pass rather than remembered, so nothing of size n is
// allocated; they are pure functions of their arguments.

// chunkOffsets turns per-chunk counts into exclusive offsets in place and
// returns the total.
func chunkOffsets(counts []int) int {
	total := 0
	for i, c := range counts {
		counts[i] = total
		total += c
	}
	return total
}

// selectCPU copies the items of in where pred holds to out, in order, and
// returns their number. With reject, the others follow in reverse order
// from the end of out[:len(in)] (Partition).
func selectCPU[T any](pred func(T) bool, in, out []T, reject bool, workers int) (int, error) {
	counts := make([]int, max(1, workers))
	chunks, err := parallel(len(in), workers, func(c, lo, hi int) {
		k := 0
		for _, v := range in[lo:hi] {
			if pred(v) {
				k++
			}
		}
		counts[c] = k
	})
	if err != nil {
		return 0, err
	}
	total := chunkOffsets(counts[:chunks])
	n := len(in)
	_, err = parallel(n, workers, func(c, lo, hi int) {
		k := counts[c]
		r := lo - k // rejected before this chunk
		for _, v := range in[lo:hi] {
			if pred(v) {
				out[k] = v
				k++
			} else if reject {
				out[n-1-r] = v
				r++
			}
		}
	})
	return total, err
}

// threeWayCPU copies the items of in where first holds to a, of the others
// those where second holds to b, and the rest to rest, each in order, and
// returns the sizes of a's and b's parts.
func threeWayCPU[T any](first, second func(T) bool, in, a, b, rest []T, workers int) (int, int, error) {
	counts := make([]int, 2*max(1, workers))
	chunks, err := parallel(len(in), workers, func(c, lo, hi int) {
		i, j := 0, 0
		for _, v := range in[lo:hi] {
			if first(v) {
				i++
			} else if second(v) {
				j++
			}
		}
		counts[c], counts[workers+c] = i, j
	})
	if err != nil {
		return 0, 0, err
	}
	firsts, seconds := counts[:chunks], counts[workers:workers+chunks]
	na, nb := chunkOffsets(firsts), chunkOffsets(seconds)
	_, err = parallel(len(in), workers, func(c, lo, hi int) {
		i, j := firsts[c], seconds[c]
		r := lo - i - j
		for _, v := range in[lo:hi] {
			switch {
			case first(v):
				a[i] = v
				i++
			case second(v):
				b[j] = v
				j++
			default:
				rest[r] = v
				r++
			}
		}
	})
	return na, nb, err
}

// head reports whether item i of in starts a run under eq: the first item,
// or one that eq(previous, item) says differs.
func head[T any](eq func(T, T) bool, in []T, i int) bool {
	return i == 0 || !eq(in[i-1], in[i])
}

// uniqueCPU copies the first key of every run of keys equal under eq to
// keysOut and, when values is not nil, the value at the same position to
// valuesOut; it returns the number of runs.
func uniqueCPU[K, V any](eq func(K, K) bool, keys []K, values []V, keysOut []K, valuesOut []V, workers int) (int, error) {
	counts := make([]int, max(1, workers))
	chunks, err := parallel(len(keys), workers, func(c, lo, hi int) {
		k := 0
		for i := lo; i < hi; i++ {
			if head(eq, keys, i) {
				k++
			}
		}
		counts[c] = k
	})
	if err != nil {
		return 0, err
	}
	total := chunkOffsets(counts[:chunks])
	_, err = parallel(len(keys), workers, func(c, lo, hi int) {
		k := counts[c]
		for i := lo; i < hi; i++ {
			if head(eq, keys, i) {
				keysOut[k] = keys[i]
				if values != nil {
					valuesOut[k] = values[i]
				}
				k++
			}
		}
	})
	return total, err
}

// rleCPU finds the runs of items equal under eq. With nonTrivial false it
// writes every run's first item to unique and its length to lengths; with
// nonTrivial true, for the runs longer than one item, their offsets to
// offsets and their lengths to lengths. It returns the number of runs
// written. A run is measured by the chunk that holds its head, reading on
// into the next chunks where it continues.
func rleCPU[T any](eq func(T, T) bool, in, unique []T, offsets, lengths []int64, nonTrivial bool, workers int) (int, error) {
	n := len(in)
	// runEnd returns the end of the run that starts at i.
	runEnd := func(i int) int {
		j := i + 1
		for j < n && eq(in[j-1], in[j]) {
			j++
		}
		return j
	}
	counts := make([]int, max(1, workers))
	chunks, err := parallel(n, workers, func(c, lo, hi int) {
		k := 0
		for i := lo; i < hi; {
			if !head(eq, in, i) {
				i++
				continue
			}
			end := runEnd(i)
			if !nonTrivial || end-i > 1 {
				k++
			}
			i = end
		}
		counts[c] = k
	})
	if err != nil {
		return 0, err
	}
	total := chunkOffsets(counts[:chunks])
	_, err = parallel(n, workers, func(c, lo, hi int) {
		k := counts[c]
		for i := lo; i < hi; {
			if !head(eq, in, i) {
				i++
				continue
			}
			end := runEnd(i)
			switch {
			case !nonTrivial:
				unique[k], lengths[k] = in[i], int64(end-i)
				k++
			case end-i > 1:
				offsets[k], lengths[k] = int64(i), int64(end-i)
				k++
			}
			i = end
		}
	})
	return total, err
}

// firsts is the first k elements of the CPU backend's temporary o, what
// flush writes through an output composition.
func firsts[T any](o *Slice[T], k int) *Slice[T] {
	return &Slice[T]{dev: o.dev, n: k, host: o.host[:k]}
}
