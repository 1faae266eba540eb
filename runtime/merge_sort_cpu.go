package runtime

import (
	"fmt"
	"slices"
	"sync"
)

// sortStableCPU sorts xs stably by less on all workers: each worker sorts a
// chunk with slices.SortStableFunc, then rounds of pairwise stable merges,
// each merge split by merge path so that every round keeps all workers
// busy, ping-pong between xs and a scratch slice. A panic of less becomes
// an error (xs is then in an unspecified order).
func sortStableCPU[E any](xs []E, less func(a, b E) bool, workers int) error {
	n := len(xs)
	if n < 2 {
		return nil
	}
	cmp := func(a, b E) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	}
	var mu sync.Mutex
	var runs [][2]int
	_, err := parallel(n, workers, func(_, lo, hi int) {
		slices.SortStableFunc(xs[lo:hi], cmp)
		mu.Lock()
		runs = append(runs, [2]int{lo, hi})
		mu.Unlock()
	})
	if err != nil || len(runs) == 1 {
		return err
	}
	slices.SortFunc(runs, func(a, b [2]int) int { return a[0] - b[0] })

	src, dst := xs, make([]E, n)
	for len(runs) > 1 {
		var tasks []func()
		next := make([][2]int, 0, (len(runs)+1)/2)
		pairs := len(runs) / 2
		parts := max(1, workers/max(1, pairs))
		for i := 0; i+1 < len(runs); i += 2 {
			lo, mid, hi := runs[i][0], runs[i][1], runs[i+1][1]
			a, b, out := src[lo:mid], src[mid:hi], dst[lo:hi]
			step := (hi - lo + parts - 1) / parts
			for d0 := 0; d0 < hi-lo; d0 += step {
				d1 := min(hi-lo, d0+step)
				tasks = append(tasks, func() {
					i0 := mergePathCPU(a, b, d0, less)
					i1 := mergePathCPU(a, b, d1, less)
					mergeCPU(a[i0:i1], b[d0-i0:d1-i1], out[d0:d1], less)
				})
			}
			next = append(next, [2]int{lo, hi})
		}
		if len(runs)%2 == 1 {
			last := runs[len(runs)-1]
			tasks = append(tasks, func() { copy(dst[last[0]:last[1]], src[last[0]:last[1]]) })
			next = append(next, last)
		}
		if err := runTasks(tasks); err != nil {
			return err
		}
		src, dst, runs = dst, src, next
	}
	if &src[0] != &xs[0] {
		copy(xs, src)
	}
	return nil
}

// mergePathCPU returns how many of the first diag elements of the stable
// merge of a and b come from a (ties go to a), as the device's merge_path.
func mergePathCPU[E any](a, b []E, diag int, less func(a, b E) bool) int {
	lo, hi := max(0, diag-len(b)), min(diag, len(a))
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if less(b[diag-1-mid], a[mid]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// mergeCPU merges a and b into out (len(a)+len(b) elements), stably: an
// element of b goes first only when it is less than a's.
func mergeCPU[E any](a, b, out []E, less func(a, b E) bool) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if less(b[j], a[i]) {
			out[k] = b[j]
			j++
		} else {
			out[k] = a[i]
			i++
		}
		k++
	}
	k += copy(out[k:], a[i:])
	copy(out[k:], b[j:])
}

// runTasks runs every task on its own goroutine and turns the first panic
// into an error, as parallel does.
func runTasks(tasks []func()) (err error) {
	var wg sync.WaitGroup
	var once sync.Once
	for _, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r) })
				}
			}()
			t()
		}()
	}
	wg.Wait()
	return err
}

// keyValue is one pair of a pairs sort on the CPU backend.
type keyValue[K, V any] struct {
	k K
	v V
}

// sortPairsCPU sorts keys and values together by the keys, stably.
func sortPairsCPU[K, V any](keys []K, values []V, less func(K, K) bool, workers int) error {
	kv := make([]keyValue[K, V], len(keys))
	if _, err := parallel(len(kv), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			kv[i] = keyValue[K, V]{keys[i], values[i]}
		}
	}); err != nil {
		return err
	}
	if err := sortStableCPU(kv, func(a, b keyValue[K, V]) bool { return less(a.k, b.k) }, workers); err != nil {
		return err
	}
	_, err := parallel(len(kv), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			keys[i], values[i] = kv[i].k, kv[i].v
		}
	})
	return err
}
