package devicetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestGraphReplay captures a sequence of calls on a stream (a transform
// feeding a reduction, and a reduction within one tile), replays it over
// new inputs written into the same buffers, and checks every replay against
// the CPU backend; it logs the cost per replayed call next to direct calls.
func TestGraphReplay(t *testing.T) {
	gpu, cpu := devcheck.OpenGPU(t), devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	const n = 1<<20 + 3
	s, err := gpu.NewStream()
	require.NoError(t, err)
	defer s.Close()
	in, err := runtime.Alloc[int32](gpu, n)
	require.NoError(t, err)
	mid, err := runtime.Alloc[int32](gpu, n)
	require.NoError(t, err)
	out, err := runtime.Alloc[int32](gpu, 2)
	require.NoError(t, err)
	calls := func() error {
		if err := AffineTInt32.Run(s, in, mid); err != nil {
			return err
		}
		if err := SumInt32.Run(s, mid, out.Range(0, 1), 7); err != nil {
			return err
		}
		return SumInt32.Run(s, in.Range(0, 1000), out.Range(1, 2), -7)
	}
	g, err := s.Capture(calls)
	require.NoError(t, err)
	defer g.Close()

	for replay := range 4 {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(r.Uint32())
		}
		require.NoError(t, in.CopyFromHost(xs))
		require.NoError(t, out.CopyFromHost([]int32{-1, -1}))
		require.NoError(t, g.Launch())
		require.NoError(t, s.Synchronize())
		got, err := out.ToHost()
		require.NoError(t, err)

		cin := devcheck.Upload(t, cpu, xs)
		cmid := devcheck.Alloc[int32](t, cpu, n)
		cout := devcheck.Alloc[int32](t, cpu, 2)
		require.NoError(t, AffineTInt32.Run(nil, cin, cmid))
		require.NoError(t, SumInt32.Run(nil, cmid, cout.Range(0, 1), 7))
		require.NoError(t, SumInt32.Run(nil, cin.Range(0, 1000), cout.Range(1, 2), -7))
		want, err := cout.ToHost()
		require.NoError(t, err)
		require.Equal(t, want, got, "replay %d", replay)
	}

	const reps = 200
	start := time.Now()
	for range reps {
		require.NoError(t, g.Launch())
	}
	require.NoError(t, s.Synchronize())
	replay := time.Since(start) / (3 * reps)
	start = time.Now()
	for range reps {
		require.NoError(t, calls())
	}
	require.NoError(t, s.Synchronize())
	direct := time.Since(start) / (3 * reps)
	t.Logf("n=%d: %v per call replayed from the graph, %v per call issued directly (wall clock, 3 calls × %d)", n, replay, direct, reps)
}
