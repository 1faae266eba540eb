package main

import (
	"fmt"
	"math/rand/v2"
)

// check compares the result with a Go loop over the whole table: the keys
// strictly increase and lie in range, the sums of a random sample of groups
// are exactly the loop's (the values make every sum exact), and the sums of
// all groups add up to the sum of all values.
func check(t *table, res result, sample int) error {
	for i := 1; i < len(res.keys); i++ {
		if res.keys[i] <= res.keys[i-1] {
			return fmt.Errorf("group keys out of order at %d: %d after %d", i, res.keys[i], res.keys[i-1])
		}
	}
	want := make(map[int64]float64, sample)
	for range min(sample, len(res.keys)) {
		want[res.keys[rand.IntN(len(res.keys))]] = 0
	}
	var all float64
	for i, k := range t.keys.Host() {
		v := t.vals.Host()[i]
		all += v
		if _, ok := want[k]; ok {
			want[k] += v
		}
	}
	var got float64
	for i, k := range res.keys {
		got += res.sums[i]
		if w, ok := want[k]; ok && res.sums[i] != w {
			return fmt.Errorf("group %d: sum %v, the Go loop says %v", k, res.sums[i], w)
		}
	}
	if got != all {
		return fmt.Errorf("the groups sum to %v, the values to %v", got, all)
	}
	return nil
}

// groupByGo is the same job in plain Go: a map per goroutine over its part
// of the rows, then the maps merged.
func groupByGo(t *table) map[int64]float64 {
	keys, vals := t.keys.Host(), t.vals.Host()
	parts := make([]map[int64]float64, goroutines())
	parallelRanges(len(keys), func(p, lo, hi int) {
		m := make(map[int64]float64)
		for i := lo; i < hi; i++ {
			m[keys[i]] += vals[i]
		}
		parts[p] = m
	})
	out := parts[0]
	for _, m := range parts[1:] {
		for k, v := range m {
			out[k] += v
		}
	}
	return out
}
