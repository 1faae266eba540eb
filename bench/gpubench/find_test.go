package main

import (
	"math"
	"strings"
	"testing"
)

// TestFindAndSegmentedScanCasesOnCPU runs the find, argmin/argmax,
// segmented scan and sorted-values search cases through the harness on the CPU backend, at a size
// that is a multiple of the segment length and one that is not: their
// checks must accept the CPU backend's results.
func TestFindAndSegmentedScanCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	want := map[string]int{"find_if": 1, "find_if_mid": 1, "argmin": 3, "argmax": 2,
		"segmented_scan": 3, "segmented_scan_fixed": 2, "segmented_exclusive_scan": 1,
		"lower_bound_sorted": 2, "lower_bound_sorted_bsearch": 2}
	ran := map[string]int{}
	sizes := []int{1 << 12, 1<<12 + 3}
	for _, fam := range families {
		for _, c := range fam(sizes) {
			if _, ok := want[c.Algorithm]; !ok {
				continue
			}
			ran[c.Algorithm]++
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s/%s n=%d: %+v", c.Algorithm, c.Type, c.N, res)
			}
		}
	}
	for alg, k := range want {
		if ran[alg] != k*len(sizes) {
			t.Errorf("ran %d %s cases, want %d", ran[alg], alg, k*len(sizes))
		}
	}
}

// TestTopKCasesOnCPU runs the top-k cases through the harness on the CPU
// backend: their checks must accept its results.
func TestTopKCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	ran := 0
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<16 + 3}) {
			if !strings.HasPrefix(c.Algorithm, "topk_") {
				continue
			}
			ran++
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s/%s n=%d: %+v", c.Algorithm, c.Type, c.N, res)
			}
		}
	}
	// k = 16, 1024 at 2^12; 16, 1024, 65536 and sorted 65536 at 2^16 + 3.
	if want := 2 * (2 + 4); ran != want {
		t.Errorf("ran %d top-k cases, want %d", ran, want)
	}
}
