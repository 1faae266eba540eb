package nccl

import (
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"unsafe"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oneRank opens GPU 0's primary context and NCCL, or skips.
func oneRank(t *testing.T) *cuda.Context {
	t.Helper()
	if err := cuda.Init(); err != nil {
		t.Skip("no CUDA GPU: " + err.Error())
	}
	if _, err := Load(); err != nil {
		t.Skip("no NCCL: " + err.Error())
	}
	d, err := cuda.DeviceGet(0)
	require.NoError(t, err)
	ctx, err := cuda.PrimaryContext(d)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, ctx.Release()) })
	return ctx
}

// collectives runs every binding on a communicator of one rank: each
// collective then copies (sum of one, gather of one, broadcast from
// itself), and a send to itself arrives; the results are checked against
// the input on poisoned outputs.
func collectives(t *testing.T, ctx *cuda.Context, c Comm) {
	n, err := c.Count()
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	r, err := c.Rank()
	require.NoError(t, err)
	assert.Equal(t, 0, r)
	dev, err := c.Device()
	require.NoError(t, err)
	assert.Equal(t, int(ctx.Device()), dev)

	const count = 100_003
	rng := rand.New(rand.NewPCG(rand.Uint64(), 39))
	src := make([]int64, count)
	for i := range src {
		src[i] = int64(rng.Uint64())
	}
	bytes := count * 8
	send, err := ctx.MemAlloc(bytes)
	require.NoError(t, err)
	defer ctx.MemFree(send)
	recv, err := ctx.MemAlloc(bytes)
	require.NoError(t, err)
	defer ctx.MemFree(recv)
	st, err := ctx.StreamCreate(true)
	require.NoError(t, err)
	require.NoError(t, ctx.MemcpyHtoD(send, unsafe.Pointer(&src[0]), bytes))
	require.NoError(t, ctx.Synchronize())
	defer ctx.StreamDestroy(st)

	got := make([]int64, count)
	for name, run := range map[string]func() error{
		"AllReduce": func() error { return c.AllReduce(uint64(send), uint64(recv), count, Int64, Sum, uintptr(st)) },
		"AllGather": func() error { return c.AllGather(uint64(send), uint64(recv), count, Int64, uintptr(st)) },
		"Broadcast": func() error { return c.Broadcast(uint64(send), uint64(recv), count, Int64, 0, uintptr(st)) },
		"Send/Recv": func() error {
			if err := GroupStart(); err != nil {
				return err
			}
			if err := c.Send(uint64(send), count, Int64, 0, uintptr(st)); err != nil {
				return err
			}
			if err := c.Recv(uint64(recv), count, Int64, 0, uintptr(st)); err != nil {
				return err
			}
			return GroupEnd()
		},
	} {
		// Poisoned on st: a non-blocking stream does not wait for the
		// legacy default stream, where MemsetD8 would run.
		require.NoError(t, ctx.MemsetAsync(recv, 0xa5, 1, bytes, st), name)
		require.NoError(t, run(), name)
		require.NoError(t, ctx.StreamSynchronize(st), name)
		require.NoError(t, c.AsyncError(), name)
		require.NoError(t, ctx.MemcpyDtoHAsync(unsafe.Pointer(&got[0]), recv, bytes, st), name)
		require.NoError(t, ctx.StreamSynchronize(st), name)
		assert.Equal(t, src, got, name)
	}
	assert.Error(t, c.AllReduce(uint64(send), uint64(recv), -1, Int64, Sum, uintptr(st)))
}

// TestGPUInitAll: a one-process communicator over GPU 0 (ncclCommInitAll).
func TestGPUInitAll(t *testing.T) {
	ctx := oneRank(t)
	_, err := InitAll(nil)
	assert.ErrorContains(t, err, "no device")
	comms, err := InitAll([]int{int(ctx.Device())})
	require.NoError(t, err)
	require.Len(t, comms, 1)
	collectives(t, ctx, comms[0])
	require.NoError(t, comms[0].Destroy())
}

// TestGPUInitRank: the multi-process form with one rank: the unique id made
// by rank 0 and ncclCommInitRank on the thread where GPU 0's context is
// current.
func TestGPUInitRank(t *testing.T) {
	ctx := oneRank(t)
	id, err := GetUniqueID()
	require.NoError(t, err)
	assert.NotEqual(t, UniqueID{}, id)
	_, err = InitRank(1, id, 1)
	assert.ErrorContains(t, err, "rank 1 of 1 ranks")
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	require.NoError(t, ctx.SetCurrent())
	c, err := InitRank(1, id, 0)
	require.NoError(t, err)
	collectives(t, ctx, c)
	require.NoError(t, c.Destroy())
}
