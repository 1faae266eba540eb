package cuda

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkGPULaunch times one LaunchKernel call (one small kernel over 1024
// items on the legacy default stream), the host side of every gocccl call at
// small n, as bench/cub/tune/launch_tune.cu times the C forms of it. Each
// launch is timed alone, the stream synchronised every 64 launches so that
// the queue never fills; launch-ns is the median of those times.
func BenchmarkGPULaunch(b *testing.B) {
	ctx := gpuContext(b)
	k := loadTestKernels(b, ctx)
	const n = 1024
	p := upload(b, ctx, pattern(n, 3))
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		var args Args
		args.Ptr(p)
		args.Uint32(n)
		t0 := time.Now()
		err := ctx.LaunchKernel(k.addOne, Dim3{X: n / 256}, Dim3{X: 256}, 0, 0, &args)
		times = append(times, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if i%64 == 63 {
			if err := ctx.StreamSynchronize(0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	if err := ctx.StreamSynchronize(0); err != nil {
		b.Fatal(err)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "launch-ns")
}
