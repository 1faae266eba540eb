package radixsort

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

// TimeSort returns the median device time of runs calls of sort after two
// warm-up calls, each measured with CUDA events on d's default stream (wall
// clock on the CPU backend).
func TimeSort(d *runtime.Device, runs int, sort func(s *runtime.Stream) error) (time.Duration, error) {
	s := d.DefaultStream()
	var ts []time.Duration
	for i := 0; i < runs+2; i++ {
		dt, err := s.Time(func() error { return sort(s) })
		if err != nil {
			return 0, err
		}
		if i >= 2 {
			ts = append(ts, dt)
		}
	}
	slices.Sort(ts)
	return ts[len(ts)/2], nil
}

// TestGoAPITimes prints TSV rows "gocccl-go<TAB>Algorithm<TAB>type<TAB>n<TAB>
// median_us<TAB>bytes_moved" for the Go API calls at the sizes of
// bench/cub/radix.cu (GPU only; not in -short).
func TestGoAPITimes(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gpu := devcheck.OpenGPU(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, lg := range []int{20, 24, 28} {
		n := 1 << lg
		k32 := make([]uint32, n)
		k64 := make([]uint64, n)
		for i := range k32 {
			k32[i], k64[i] = r.Uint32(), r.Uint64()
		}
		a32, b32 := must(runtime.FromHost(gpu, k32)), must(runtime.Alloc[uint32](gpu, n))
		a64, b64 := must(runtime.FromHost(gpu, k64)), must(runtime.Alloc[uint64](gpu, n))
		v1, v2 := must(runtime.FromHost(gpu, k32)), must(runtime.Alloc[uint32](gpu, n))
		row := func(alg, typ string, bytes int, f func(s *runtime.Stream) error) {
			dt, err := TimeSort(gpu, 20, f)
			require.NoError(t, err)
			fmt.Printf("gocccl-go\t%s\t%s\t%d\t%.1f\t%d\n", alg, typ, n, float64(dt.Nanoseconds())/1e3, bytes)
		}
		o := runtime.RadixOptions{}
		row("SortKeys", "uint32", 2*4*n, func(s *runtime.Stream) error { return KeysUint32.Run(s, a32, b32, o) })
		row("SortKeys", "uint64", 2*8*n, func(s *runtime.Stream) error { return KeysUint64.Run(s, a64, b64, o) })
		row("SortPairs", "uint32", 2*8*n, func(s *runtime.Stream) error { return PairsUint32.Run(s, a32, b32, v1, v2, o) })
		db := runtime.NewDoubleBuffer(a32, b32)
		row("SortKeysDoubleBuffer", "uint32", 2*4*n, func(s *runtime.Stream) error { return KeysUint32.RunDoubleBuffer(s, db, o) })
		for _, s := range []interface{ Free() error }{a32, b32, a64, b64, v1, v2} {
			s.Free()
		}
	}
}

// BenchmarkRadixSortKeysUint32 times RadixSortKeys[uint32] through the Go
// API on the GPU (CUDA events), reported as ns/op of device time.
func BenchmarkRadixSortKeysUint32(b *testing.B) {
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		b.Skipf("no CUDA GPU: %v", err)
	}
	defer gpu.Close()
	for _, lg := range []int{20, 24, 28} {
		n := 1 << lg
		b.Run(fmt.Sprintf("n=2^%d", lg), func(b *testing.B) {
			keys := make([]uint32, n)
			r := rand.New(rand.NewPCG(1, 1))
			for i := range keys {
				keys[i] = r.Uint32()
			}
			in, out := must(runtime.FromHost(gpu, keys)), must(runtime.Alloc[uint32](gpu, n))
			defer in.Free()
			defer out.Free()
			s := gpu.DefaultStream()
			var total time.Duration
			for b.Loop() {
				dt, err := s.Time(func() error { return KeysUint32.Run(s, in, out, runtime.RadixOptions{}) })
				if err != nil {
					b.Fatal(err)
				}
				total += dt
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "device-ns/op")
			b.ReportMetric(float64(n)*float64(b.N)/total.Seconds()/1e9, "Gkeys/s")
		})
	}
}
