package segsort

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

// timeSort returns the median device time of runs calls of sort after two
// warm-up calls, each measured with CUDA events on d's default stream.
func timeSort(d *runtime.Device, runs int, sort func(s *runtime.Stream) error) (time.Duration, error) {
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

// TestGoAPITimes prints TSV rows "gocccl-go<TAB>algorithm<TAB>uint32<TAB>n<TAB>
// median_us<TAB>bytes_moved" for uint32 keys and pairs in 1024-item
// segments and in one segment of 90% plus small ones, at 2^20, 2^24 and
// 2^28 (GPU only; not in -short). cub::DeviceSegmentedSort takes 20.8 ms for
// the 2^28 keys in 1024-item segments on the H200 (bench/cub/segsort.cu).
func TestGoAPITimes(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gpu := devcheck.OpenGPU(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, lg := range []int{20, 24, 28} {
		n := 1 << lg
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		kin, kout := must(runtime.FromHost(gpu, keys)), must(runtime.Alloc[uint32](gpu, n))
		vin, vout := must(runtime.FromHost(gpu, keys)), must(runtime.Alloc[uint32](gpu, n))
		off := make([]int64, 0, n/1024+1)
		for p := 0; p <= n; p += 1024 {
			off = append(off, int64(p))
		}
		huge := []int64{0, int64(n) * 9 / 10}
		for p := huge[1] + 1000; p < int64(n); p += 1000 {
			huge = append(huge, p)
		}
		huge = append(huge, int64(n))
		for _, l := range []struct {
			name string
			off  []int64
		}{{"1024", off}, {"one-huge", huge}} {
			d := must(runtime.FromHost(gpu, l.off))
			segs := len(l.off) - 1
			begin, end := d.Range(0, segs), d.Range(1, segs+1)
			o := runtime.SegmentedSortOptions{}
			row := func(alg string, bytes int, f func(s *runtime.Stream) error) {
				dt, err := timeSort(gpu, 20, f)
				require.NoError(t, err)
				fmt.Printf("gocccl-go\t%s_%s\tuint32\t%d\t%.1f\t%d\n", alg, l.name, n, float64(dt.Nanoseconds())/1e3, bytes)
			}
			row("segmented_sort_keys", 2*4*n, func(s *runtime.Stream) error { return KeysUint32.Run(s, kin, kout, begin, end, o) })
			row("segmented_sort_pairs", 2*8*n, func(s *runtime.Stream) error {
				return PairsUint32.Run(s, kin, kout, vin, vout, begin, end, o)
			})
			d.Free()
		}
		for _, s := range []interface{ Free() error }{kin, kout, vin, vout} {
			s.Free()
		}
	}
}
