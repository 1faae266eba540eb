package segmented

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestGPUTiming times the instances through the Go API with CUDA events
// (runtime.Stream.Time), as bench/cub/segmented.cu times CUB and our
// kernels: median of 25 calls after warm-up, inputs rotated over buffers
// that together exceed the L2 cache. It prints TSV rows
// gocccl<TAB>Algorithm<TAB>type<TAB>n<TAB>median_us<TAB>bytes_moved.
// It runs only with GOCCCL_BENCH=1 and a GPU.
func TestGPUTiming(t *testing.T) {
	if os.Getenv("GOCCCL_BENCH") == "" {
		t.Skip("set GOCCCL_BENCH=1 to time on the GPU")
	}
	gpu := devcheck.OpenGPU(t)
	s, err := gpu.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for _, lg := range []int{10, 16, 20, 24, 28} {
		n := 1 << lg
		segs := max(1, n/1024)
		copies := max(2, min(8, (256<<20)/(4*n)))
		ins := make([]*runtime.Slice[uint32], copies)
		fins := make([]*runtime.Slice[float32], copies)
		for i := range ins {
			ins[i], err = runtime.Alloc[uint32](gpu, n)
			require.NoError(t, err)
			defer ins[i].Free()
			fins[i], err = runtime.Alloc[float32](gpu, n)
			require.NoError(t, err)
			defer fins[i].Free()
		}
		offs := make([]int64, segs+1)
		for i := range offs {
			offs[i] = int64(min(n, i*1024))
		}
		off := devcheck.Upload(t, gpu, offs)
		outU := devcheck.Upload(t, gpu, make([]uint32, segs))
		outF := devcheck.Upload(t, gpu, make([]float32, segs))
		outD := devcheck.Upload(t, gpu, make([]float64, 1))
		segBytes := 4*n + 16*segs + 4*segs
		row := func(alg, typ string, bytes int, run func(i int) error) {
			for i := range 3 {
				require.NoError(t, run(i))
			}
			var ts []time.Duration
			for i := range 25 {
				d, err := s.Time(func() error { return run(i) })
				require.NoError(t, err)
				ts = append(ts, d)
			}
			slices.Sort(ts)
			fmt.Printf("gocccl\t%s\t%s\t%d\t%.2f\t%d\n", alg, typ, n, float64(ts[len(ts)/2].Nanoseconds())/1e3, bytes)
		}
		b, e := off.Range(0, segs), off.Range(1, segs+1)
		row("SegmentedReduce(max)", "uint32", segBytes, func(i int) error {
			return SegMaxUint32.Run(s, ins[i%copies], b, e, outU, 0)
		})
		row("SegmentedReduce(sum)", "float32", segBytes, func(i int) error {
			return SegSumFloat32.Run(s, fins[i%copies], b, e, outF, 0)
		})
		row("TransformReduce(square,sum)", "float32", 4*n, func(i int) error {
			return SumSquares.Run(s, fins[i%copies], outD, 0)
		})
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = uint32(i / 7)
		}
		dk := devcheck.Upload(t, gpu, keys)
		uk, agg := devcheck.Upload(t, gpu, make([]uint32, n)), devcheck.Upload(t, gpu, make([]float32, n))
		cnt := devcheck.Upload(t, gpu, []int64{0})
		runs := (n + 6) / 7
		row("ReduceByKey(sum)", "float32", 8*n+8*runs, func(i int) error {
			return ByKeySumFloat32.Run(s, dk, fins[i%copies], uk, agg, cnt)
		})
		diff := devcheck.Upload(t, gpu, make([]float32, n))
		row("AdjacentDifference", "float32", 8*n, func(i int) error {
			return DiffFloat32.Run(s, fins[i%copies], diff)
		})
	}
}
