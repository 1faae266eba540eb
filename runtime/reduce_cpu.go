package runtime

// reduceCPU folds in with op in order: chunks in parallel, then the chunks'
// results, then init in front.
func reduceCPU[T any](op func(T, T) T, in []T, init T, workers int) (T, error) {
	if len(in) == 0 {
		return init, nil
	}
	partials := make([]T, max(1, workers))
	chunks, err := parallel(len(in), workers, func(c, lo, hi int) {
		acc := in[lo]
		for _, v := range in[lo+1 : hi] {
			acc = op(acc, v)
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
