package histogram

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// benchSizes are the sizes of the GPU benchmark table (issue 12).
var benchSizes = []int{1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28}

// timeCalls reports the median device time of 25 calls of run (after
// warm-up) through the Go API, timed with CUDA events by Stream.Time, as
// the custom metric "median-us" (comparable with bench/cub/histogram.cu).
func timeCalls(b *testing.B, s *runtime.Stream, run func(i int) error) {
	b.Helper()
	for i := range 3 {
		require.NoError(b, run(i))
	}
	var ts []time.Duration
	for i := range max(25, b.N) {
		d, err := s.Time(func() error { return run(i) })
		require.NoError(b, err)
		ts = append(ts, d)
	}
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds())/1e3, "median-us")
}

// BenchmarkHistogramEven times 256-bin HistogramEven on uint32 and float32
// samples through the Go API; it needs a GPU.
func BenchmarkHistogramEven(b *testing.B) {
	d, err := runtime.OpenGPU(0)
	if err != nil {
		b.Skipf("no CUDA GPU: %v", err)
	}
	defer d.Close()
	s := d.DefaultStream()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range benchSizes {
		u := make([]uint32, n)
		f := make([]float32, n)
		for i := range u {
			u[i], f[i] = r.Uint32(), r.Float32()
		}
		// Two buffers of 1 GiB at 2^28 already exceed the L2 many times;
		// smaller sizes rotate over enough buffers to defeat it.
		nbuf := max(2, min(16, (200<<20)/(4*n)+1))
		us, fs := make([]*runtime.Slice[uint32], nbuf), make([]*runtime.Slice[float32], nbuf)
		for i := range nbuf {
			us[i] = devcheck.Upload(b, d, u)
			fs[i] = devcheck.Upload(b, d, f)
		}
		hist := devcheck.Upload(b, d, make([]int32, 256))
		b.Run(fmt.Sprintf("uint32/n=%d", n), func(b *testing.B) {
			timeCalls(b, s, func(i int) error { return EvenUint32.Run(s, us[i%nbuf], hist, 256, 0, 1<<32-1) })
		})
		b.Run(fmt.Sprintf("float32/n=%d", n), func(b *testing.B) {
			timeCalls(b, s, func(i int) error { return EvenFloat32.Run(s, fs[i%nbuf], hist, 256, 0, 1) })
		})
		for i := range nbuf {
			us[i].Free()
			fs[i].Free()
		}
	}
}
