package runtime

// mergePath returns how many of the first diag outputs of the stable merge
// of a and b come from a.
func mergePath[T any](a, b []T, diag int, less func(T, T) bool) int {
	lo, hi := max(0, diag-len(b)), min(diag, len(a))
	for lo < hi {
		mid := lo + (hi-lo)/2
		if !less(b[diag-1-mid], a[mid]) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// mergeCPU splits the output among workers by merge path and merges each
// part sequentially.
func (m *MergeOp[T]) mergeCPU(a, b, out []T, workers int) error {
	_, err := parallel(len(out), workers, func(_, lo, hi int) {
		i := mergePath(a, b, lo, m.less)
		j := lo - i
		for k := lo; k < hi; k++ {
			if j >= len(b) || i < len(a) && !m.less(b[j], a[i]) {
				out[k] = a[i]
				i++
			} else {
				out[k] = b[j]
				j++
			}
		}
	})
	return err
}
