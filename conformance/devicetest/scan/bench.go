package scan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

// BenchRow is one timing: the median of reps event-timed calls of one
// algorithm over n elements through the Go API, host dispatch included.
type BenchRow struct {
	Algorithm string // "InclusiveScan", "ExclusiveScan", "InclusiveScanByKey" or "ExclusiveScanByKey"
	Type      string // of the values: "uint32" or "float32"
	N         int
	Median    time.Duration
	Bytes     int64 // bytes read and written: 2 × n × 4, by key 3 × n × 4
}

// TSV formats r as bench/cub/scan.cu prints CUB's rows, with "gocccl" first:
// gocccl, algorithm, type, n, median µs, bytes moved.
func (r BenchRow) TSV() string {
	return fmt.Sprintf("gocccl\t%s\t%s\t%d\t%.2f\t%d", r.Algorithm, r.Type, r.N, float64(r.Median.Nanoseconds())/1e3, r.Bytes)
}

// BenchSizes are the element counts of the scan benchmark, as in
// bench/cub/scan.cu.
var BenchSizes = []int{1 << 10, 1 << 16, 1 << 20, 1 << 24, 1 << 28}

// Bench times InclusiveScan and ExclusiveScan of uint32 and float32 sums on
// d at each size, then the scans by key over uint32 keys in runs of mean
// length 7 (as bench/cub/scan.cu): after one warm-up call, reps calls each
// timed with CUDA events (Stream.Time), over three input buffers in
// rotation, and reports the medians. Results are checked against a
// sequential loop (uint32 exactly, float32 by its last element).
func Bench(d *runtime.Device, sizes []int, reps int) ([]BenchRow, error) {
	s, err := d.NewStream()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var rows []BenchRow
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		us := make([]uint32, n)
		fs := make([]float32, n)
		for i := range us {
			us[i] = r.Uint32() >> 8
			fs[i] = float32(r.Float64())
		}
		for _, b := range []struct {
			alg, typ string
			run      func() (time.Duration, error)
		}{
			{"InclusiveScan", "uint32", func() (time.Duration, error) {
				return benchOne(s, us, reps, func(in, out *runtime.Slice[uint32]) error { return InclAddUint32.Run(s, in, out) }, checkSum(us, true))
			}},
			{"ExclusiveScan", "uint32", func() (time.Duration, error) {
				return benchOne(s, us, reps, func(in, out *runtime.Slice[uint32]) error { return ExclAddUint32.Run(s, in, out, 0) }, checkSum(us, false))
			}},
			{"InclusiveScan", "float32", func() (time.Duration, error) {
				return benchOne(s, fs, reps, func(in, out *runtime.Slice[float32]) error { return InclAddFloat32.Run(s, in, out) }, checkLast(fs))
			}},
			{"ExclusiveScan", "float32", func() (time.Duration, error) {
				return benchOne(s, fs, reps, func(in, out *runtime.Slice[float32]) error { return ExclAddFloat32.Run(s, in, out, 0) }, nil)
			}},
		} {
			m, err := b.run()
			if err != nil {
				return rows, fmt.Errorf("%s %s n=%d: %w", b.alg, b.typ, n, err)
			}
			rows = append(rows, BenchRow{b.alg, b.typ, n, m, 2 * int64(n) * 4})
		}
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 11))
		keys := make([]uint32, n)
		us := make([]uint32, n)
		fs := make([]float32, n)
		var k uint32
		for i := range keys {
			if r.IntN(7) == 0 {
				k++
			}
			keys[i], us[i], fs[i] = k, r.Uint32()>>22, float32(r.Float64())
		}
		kin, err := runtime.FromHost(d, keys)
		if err != nil {
			return rows, err
		}
		for _, b := range []struct {
			alg, typ string
			run      func() (time.Duration, error)
		}{
			{"InclusiveScanByKey", "uint32", func() (time.Duration, error) {
				return benchOne(s, us, reps, func(in, out *runtime.Slice[uint32]) error { return InclByKeyU32AddUint32.Run(s, kin, in, out) }, nil)
			}},
			{"ExclusiveScanByKey", "uint32", func() (time.Duration, error) {
				return benchOne(s, us, reps, func(in, out *runtime.Slice[uint32]) error { return ExclByKeyU32AddUint32.Run(s, kin, in, out, 0) }, nil)
			}},
			{"InclusiveScanByKey", "float32", func() (time.Duration, error) {
				return benchOne(s, fs, reps, func(in, out *runtime.Slice[float32]) error { return InclByKeyU32AddFloat32.Run(s, kin, in, out) }, nil)
			}},
			{"ExclusiveScanByKey", "float32", func() (time.Duration, error) {
				return benchOne(s, fs, reps, func(in, out *runtime.Slice[float32]) error { return ExclByKeyU32AddFloat32.Run(s, kin, in, out, 0) }, nil)
			}},
		} {
			m, err := b.run()
			if err != nil {
				kin.Free()
				return rows, fmt.Errorf("%s %s n=%d: %w", b.alg, b.typ, n, err)
			}
			rows = append(rows, BenchRow{b.alg, b.typ, n, m, 3 * int64(n) * 4})
		}
		kin.Free()
	}
	return rows, nil
}

// benchOne times call over three copies of xs in rotation and checks the
// last output with check (when not nil).
func benchOne[T any](s *runtime.Stream, xs []T, reps int, call func(in, out *runtime.Slice[T]) error, check func([]T) error) (time.Duration, error) {
	d := s.Device()
	var ins []*runtime.Slice[T]
	defer func() {
		for _, in := range ins {
			in.Free()
		}
	}()
	for range 3 {
		in, err := runtime.FromHost(d, xs)
		if err != nil {
			return 0, err
		}
		ins = append(ins, in)
	}
	out, err := runtime.Alloc[T](d, len(xs))
	if err != nil {
		return 0, err
	}
	defer out.Free()
	if err := call(ins[0], out); err != nil { // warm-up: module load
		return 0, err
	}
	times := make([]time.Duration, reps)
	for i := range times {
		in := ins[i%len(ins)]
		if times[i], err = s.Time(func() error { return call(in, out) }); err != nil {
			return 0, err
		}
	}
	if check != nil {
		if err := call(ins[0], out); err != nil {
			return 0, err
		}
		got, err := out.ToHost()
		if err != nil {
			return 0, err
		}
		if err := check(got); err != nil {
			return 0, err
		}
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

func checkSum(xs []uint32, inclusive bool) func([]uint32) error {
	return func(got []uint32) error {
		var acc uint32
		for i, v := range xs {
			if !inclusive && got[i] != acc {
				return fmt.Errorf("element %d: got %d, want %d", i, got[i], acc)
			}
			acc += v
			if inclusive && got[i] != acc {
				return fmt.Errorf("element %d: got %d, want %d", i, got[i], acc)
			}
		}
		return nil
	}
}

func checkLast(xs []float32) func([]float32) error {
	return func(got []float32) error {
		if len(xs) == 0 {
			return nil
		}
		var sum float64
		for _, v := range xs {
			sum += float64(v)
		}
		last := float64(got[len(got)-1])
		if d := last - sum; d > 1e-4*sum || -d > 1e-4*sum {
			return fmt.Errorf("last element %g, want %g", last, sum)
		}
		return nil
	}
}
