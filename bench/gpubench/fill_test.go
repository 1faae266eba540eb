package main

import (
	"math"
	"testing"
)

// TestFillCasesOnCPU runs the fill, generate, transform_if and batched_copy
// cases through the harness on the CPU backend: their checks must accept
// the CPU backend's results, and each counts its bytes.
func TestFillCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	want := map[string]int{"fill": 8, "generate": 2, "transform_if": 2, "batched_copy": 1}
	bytes := map[string]func(n, s int64) int64{
		"fill":         func(n, s int64) int64 { return n * s },
		"generate":     func(n, s int64) int64 { return n * s },
		"transform_if": func(n, s int64) int64 { return 2 * n * s },
	}
	size := map[string]int64{"uint32": 4, "uint64": 8}
	ran := map[string]int{}
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<12 + 3}) {
			if _, ok := want[c.Algorithm]; !ok {
				continue
			}
			if b, ok := bytes[c.Algorithm]; ok && c.Bytes != b(int64(c.N), size[c.Type]) {
				t.Errorf("%s/%s/%d: %d bytes moved, want %d", c.Algorithm, c.Type, c.N, c.Bytes, b(int64(c.N), size[c.Type]))
			}
			ran[c.Algorithm]++
			res, failed := measure(env, c, 3, 0)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s/%s n=%d: %+v", c.Algorithm, c.Type, c.N, res)
			}
		}
	}
	for alg, k := range want {
		if ran[alg] != k {
			t.Errorf("ran %d %s cases, want %d", ran[alg], alg, k)
		}
	}
}

// TestTransformNMCasesOnCPU runs the transform3 and transform3x2 cases
// through the harness on the CPU backend.
func TestTransformNMCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	want := map[string]int64{"transform3": 16, "transform3x2": 20}
	ran := map[string]int{}
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<12 + 3}) {
			per, ok := want[c.Algorithm]
			if !ok {
				continue
			}
			if c.Bytes != per*int64(c.N) {
				t.Errorf("%s n=%d: %d bytes moved, want %d", c.Algorithm, c.N, c.Bytes, per*int64(c.N))
			}
			ran[c.Algorithm]++
			res, failed := measure(env, c, 3, 0)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s/%s n=%d: %+v", c.Algorithm, c.Type, c.N, res)
			}
		}
	}
	for alg := range want {
		if ran[alg] != 2 {
			t.Errorf("ran %d %s cases, want 2", ran[alg], alg)
		}
	}
}
