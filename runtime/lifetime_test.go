package runtime

import (
	goruntime "runtime"
	"testing"
	"time"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sumInt64(a, b int64) int64 { return a + b }

// collectedSoon reports whether p is cleared after a few collections.
func collectedSoon(p weak.Pointer[Slice[int64]]) bool {
	for range 20 {
		goruntime.GC()
		if p.Value() == nil {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestCallsKeepNoBuffers is the first reproducer of the seed issue in Go:
// one instance reused over a sweep of fresh buffers. After each call only
// weak pointers to the buffers remain, and the buffers are collected:
// neither the instance nor the registry nor the device holds them.
func TestCallsKeepNoBuffers(t *testing.T) {
	d := cpuDevice(t)
	sum := Reduce(sumInt64)
	for state := range 8 {
		in := mustFromHost(t, d, []int64{1, 2, 3, int64(state)})
		out := mustAlloc[int64](t, d, 1)
		require.NoError(t, sum.Run(nil, in, out, 10))
		got, err := out.ToHost()
		require.NoError(t, err)
		assert.Equal(t, int64(16+state), got[0])
		views := in.Range(1, 3)
		require.NoError(t, sum.Run(nil, views, out, 0))
		wIn, wOut := weak.Make(in), weak.Make(out)
		in, out, views = nil, nil, nil
		assert.True(t, collectedSoon(wIn), "state %d: input still referenced after the call", state)
		assert.True(t, collectedSoon(wOut), "state %d: output still referenced after the call", state)
	}
}

// TestViewKeepsAllocation: a view keeps its allocation alive.
func TestViewKeepsAllocation(t *testing.T) {
	d := cpuDevice(t)
	s := mustFromHost(t, d, []int64{1, 2, 3})
	w := weak.Make(s)
	v := s.Range(1, 2)
	s = nil
	goruntime.GC()
	require.NotNil(t, w.Value(), "collected while a view of it is live")
	got, err := v.ToHost()
	require.NoError(t, err)
	assert.Equal(t, []int64{2}, got)
	goruntime.KeepAlive(v)
}

func TestByteSize(t *testing.T) {
	assert.Equal(t, "512 B", byteSize(512))
	assert.Equal(t, "64.0 MiB", byteSize(64<<20))
	assert.Equal(t, "1.5 GiB", byteSize(3<<29))
}

func TestMemInfoCPU(t *testing.T) {
	_, _, err := cpuDevice(t).MemInfo()
	assert.ErrorContains(t, err, "CPU backend has no device memory")
}

// TestScratchRetainCPU: the CPU backend keeps no scratch, accepts a
// retention and does nothing with it, and refuses a negative one and a closed
// device. The GPU's retention is tested in devicetest/radixsort.
func TestScratchRetainCPU(t *testing.T) {
	d, err := Open(CPU)
	require.NoError(t, err)
	assert.Zero(t, d.ScratchRetain())
	assert.NoError(t, d.SetScratchRetain(1<<30))
	assert.Zero(t, d.ScratchRetain())
	assert.ErrorContains(t, d.SetScratchRetain(-1), "SetScratchRetain: negative size -1")
	require.NoError(t, d.Close())
	assert.ErrorIs(t, d.SetScratchRetain(0), ErrDeviceClosed)
	assert.Zero(t, d.ScratchRetain())
}

// TestTrackCounts: a handle tracked twice (the driver reused an address
// another goroutine has freed but not yet untracked) stays tracked until it
// is untracked twice.
func TestTrackCounts(t *testing.T) {
	d := cpuDevice(t)
	var set map[int]int
	track(d, &set, 7)
	track(d, &set, 7)
	untrack(d, &set, 7)
	assert.Contains(t, set, 7)
	untrack(d, &set, 7)
	assert.NotContains(t, set, 7)
	untrack(d, &set, 7) // no record: nothing happens
	assert.Empty(t, set)
}

// TestFreeAfter: FreeAfter leaves the slice unusable (on the CPU backend it
// is Free; devicetest's TestFreeAfter checks the memory on a GPU); a view cannot be freed, and a stream of another
// device is refused without freeing anything.
func TestFreeAfter(t *testing.T) {
	d := cpuDevice(t)
	s := mustFromHost(t, d, []int64{1, 2, 3})
	require.NoError(t, s.FreeAfter(nil))
	_, err := s.ToHost()
	require.ErrorIs(t, err, ErrFreed)
	require.ErrorIs(t, s.FreeAfter(nil), ErrFreed)

	s = mustFromHost(t, d, []int64{1, 2, 3})
	err = s.Range(0, 1).FreeAfter(nil)
	require.ErrorContains(t, err, "view made by Range")

	other := cpuDevice(t)
	st, err := other.NewStream()
	require.NoError(t, err)
	err = s.FreeAfter(st)
	require.ErrorContains(t, err, "FreeAfter: buffer 1 (of 1) is on another device than the stream")
	got, err := s.ToHost()
	require.NoError(t, err, "a refused FreeAfter frees nothing")
	assert.Equal(t, []int64{1, 2, 3}, got)
}
