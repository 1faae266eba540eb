package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// TestSweep runs every algorithm over every element type once on the CPU
// backend with small buffers, and the full sweep (300 states of 1/64 of
// the card each, about nine times its memory) on a GPU when there is one.
func TestSweep(t *testing.T) {
	for _, b := range []runtime.Backend{runtime.CPU, runtime.GPU} {
		t.Run(b.String(), func(t *testing.T) {
			d, err := runtime.Open(b)
			if err != nil {
				t.Skipf("%v", err)
			}
			defer d.Close()
			states, mib := len(suites)*len(suites[0].algorithms()), int64(1)
			if b == runtime.GPU && !testing.Short() {
				states, mib = 300, 0
			}
			var log strings.Builder
			err = sweep(d, states, mib<<20, &log)
			t.Log(log.String())
			require.NoError(t, err)
			require.Contains(t, log.String(), "done: ")
		})
	}
}
