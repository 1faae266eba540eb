package selecttest

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

// Timings times Select (odd), Partition (odd), Unique, UniqueByKey and
// RunLengthEncode (runs of 7) over uint32 through the Go API, host dispatch
// included, with CUDA events at 2^10 … 2^28 items, and writes one TSV row
// per call as bench/cub/select.cu does:
//
//	gocccl	Select	uint32	n	median_us	bytes_moved
//
// Each row is the median of reps timed runs after one warm-up run.
func Timings(d *runtime.Device, reps int, w io.Writer) error {
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	for _, lg := range []int{10, 16, 20, 24, 28} {
		n := 1 << lg
		xs, runs := make([]uint32, n), make([]uint32, n)
		for i := range xs {
			xs[i] = uint32(i) * 2654435761
			runs[i] = uint32(i/7) * 2654435761
		}
		if err := timeAll(d, s, reps, xs, runs, w); err != nil {
			return fmt.Errorf("n = %d: %w", n, err)
		}
	}
	return nil
}

func timeAll(d *runtime.Device, s *runtime.Stream, reps int, xs, runs []uint32, w io.Writer) error {
	n := len(xs)
	in, err := runtime.FromHost(d, xs)
	if err != nil {
		return err
	}
	defer in.Free()
	rin, err := runtime.FromHost(d, runs)
	if err != nil {
		return err
	}
	defer rin.Free()
	out, err := runtime.Alloc[uint32](d, n)
	if err != nil {
		return err
	}
	defer out.Free()
	vout, err := runtime.Alloc[uint32](d, n)
	if err != nil {
		return err
	}
	defer vout.Free()
	lens, err := runtime.Alloc[int64](d, n)
	if err != nil {
		return err
	}
	defer lens.Free()
	count, err := runtime.Alloc[int64](d, 1)
	if err != nil {
		return err
	}
	defer count.Free()

	selected, uniq := int64(n/2), int64((n+6)/7)
	calls := []struct {
		name  string
		bytes int64
		run   func() error
	}{
		{"Select", int64(4*n) + 4*selected, func() error { return SelectUint32.Run(s, in, out, count) }},
		{"Partition", int64(8 * n), func() error { return PartitionUint32.Run(s, in, out, count) }},
		{"Unique", int64(4*n) + 4*uniq, func() error { return UniqueUint32.Run(s, rin, out, count) }},
		{"UniqueByKey", int64(8*n) + 8*uniq, func() error { return UniqueByKeyUint32Uint32.Run(s, rin, in, out, vout, count) }},
		{"RunLengthEncode", int64(4*n) + 12*uniq, func() error { return RLEUint32.Run(s, rin, out, lens, count) }},
	}
	for _, c := range calls {
		times := make([]time.Duration, 0, reps)
		for i := -1; i < reps; i++ {
			t, err := s.Time(c.run)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if i >= 0 {
				times = append(times, t)
			}
		}
		slices.Sort(times)
		fmt.Fprintf(w, "gocccl\t%s\tuint32\t%d\t%.2f\t%d\n", c.name, n, float64(times[len(times)/2].Nanoseconds())/1e3, c.bytes)
	}
	return nil
}
