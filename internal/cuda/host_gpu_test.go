package cuda

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGPUPinnedAsyncRoundTrip: bytes go host→device→device→host through
// page-locked memory (allocated and registered) on a non-blocking stream,
// a second stream waiting on the first through an event; memsets of each
// width land as the driver documents.
func TestGPUPinnedAsyncRoundTrip(t *testing.T) {
	ctx := gpuContext(t)
	rng := rand.New(rand.NewPCG(3, 4))
	const size = 1<<20 + 12
	p, err := ctx.MemHostAlloc(size)
	require.NoError(t, err)
	defer func() { assert.NoError(t, ctx.MemFreeHost(p)) }()
	src := unsafe.Slice((*byte)(p), size)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	reg := make([]byte, size)
	for i := range reg {
		reg[i] = ^src[i] // poison
	}
	require.NoError(t, ctx.MemHostRegister(unsafe.Pointer(&reg[0]), size))
	defer func() { assert.NoError(t, ctx.MemHostUnregister(unsafe.Pointer(&reg[0]))) }()

	s1, err := ctx.StreamCreate(true)
	require.NoError(t, err)
	s2, err := ctx.StreamCreate(true)
	require.NoError(t, err)
	ev, err := ctx.EventCreateFlags(EventDisableTiming)
	require.NoError(t, err)
	a, b := alloc(t, ctx, size), alloc(t, ctx, size)

	require.NoError(t, ctx.MemcpyHtoDAsync(a, p, size, s1))
	require.NoError(t, ctx.MemcpyDtoDAsync(b, a, size, s1))
	require.NoError(t, ctx.EventRecord(ev, s1))
	require.NoError(t, ctx.StreamWaitEvent(s2, ev))
	require.NoError(t, ctx.MemcpyDtoHAsync(unsafe.Pointer(&reg[0]), b, size, s2))
	require.NoError(t, ctx.StreamSynchronize(s2))
	done, err := ctx.EventQuery(ev)
	require.NoError(t, err)
	assert.True(t, done)
	idle, err := ctx.StreamQuery(s1)
	require.NoError(t, err)
	assert.True(t, idle)
	assert.True(t, bytes.Equal(src, reg), "pinned round trip differs")

	for _, c := range []struct {
		width int
		value uint32
		want  []byte
	}{{1, 0xa7, []byte{0xa7}}, {2, 0xbeef, []byte{0xef, 0xbe}}, {4, 0xdeadbeef, []byte{0xef, 0xbe, 0xad, 0xde}}} {
		n := 1000
		require.NoError(t, ctx.MemsetAsync(b, c.value, c.width, n, s1))
		require.NoError(t, ctx.MemcpyDtoHAsync(unsafe.Pointer(&reg[0]), b, n*c.width, s1))
		require.NoError(t, ctx.StreamSynchronize(s1))
		assert.Equal(t, bytes.Repeat(c.want, n), reg[:n*c.width], "width %d", c.width)
		assert.Equal(t, src[n*c.width], reg[n*c.width], "width %d wrote past its end (reg holds src since the round trip)", c.width)
	}
	require.Error(t, ctx.MemsetAsync(b, 0, 8, 1, s1))

	info, err := ctx.PointerGetInfo(a + 100)
	require.NoError(t, err)
	assert.Equal(t, MemoryDevice, info.Type)
	assert.Equal(t, int(ctx.Device()), info.Ordinal)
	assert.Equal(t, a, info.RangeStart)
	assert.GreaterOrEqual(t, info.RangeSize, uint64(size))
	_, err = ctx.PointerGetInfo(DevicePtr(0x10))
	require.Error(t, err, "an address CUDA never allocated")

	foreign, err := ForeignContext(ctx.Handle())
	require.NoError(t, err)
	assert.Equal(t, ctx.Device(), foreign.Device())
	assert.True(t, foreign.Foreign())
	require.NoError(t, foreign.Release())
	require.NoError(t, ctx.MemsetD8(a, 1, 1), "releasing a foreign context leaves it to its owner")

	require.NoError(t, ctx.EventDestroy(ev))
	require.NoError(t, ctx.StreamDestroy(s1))
	require.NoError(t, ctx.StreamDestroy(s2))
}
