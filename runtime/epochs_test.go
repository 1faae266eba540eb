package runtime

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/cuda"
)

func TestEpochStateBytes(t *testing.T) {
	for _, c := range []struct {
		size, tiles, bytes int
		ok                 bool
	}{
		{0, 10, (128 + 10) * 8, true}, // a zero-size Go type is one byte in C++
		{1, 10, (128 + 10) * 8, true},
		{4, 10, (128 + 10) * 8, true},
		{5, 10, (128 + 20) * 8, true},
		{8, 3, (128 + 6) * 8, true},
		{12, 3, (128 + 9) * 8, true},
		{16, 3, (128 + 12) * 8, true},
		{17, 3, 0, false},
		{24, 3, 0, false},
	} {
		bytes, ok := epochStateBytes(c.tiles, c.size)
		require.Equal(t, c.ok, ok, "size %d", c.size)
		require.Equal(t, c.bytes, bytes, "size %d, %d tiles", c.size, c.tiles)
	}
}

// TestEpochTake follows the host protocol of epoch_tile_state.cuh through a
// sequence of direct calls: an init before the first use of any byte, then
// one epoch more per call with no init, a fresh init (epochs from 1) when a
// call needs more than the last init covered or the epochs run out, and
// never the reserved epochMax.
func TestEpochTake(t *testing.T) {
	var r epochRegion
	type call struct {
		bytes int
		epoch uint32
		init  bool
	}
	for i, c := range []call{
		{2048, 1, true},  // nothing initialized yet
		{2048, 2, false}, // the same states, the next epoch
		{1024, 3, false}, // fewer tiles: within what the init covered
		{4096, 1, true},  // more than the init covered: init, epochs restart
		{2048, 2, false},
		{4096, 3, false},
	} {
		epoch, init := r.take(c.bytes)
		require.Equal(t, c.epoch, epoch, "call %d", i)
		require.Equal(t, c.init, init, "call %d", i)
	}

	r.last = epochMax - 3
	for want := uint32(epochMax - 2); want < epochMax; want++ {
		epoch, init := r.take(1024)
		require.False(t, init)
		require.Equal(t, want, epoch)
	}
	epoch, init := r.take(1024) // epochMax is reserved: re-init instead
	require.True(t, init)
	require.Equal(t, uint32(1), epoch)
	require.Equal(t, 1024, r.ready, "the init covers the call's bytes")
	epoch, init = r.take(4096) // beyond the new init: another one
	require.True(t, init)
	require.Equal(t, uint32(1), epoch)
}

// TestEpochStatesCapture pins the graph rule of epochStates on a stream whose
// region is already large enough (no driver call on these paths): a call
// being captured initializes its range and takes the reserved epochMax,
// leaving the direct calls' counter alone, and the direct calls after it go
// on with their own epochs, also while a Graph holds the region.
func TestEpochStatesCapture(t *testing.T) {
	s := &Stream{}
	s.scratch.epochs = epochRegion{ptr: 0x1000, bytes: 1 << 20}
	take := func() lookBack {
		t.Helper()
		lb, err := s.epochStates(4096)
		require.NoError(t, err)
		require.NoError(t, lb.release())
		require.Equal(t, cuda.DevicePtr(0x1000), lb.ptr, "the stream's region")
		return lb
	}
	lb := take()
	require.Equal(t, uint32(1), lb.epoch)
	require.True(t, lb.init, "a new region is initialized first")
	lb = take()
	require.Equal(t, uint32(2), lb.epoch)
	require.False(t, lb.init)

	s.setCapturing(true)
	for range 2 {
		lb = take()
		require.Equal(t, uint32(epochMax), lb.epoch, "captured: the reserved epoch")
		require.True(t, lb.init, "captured: its own init on every replay")
		require.Equal(t, 4096, lb.bytes)
	}
	s.setCapturing(false)
	s.graphCaptured()
	lb = take()
	require.Equal(t, uint32(3), lb.epoch, "direct calls go on after the capture")
	require.False(t, lb.init, "replays leave only stale words: no init needed")
	s.graphClosed()
	require.Equal(t, 4096, s.scratch.epochs.ready)
}
