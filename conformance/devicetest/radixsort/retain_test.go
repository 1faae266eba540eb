package radixsort

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/runtime"
	"github.com/stretchr/testify/require"
)

// TestScratchRetain: a sort's scratch (the other half of its double buffer,
// 256 MiB here) stays in the device's pool after a synchronization while it
// fits ScratchRetain, so the next sort maps nothing; with SetScratchRetain(0)
// the synchronization gives it back to the driver; MemInfo gives it back
// either way. Free memory is read from the driver directly, since MemInfo
// itself trims the pool.
func TestScratchRetain(t *testing.T) {
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	defer gpu.Close()
	_, total, err := gpu.MemInfo()
	require.NoError(t, err)
	require.Equal(t, min(max(total/16, 32<<20), 8<<30), gpu.ScratchRetain(), "default retention")
	cdev, err := cuda.DeviceGet(gpu.Info().Ordinal)
	require.NoError(t, err)
	ctx, err := cuda.PrimaryContext(cdev)
	require.NoError(t, err)
	defer ctx.Release()
	driverFree := func() int64 {
		f, _, err := ctx.MemGetInfo()
		require.NoError(t, err)
		return int64(f)
	}

	const n = 1 << 26 // uint32: 256 MiB, and as much scratch
	keys := make([]uint32, n)
	r := rand.New(rand.NewPCG(7, 11))
	for i := range keys {
		keys[i] = r.Uint32()
	}
	want := slices.Clone(keys)
	slices.Sort(want)
	in, out := must(runtime.FromHost(gpu, keys)), must(runtime.Alloc[uint32](gpu, n))
	defer in.Free()
	defer out.Free()
	s := gpu.DefaultStream()
	sort := func() {
		require.NoError(t, KeysUint32.Run(s, in, out, runtime.RadixOptions{}))
		require.NoError(t, s.Synchronize())
	}

	_, _, err = gpu.MemInfo() // trims the pool: the baseline holds no scratch
	require.NoError(t, err)
	base := driverFree()
	sort()
	kept := base - driverFree()
	t.Logf("kept after a sort of 2^26 keys and a synchronization: %d MiB (retention %d MiB)", kept>>20, gpu.ScratchRetain()>>20)
	require.GreaterOrEqual(t, kept, int64(n*4), "the sort's scratch went back to the driver at the synchronization")
	sort() // reuses the pool's memory: no more is taken
	require.LessOrEqual(t, base-driverFree(), kept+(2<<20), "a second sort took more memory than the first kept")
	got, err := out.ToHost()
	require.NoError(t, err)
	require.Equal(t, want, got)

	_, _, err = gpu.MemInfo()
	require.NoError(t, err)
	require.Less(t, base-driverFree(), int64(64<<20), "MemInfo did not give the pool's memory back")

	require.NoError(t, gpu.SetScratchRetain(0))
	require.Zero(t, gpu.ScratchRetain())
	sort()
	require.Less(t, base-driverFree(), int64(64<<20), "with SetScratchRetain(0) the synchronization kept the scratch")
	require.Error(t, gpu.SetScratchRetain(-1))
}
