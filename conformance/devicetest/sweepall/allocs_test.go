package sweepall

import (
	"math/rand/v2"
	"testing"

	"github.com/gocccl/gocccl/runtime"
)

// TestAllocsPerCall checks that a call of every algorithm of the table makes
// no allocation on the Go heap on a GPU: each entry runs at a one-tile and a
// many-tile size, its result checked against the host as in the sweep, then
// its algorithm call runs again under testing.AllocsPerRun, which must count
// none. Every entry that allocates is reported. Without a GPU (or under
// -short) it runs on the CPU backend, whose calls may allocate: there it
// checks that every entry hands its call over and that the call runs again.
func TestAllocsPerCall(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	if !testing.Short() {
		if g, gerr := runtime.OpenGPU(0); gerr == nil {
			d, err = g, nil
		} else {
			t.Logf("no CUDA GPU (%v): the CPU backend, without counting allocations", gerr)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	gpu := d.Backend() == runtime.GPU
	sizes := []int64{4 << 10, 4 << 20}
	if !gpu {
		sizes = sizes[:1] // the CPU backend's sorts of 4 MiB take minutes
	}
	for _, bytes := range sizes {
		c := &state{d: d, r: rand.New(rand.NewPCG(uint64(bytes), 13)), bytes: bytes, pkgs: map[string]bool{}, keep: true}
		for _, e := range entries {
			c.calls = c.calls[:0]
			what := e.alg + " over " + e.types
			if err := e.run(c); err != nil {
				t.Errorf("%s, %d KiB: %v", what, bytes>>10, err)
			}
			if len(c.calls) == 0 {
				t.Errorf("%s: the entry makes its call without state.call, so it is not measured", what)
			}
			for _, f := range c.calls {
				var failed error
				allocs := testing.AllocsPerRun(10, func() {
					if err := f(); err != nil && failed == nil {
						failed = err
					}
				})
				switch {
				case failed != nil:
					t.Errorf("%s, %d KiB: again: %v", what, bytes>>10, failed)
				case gpu && allocs != 0:
					t.Errorf("%s, %d KiB: %.1f Go allocations per call", what, bytes>>10, allocs)
				}
			}
			if err := d.DefaultStream().Synchronize(); err != nil {
				t.Fatalf("%s, %d KiB: %v", what, bytes>>10, err)
			}
			if err := c.release(true); err != nil {
				t.Fatalf("%s, %d KiB: %v", what, bytes>>10, err)
			}
		}
	}
}
