package concurrency

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestGPUAllocations: a call on the GPU allocates nothing on the Go heap,
// for every algorithm this package declares (issue 12's target: the host
// side of a call costs launches, not garbage).
func TestGPUAllocations(t *testing.T) {
	d, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	defer d.Close()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 16
	i64 := devcheck.Upload(t, d, fill(n, func() int64 { return int64(r.Uint64() >> 8) }))
	f32 := devcheck.Upload(t, d, fill(n, func() float32 { return float32(r.NormFloat64()) }))
	u32 := devcheck.Upload(t, d, fill(n, r.Uint32))
	outI64, outF32, outU32 := devcheck.Upload(t, d, make([]int64, n)), devcheck.Upload(t, d, make([]float32, n)), devcheck.Upload(t, d, make([]uint32, n))
	count := devcheck.Upload(t, d, []int64{0})
	oneI64, oneF32 := outI64.Range(0, 1), outF32.Range(0, 1) // views made once: a view is a new Slice
	calls := []struct {
		name string
		run  func() error
	}{
		{"Reduce(Add)", func() error { return Sum.Run(s, i64, oneI64, 0) }},
		{"Reduce(MaxF)", func() error { return Max.Run(s, f32, oneF32, 0) }},
		{"InclusiveScan(Add)", func() error { return Prefix.Run(s, i64, outI64) }},
		{"Select(Even)", func() error { return Evens.Run(s, u32, outU32, count) }},
		{"UnaryTransform(Double)", func() error { return Twice.Run(s, f32, outF32) }},
		{"RadixSortKeys[uint32]", func() error { return Sort.Run(s, u32, outU32, runtime.RadixOptions{}) }},
	}
	for _, c := range calls {
		devcheck.RequireNoAllocs(t, 50, c.name, c.run)
	}
	require.NoError(t, s.Synchronize())
}
