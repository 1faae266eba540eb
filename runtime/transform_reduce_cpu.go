package runtime

// transformReduceCPU folds xf over in with op in order: chunks in parallel,
// then the chunks' results, then init in front.
func transformReduceCPU[In, T any](xf func(In) T, op func(T, T) T, in []In, init T, workers int) (T, error) {
	if len(in) == 0 {
		return init, nil
	}
	partials := make([]T, max(1, workers))
	chunks, err := parallel(len(in), workers, func(c, lo, hi int) {
		acc := xf(in[lo])
		for _, v := range in[lo+1 : hi] {
			acc = op(acc, xf(v))
		}
		partials[c] = acc
	})
	if err != nil {
		return init, err
	}
	acc := init
	for _, p := range partials[:chunks] {
		acc = op(acc, p)
	}
	return acc, nil
}
