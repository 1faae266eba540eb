package segmented

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// fixedOffsets returns the begin and end offsets of segments of m items
// over n, the last one short.
func fixedOffsets(n, m int) (begin, end []int64) {
	for lo := 0; lo < n; lo += m {
		begin = append(begin, int64(lo))
		end = append(end, int64(min(lo+m, n)))
	}
	return begin, end
}

// TestGPUAllocations: a segmented reduction on the GPU allocates nothing on
// the Go heap per call, through every dispatch RunWith picks with
// SegmentedReduceOptions.MaxSegmentSize (a thread, 8 lanes or a warp per
// segment, and a promise too long to change Run's choice), through Run's own
// dispatch (a block per segment) and through RunFixed, for 4-byte, 1-byte
// and struct items. Without a GPU it skips.
func TestGPUAllocations(t *testing.T) {
	d := devcheck.OpenGPU(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	r := devcheck.Rand(t)
	const n = 1 << 20
	f32s := make([]float32, n)
	u8s := make([]uint8, n)
	stats := make([]Stat, n)
	for i := range f32s {
		f32s[i] = float32(r.NormFloat64())
		u8s[i] = uint8(r.Uint32())
		stats[i] = Stat{Sum: float64(f32s[i]), Min: f32s[i], Count: 1}
	}
	f32, u8, st := devcheck.Upload(t, d, f32s), devcheck.Upload(t, d, u8s), devcheck.Upload(t, d, stats)
	outF32, outU8, outSt := devcheck.Alloc[float32](t, d, n), devcheck.Alloc[uint8](t, d, n), devcheck.Alloc[Stat](t, d, n)
	type offsets struct{ begin, end *runtime.Slice[int64] }
	segs := map[int]offsets{}
	for _, m := range []int{16, 100, 500, 4000, 100_000} {
		b, e := fixedOffsets(n, m)
		segs[m] = offsets{devcheck.Upload(t, d, b), devcheck.Upload(t, d, e)}
	}
	with := func(m int) runtime.SegmentedReduceOptions { return runtime.SegmentedReduceOptions{MaxSegmentSize: m} }
	calls := []struct {
		name string
		run  func() error
	}{
		{"RunWith(MaxSegmentSize 16) float32: a thread a segment", func() error {
			return SegSumFloat32.RunWith(s, f32, segs[16].begin, segs[16].end, outF32, 0, with(16))
		}},
		{"RunWith(MaxSegmentSize 128) float32: 8 lanes a segment", func() error {
			return SegSumFloat32.RunWith(s, f32, segs[100].begin, segs[100].end, outF32, 0, with(128))
		}},
		{"RunWith(MaxSegmentSize 512) float32: a warp a segment", func() error {
			return SegMaxFloat32.RunWith(s, f32, segs[500].begin, segs[500].end, outF32, 0, with(512))
		}},
		{"RunWith(MaxSegmentSize 4096) float32: Run's choice", func() error {
			return SegSumFloat32.RunWith(s, f32, segs[4000].begin, segs[4000].end, outF32, 0, with(4096))
		}},
		{"RunWith(zero options) float32", func() error {
			return SegSumFloat32.RunWith(s, f32, segs[100_000].begin, segs[100_000].end, outF32, 0, runtime.SegmentedReduceOptions{})
		}},
		{"Run float32", func() error { return SegSumFloat32.Run(s, f32, segs[500].begin, segs[500].end, outF32, 0) }},
		{"RunWith(MaxSegmentSize 16) uint8", func() error {
			return SegSumUint8.RunWith(s, u8, segs[16].begin, segs[16].end, outU8, 0, with(16))
		}},
		{"RunWith(MaxSegmentSize 512) uint8", func() error {
			return SegSumUint8.RunWith(s, u8, segs[500].begin, segs[500].end, outU8, 0, with(512))
		}},
		{"RunWith(MaxSegmentSize 128) Stat", func() error {
			return SegStat.RunWith(s, st, segs[100].begin, segs[100].end, outSt, Stat{Min: 1e30}, with(128))
		}},
		{"RunWith(MaxSegmentSize 4096) Stat", func() error {
			return SegStat.RunWith(s, st, segs[4000].begin, segs[4000].end, outSt, Stat{Min: 1e30}, with(4096))
		}},
		{"RunFixed(16) float32", func() error { return SegSumFloat32.RunFixed(s, f32, 16, outF32, 0) }},
		{"RunFixed(1000) float32", func() error { return SegSumFloat32.RunFixed(s, f32, 1000, outF32, 0) }},
	}
	for _, c := range calls {
		devcheck.RequireNoAllocs(t, 50, "SegmentedReduce "+c.name, c.run)
	}
	require.NoError(t, s.Synchronize())
}
