package runtime

// scanByKeyCPU scans values by the segments of keys into out (which may be
// values itself), in index order: each chunk's carry-out in parallel, then
// the carries in order, then each chunk from its carry.
func scanByKeyCPU[K, V any](eq func(K, K) bool, op func(V, V) V, keys []K, values, out []V, init V, inclusive bool, workers int) error {
	n := len(keys)
	if n == 0 {
		return nil
	}
	head := func(i int) bool { return i == 0 || !eq(keys[i-1], keys[i]) }
	// scanChunk scans [lo, hi) from acc: the inclusive prefix before lo, or
	// the exclusive accumulator that lo would output without a head.
	scanChunk := func(lo, hi int, acc V) {
		for i := lo; i < hi; i++ {
			v := values[i]
			if inclusive {
				if head(i) {
					acc = v
				} else {
					acc = op(acc, v)
				}
				out[i] = acc
			} else {
				if head(i) {
					acc = init
				}
				out[i] = acc
				acc = op(acc, v)
			}
		}
	}
	if n <= minChunk || workers <= 1 {
		_, err := parallel(n, 1, func(_, lo, hi int) { scanChunk(lo, hi, init) })
		return err
	}
	// The carry-out of chunk c: whether it holds a head, and the fold of
	// its values from its last head (or its start) on.
	heads := make([]bool, workers)
	aggs := make([]V, workers)
	chunks, err := parallel(n, workers, func(c, lo, hi int) {
		start := lo
		for i := hi - 1; i >= lo; i-- {
			if head(i) {
				start, heads[c] = i, true
				break
			}
		}
		acc := values[start]
		for _, v := range values[start+1 : hi] {
			acc = op(acc, v)
		}
		aggs[c] = acc
	})
	if err != nil {
		return err
	}
	carries := make([]V, chunks)
	var acc V
	for c := range chunks {
		carries[c] = acc
		switch {
		case heads[c] && inclusive:
			acc = aggs[c]
		case heads[c]:
			acc = op(init, aggs[c])
		default:
			acc = op(acc, aggs[c])
		}
	}
	_, err = parallel(n, workers, func(c, lo, hi int) { scanChunk(lo, hi, carries[c]) })
	return err
}
