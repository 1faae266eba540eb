package main

import (
	"math"
	"testing"
)

// TestSegmentedTopKCasesOnCPU runs the segmented top-k rows on the CPU
// backend: their check (each segment's 16 largest of the host) must agree
// with SegmentedTopKKeys; below one segment there is no row.
func TestSegmentedTopKCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	ran := 0
	for _, fam := range families {
		for _, c := range fam([]int{1 << 14, 1000}) {
			if c.Algorithm != "segmented_topk_16" {
				continue
			}
			if c.N != 1<<14 {
				t.Errorf("a %s row at n = %d", c.Algorithm, c.N)
			}
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s %s/%s: %+v", res.System, c.Algorithm, c.Type, res)
			}
			ran++
		}
	}
	if ran != 2 { // uint32, float32
		t.Errorf("ran %d segmented_topk_16 cases, want 2", ran)
	}
}
