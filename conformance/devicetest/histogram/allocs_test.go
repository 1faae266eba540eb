package histogram

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestGPUHistogramSearchAllocations: a plain HistogramEven, HistogramRange,
// LowerBound or UpperBound call (Slices, no composition) makes no Go
// allocation on a GPU once its module is loaded, as the concurrency suite's
// TestGPUAllocations checks for the other algorithms: Run's samples and
// data became Inputs, and the histograms' launch arguments must stay on the
// stack (one sweep block, and the zeroing kernel with a grid-stride sweep).
func TestGPUHistogramSearchAllocations(t *testing.T) {
	d, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	defer d.Close()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	const n = 1 << 16
	r := devcheck.Rand(t)
	xs := make([]float32, n)
	keys := make([]uint32, n)
	for i := range xs {
		xs[i] = r.Float32() * 100
		keys[i] = uint32(i) * 3
	}
	samples, one := devcheck.Upload(t, d, xs), devcheck.Upload(t, d, xs[:7])
	sorted, hist := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, make([]int32, 64))
	levels := devcheck.Upload(t, d, []float32{0, 10, 20, 50, 100})
	out := devcheck.Upload(t, d, make([]int64, n))
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"HistogramEven[float32], one block", func() error { return EvenFloat32.Run(s, one, hist, 64, 0, 100) }},
		{"HistogramEven[float32], grid-stride", func() error { return EvenFloat32.Run(s, samples, hist, 64, 0, 100) }},
		{"HistogramRange[float32]", func() error { return RangeFloat32.Run(s, samples, hist, levels) }},
		{"LowerBound(LessUint32)", func() error { return LowerUint32.Run(s, sorted, sorted, out) }},
		{"UpperBound(LessUint32)", func() error { return UpperUint32.Run(s, sorted, sorted, out) }},
	} {
		devcheck.RequireNoAllocs(t, 50, c.name, c.run)
	}
	require.NoError(t, s.Synchronize())
}
