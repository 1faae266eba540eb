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
//	gpubench [-out FILE] [-reps 20] [-sizes 10,16,20,24,28] [-run REGEXP] [-skip FILE] [-cpuprofile FILE]
//
// -skip resumes a run that was cut off: it leaves out the first-call rows
// and every case whose algorithm/type/n has a row in FILE (an earlier
// run's -out), so that a second call writes only what the first did not.
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
	skipFile := flag.String("skip", "", "leave out the first calls and the cases that have rows in this TSV (an earlier run's -out)")
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
	var skip map[string]bool
	if *skipFile != "" {
		if skip, err = readCases(*skipFile); err != nil {
			log.Fatal(err)
		}
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
	failed, err := run(bw, lg, max(*reps, 20), *warmup, re, skip, *seed)
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

// run times every case of lg's sizes that filter matches and skip does not
// hold (a nil skip runs the first calls too), writing rows to w.
func run(w *bufio.Writer, lg []int, reps, warmup int, filter *regexp.Regexp, skip map[string]bool, seed uint64) (failed int, err error) {
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
		if skip != nil {
			break // the earlier run measured them
		}
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
			key := fmt.Sprintf("%s/%s/%d", c.Algorithm, c.Type, c.N)
			if !filter.MatchString(key) || skip[key] {
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

// readCases returns the algorithm/type/n of every row of the TSV at path
// (comment and header lines left out): the cases an earlier run measured.
// A missing file is an error: a mistyped -skip would otherwise drop the
// first-call rows and rerun every case without a word.
func readCases(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-skip: %w", err)
	}
	cases := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "system\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 4 {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least 4 (system algorithm type n)", path, i+1, len(f))
		}
		cases[f[1]+"/"+f[2]+"/"+f[3]] = true
	}
	return cases, nil
}
