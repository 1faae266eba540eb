package runtime

// scanCPU writes the inclusive (or exclusive) scan of in with op to out,
// seeded with init when hasInit (an exclusive scan always has one). out has
// in's length and may be in itself. Operands are combined in index order:
// the chunks' aggregates first, in parallel, then each chunk's scan from the
// carry of the chunks before it, so op need only be associative.
func scanCPU[T any](op func(T, T) T, in, out []T, init T, hasInit, inclusive bool, workers int) error {
	n := len(in)
	if n == 0 {
		return nil
	}
	// scanChunk scans in[lo:hi] into out[lo:hi] from the carry acc (none
	// when !has). Each element is read before out[i] is written.
	scanChunk := func(lo, hi int, acc T, has bool) {
		for i := lo; i < hi; i++ {
			v := in[i]
			if inclusive {
				if has {
					acc = op(acc, v)
				} else {
					acc, has = v, true
				}
				out[i] = acc
			} else {
				out[i] = acc
				acc = op(acc, v)
			}
		}
	}
	if n <= minChunk || workers <= 1 {
		_, err := parallel(n, 1, func(_, lo, hi int) { scanChunk(lo, hi, init, hasInit) })
		return err
	}

	aggs := make([]T, workers)
	chunks, err := parallel(n, workers, func(c, lo, hi int) {
		acc := in[lo]
		for _, v := range in[lo+1 : hi] {
			acc = op(acc, v)
		}
		aggs[c] = acc
	})
	if err != nil {
		return err
	}
	// carries[c] folds init and the aggregates of chunks 0..c-1.
	carries := make([]T, chunks)
	acc, has := init, hasInit
	for c := range chunks {
		carries[c] = acc
		if has {
			acc = op(acc, aggs[c])
		} else {
			acc, has = aggs[c], true
		}
	}
	_, err = parallel(n, workers, func(c, lo, hi int) {
		scanChunk(lo, hi, carries[c], hasInit || c > 0)
	})
	return err
}
