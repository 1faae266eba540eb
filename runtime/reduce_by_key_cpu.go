package runtime

// reduceByKeyCPU is a sequential pass (the runs' boundaries depend on every
// key before them); it returns the number of runs. A panic in an operator
// becomes an error.
func reduceByKeyCPU[K, V any](eq func(K, K) bool, op func(V, V) V, keys []K, values []V, unique []K, aggs []V) (runs int, err error) {
	_, err = parallel(min(len(keys), 1), 1, func(_, _, _ int) {
		for i := range keys {
			if i == 0 || !eq(keys[i-1], keys[i]) {
				unique[runs] = keys[i]
				aggs[runs] = values[i]
				runs++
				continue
			}
			aggs[runs-1] = op(aggs[runs-1], values[i])
		}
	})
	return runs, err
}
