// Command gpubench times gocccl's Reduce through the Go runtime (host
// dispatch, argument packing and launch included) with CUDA events, and prints
// it next to cub::DeviceReduce::Sum timed in the same run by
// bench/cub/reduce_bench.cu, whose table it reads with -cub.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

func main() {
	cubFile := flag.String("cub", "", "TSV from reduce_bench (type, n, cub µs) to compare with")
	reps := flag.Int("reps", 20, "timed runs per size; the median is reported")
	flag.Parse()
	if err := run(*cubFile, *reps); err != nil {
		log.Fatal(err)
	}
}

// cubKey names one row of reduce_bench's table.
type cubKey struct {
	typ string
	n   int
}

func run(cubFile string, reps int) error {
	dev, err := runtime.OpenGPU(0)
	if err != nil {
		return err
	}
	defer dev.Close()
	fmt.Println("device:", dev)
	cub, err := readCUB(cubFile)
	if err != nil {
		return err
	}
	if err := latency(dev); err != nil {
		return err
	}
	fmt.Printf("%-8s %12s %12s %12s %10s %8s\n", "type", "n", "gocccl µs", "cub µs", "GB/s", "ratio")
	for _, lg := range []int{10, 16, 20, 24, 28} {
		n := 1 << lg
		r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
		ints := make([]int32, n)
		floats := make([]float32, n)
		for i := range ints {
			ints[i] = int32(r.Uint32())
			floats[i] = float32(r.Float64()*2 - 1)
		}
		d, err := timeReduce(dev, ops.SumInt32, ints, reps, func(got int32) error {
			var want int32
			for _, v := range ints {
				want += v
			}
			if got != want {
				return fmt.Errorf("int32 sum over %d: got %d, want %d", n, got, want)
			}
			return nil
		})
		if err != nil {
			return err
		}
		report("int32", n, 4, d, cub)
		d, err = timeReduce(dev, ops.SumFloat32, floats, reps, func(got float32) error {
			var want, mag float64
			for _, v := range floats {
				want += float64(v)
				mag += math.Abs(float64(v))
			}
			if diff := math.Abs(float64(got) - want); diff > 1e-5*mag {
				return fmt.Errorf("float32 sum over %d: got %g, want %g (difference %g)", n, got, want, diff)
			}
			return nil
		})
		if err != nil {
			return err
		}
		report("float32", n, 4, d, cub)
	}
	return nil
}

// latency prints the first call's wall time (module load and kernel lookup
// included: there is no compiler to wait for) and the host cost of one
// call issued back to back with others at a small size.
func latency(dev *runtime.Device) error {
	const n, calls = 1024, 2000
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*7 - 5)
	}
	in, err := runtime.FromHost(dev, xs)
	if err != nil {
		return err
	}
	defer in.Free()
	out, err := runtime.Alloc[int32](dev, 1)
	if err != nil {
		return err
	}
	defer out.Free()
	s, err := dev.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	if err := ops.SumInt32.Run(s, in, out, 0); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	first := time.Since(start)
	start = time.Now()
	for i := 0; i < calls; i++ {
		if err := ops.SumInt32.Run(s, in, out, 0); err != nil {
			return err
		}
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	each := time.Since(start) / calls
	fmt.Printf("first Reduce call (module load included), n=%d: %v\n", n, first.Round(time.Microsecond))
	fmt.Printf("back-to-back Reduce calls, n=%d: %.2f µs each (wall clock over %d calls)\n\n", n, float64(each.Nanoseconds())/1e3, calls)
	return nil
}

func report(typ string, n, size int, d time.Duration, cub map[cubKey]float64) {
	us := float64(d.Nanoseconds()) / 1e3
	gbs := float64(n*size) / us / 1e3
	c, ok := cub[cubKey{typ, n}]
	if !ok {
		fmt.Printf("%-8s %12d %12.1f %12s %10.0f %8s\n", typ, n, us, "-", gbs, "-")
		return
	}
	fmt.Printf("%-8s %12d %12.1f %12.1f %10.0f %8.2f\n", typ, n, us, c, gbs, us/c)
}

// timeReduce checks one run against the host, then returns the median of
// reps event-timed runs, rotating over two copies of the input so that small
// sizes are not timed from a warm L2 alone.
func timeReduce[T any](dev *runtime.Device, op *runtime.ReduceOp[T], host []T, reps int, check func(T) error) (time.Duration, error) {
	var bufs [2]*runtime.Slice[T]
	for i := range bufs {
		b, err := runtime.FromHost(dev, host)
		if err != nil {
			return 0, err
		}
		defer b.Free()
		bufs[i] = b
	}
	out, err := runtime.Alloc[T](dev, 1)
	if err != nil {
		return 0, err
	}
	defer out.Free()
	s, err := dev.NewStream()
	if err != nil {
		return 0, err
	}
	defer s.Close()
	var zero T
	if err := op.Run(s, bufs[0], out, zero); err != nil {
		return 0, err
	}
	res, err := out.ToHost()
	if err != nil {
		return 0, err
	}
	if err := check(res[0]); err != nil {
		return 0, err
	}
	for i := 0; i < 3; i++ { // warm-up
		if err := op.Run(s, bufs[i%2], out, zero); err != nil {
			return 0, err
		}
	}
	times := make([]time.Duration, reps)
	for i := range times {
		d, err := s.Time(func() error { return op.Run(s, bufs[i%2], out, zero) })
		if err != nil {
			return 0, err
		}
		times[i] = d
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// readCUB reads lines "type<TAB>n<TAB>microseconds"; lines starting with '#'
// are comments. An empty name means no comparison.
func readCUB(name string) (map[cubKey]float64, error) {
	m := map[cubKey]float64{}
	if name == "" {
		return m, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s: malformed line %q", name, line)
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, line, err)
		}
		us, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, line, err)
		}
		m[cubKey{fields[0], n}] = us
	}
	return m, sc.Err()
}
