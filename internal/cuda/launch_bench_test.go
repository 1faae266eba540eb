package cuda

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkGPULaunch times one LaunchKernel call (one small kernel over 1024
// items on the legacy default stream), the host side of every gocccl call at
// small n, as bench/cub/tune/launch_tune.cu times the C forms of it; launch-ns
// is the median of the launches timed one by one.
//
//   - queued: launches back to back, the stream synchronised every 64 so
//     that the queue never fills;
//   - after-sync: each launch right after a StreamSynchronize (a blocking
//     cgo call), as in a timed loop or a call that waits for its result;
//   - after-sync-locked: the same with the goroutine locked to its thread.
func BenchmarkGPULaunch(b *testing.B) {
	ctx := gpuContext(b)
	k := loadTestKernels(b, ctx)
	const n = 1024
	p := upload(b, ctx, pattern(n, 3))
	launch := func(b *testing.B) time.Duration {
		var args Args
		args.Ptr(p)
		args.Uint32(n)
		t0 := time.Now()
		err := ctx.LaunchKernel(k.addOne, Dim3{X: n / 256}, Dim3{X: 256}, 0, 0, &args)
		d := time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	sync := func(b *testing.B) {
		if err := ctx.StreamSynchronize(0); err != nil {
			b.Fatal(err)
		}
	}
	report := func(b *testing.B, times []time.Duration) {
		b.StopTimer()
		sync(b)
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "launch-ns")
	}
	b.Run("queued", func(b *testing.B) {
		times := make([]time.Duration, 0, b.N)
		for i := range b.N {
			times = append(times, launch(b))
			if i%64 == 63 {
				sync(b)
			}
		}
		report(b, times)
	})
	afterSync := func(b *testing.B) {
		times := make([]time.Duration, 0, b.N)
		for range b.N {
			sync(b)
			times = append(times, launch(b))
		}
		report(b, times)
	}
	b.Run("after-sync", afterSync)
	b.Run("after-sync-locked", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		afterSync(b)
	})
}
