// Command gpubench times gocccl's algorithms through the Go API (host
// dispatch, argument packing and launch included) with CUDA events, and
// prints one TSV row per measurement:
//
//	system  algorithm  type  n  median_us  bytes_moved  [note]
//
// the format of bench/cub and bench/py, which bench/report turns into
// RESULTS.md. Each algorithm family registers its cases from its own file
// (reduce.go, copy.go, …): see bench/README.md.
//
// Usage:
//
//	gpubench [-out FILE] [-reps 20] [-sizes 10,16,20,24,28] [-run REGEXP] [-cpuprofile FILE]
//
// -cpuprofile writes a CPU profile of the whole run (go tool pprof reads it
// with the same binary): run one small case with many -reps to see where a
// call's host side goes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/runtime"
)

func main() {
	exit := 0
	defer func() { os.Exit(exit) }() // after the deferred profile stop and closes
	out := flag.String("out", "", "write the TSV here instead of standard output")
	reps := flag.Int("reps", 20, "timed runs per case (at least 20); the median is reported")
	warmup := flag.Int("warmup", 3, "untimed runs before timing")
	sizes := flag.String("sizes", "10,16,20,24,28", "log2 of the sizes to run")
	filter := flag.String("run", "", "run only cases whose algorithm/type/n matches this regular expression")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gpubench: ")
	var lg []int
	for _, s := range strings.Split(*sizes, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 0 || k > 32 {
			log.Fatalf("bad -sizes entry %q", s)
		}
		lg = append(lg, k)
	}
	re, err := regexp.Compile(*filter)
	if err != nil {
		log.Fatal(err)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				log.Print(err)
			}
		}()
	}
	bw := bufio.NewWriter(w)
	failed, err := run(bw, lg, max(*reps, 20), *warmup, re, *seed)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err == nil && failed > 0 {
		err = fmt.Errorf("%d case(s) failed their check or run; see the FAILED rows", failed)
	}
	if err != nil {
		log.Print(err)
		exit = 1
	}
}

func run(w *bufio.Writer, lg []int, reps, warmup int, filter *regexp.Regexp, seed uint64) (failed int, err error) {
	dev, err := runtime.OpenGPU(0)
	if err != nil {
		return 0, err
	}
	defer dev.Close()
	cdev, err := cuda.DeviceGet(dev.Info().Ordinal)
	if err != nil {
		return 0, err
	}
	ctx, err := cuda.PrimaryContext(cdev)
	if err != nil {
		return 0, err
	}
	defer ctx.Release()
	l2, err := cdev.Attribute(cuda.AttrL2CacheSize)
	if err != nil {
		return 0, err
	}
	env := &Env{Dev: dev, Stream: dev.DefaultStream(), Ctx: ctx, L2: l2, Seed: seed}
	fmt.Fprintf(w, "# gpubench: %s, L2 %d MiB, median of %d runs, seed %d\n", dev, l2>>20, reps, seed)
	fmt.Fprintln(w, "system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\tnote")
	for _, fc := range firstCalls {
		rs, err := fc(env)
		if err != nil {
			return failed + 1, err
		}
		for _, r := range rs {
			r.Write(w)
		}
	}
	var sizes []int
	for _, k := range lg {
		sizes = append(sizes, 1<<k)
	}
	for _, fam := range families {
		for _, c := range fam(sizes) {
			if !filter.MatchString(fmt.Sprintf("%s/%s/%d", c.Algorithm, c.Type, c.N)) {
				continue
			}
			var t caseTimes
			res, bad := measureTimed(env, c, reps, warmup, &t)
			logCaseTimes(os.Stderr, c, t)
			if bad {
				failed++
			}
			res.Write(w)
			if hr, ok := res.hostRow(); ok {
				hr.Write(w)
			}
			if err := w.Flush(); err != nil {
				return failed, err
			}
		}
	}
	return failed, nil
}
