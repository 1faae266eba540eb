package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"time"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/runtime"
)

// A Case is one line of the table: an algorithm over one element type at one
// size, through one system (gocccl unless System says otherwise).
type Case struct {
	System    string // "" means "gocccl"
	Algorithm string // shared with the other systems' rows: "reduce", "scan", "copy", …
	Type      string // Go name of the element type: "int32", "float64", …
	N         int
	Bytes     int64 // minimal bytes moved: inputs read once, outputs written once
	Note      string

	// Setup allocates and fills the inputs (Env.Buffers copies of them) and
	// returns the prepared instance. An error wrapping ErrSkip skips the
	// case with its reason; any other error is reported as a failure.
	Setup func(env *Env) (*Instance, error)
}

// Instance is a prepared Case.
type Instance struct {
	// Poison fills the outputs with a pattern no correct run leaves (may be nil).
	Poison func() error
	// Run enqueues one run over input copy i % copies on Env.Stream.
	Run func(i int) error
	// Check verifies the outputs of Run(0) once it has finished.
	Check func() error
	// Free releases what Setup allocated (may be nil).
	Free func()
}

// ErrSkip marks a case that cannot run here; its message says why.
var ErrSkip = errors.New("skipped")

// Env is what cases run with.
type Env struct {
	Dev    *runtime.Device
	Stream *runtime.Stream // the legacy default stream, as the C++ and Python benches use
	Ctx    *cuda.Context   // the device's primary context, for raw driver calls
	L2     int             // bytes of L2 cache
	Seed   uint64
}

// Buffers returns how many copies of an input of the given size to rotate
// over: enough for four L2s, at least two below that, at most 32.
func (e *Env) Buffers(bytes int64) int {
	want := 4 * int64(max(e.L2, 1<<20))
	if bytes >= want {
		return 1
	}
	return int(min(32, max(2, (want+bytes-1)/max(bytes, 1))))
}

var families []func(sizes []int) []Case
var firstCalls []func(env *Env) ([]Result, error)

// register adds a family of cases; each family's file calls it from init.
func register(f func(sizes []int) []Case) { families = append(families, f) }

// registerFirstCall adds host-side measurements made before any case runs,
// such as the first call in the process; their rows name the system
// "gocccl:first_call", "gocccl:per_call", ….
func registerFirstCall(f func(env *Env) ([]Result, error)) { firstCalls = append(firstCalls, f) }

// Result is one printed row.
type Result struct {
	System, Algorithm, Type string
	N                       int
	Micros                  float64 // NaN: skipped
	Bytes                   int64
	Note                    string
	// HostMicros is the median wall time of the timed Run calls alone, from
	// the call to its return (the enqueue, not the work): where it is close
	// to Micros, the call's host side, not the GPU, sets the time. NaN when
	// not measured; it is written as a row of its own (hostRow).
	HostMicros float64
}

// hostCallMax is the largest n whose host call time is reported: above it
// the GPU's work dwarfs any call.
const hostCallMax = 1 << 20

// hostRow returns r's host call time as a host-side measurement row
// ("SYSTEM:host_call"), and false when there is none to report.
func (r Result) hostRow() (Result, bool) {
	if math.IsNaN(r.HostMicros) || r.N > hostCallMax {
		return Result{}, false
	}
	return Result{System: r.System + ":host_call", Algorithm: r.Algorithm, Type: r.Type, N: r.N, Bytes: r.Bytes,
		Micros: r.HostMicros, HostMicros: math.NaN(), Note: "wall clock of the call alone, median of the timed runs"}, true
}

// Write prints r as a TSV row.
func (r Result) Write(w io.Writer) {
	us := "-"
	if !math.IsNaN(r.Micros) {
		us = fmt.Sprintf("%.2f", r.Micros)
	}
	fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%d", r.System, r.Algorithm, r.Type, r.N, us, r.Bytes)
	if r.Note != "" {
		fmt.Fprintf(w, "\t%s", sanitize(r.Note))
	}
	fmt.Fprintln(w)
}

var unsafeChars = regexp.MustCompile(`[\t\r\n]+`)

func sanitize(s string) string { return unsafeChars.ReplaceAllString(s, " ") }

// caseTimes is where one case's wall clock went: Setup (host inputs,
// oracle, uploads), Check (the first run's outputs read back and checked)
// and the whole case, timed runs included.
type caseTimes struct{ setup, check, total time.Duration }

// logCaseTimes writes a case's wall-clock line to standard error, so that
// a full run shows where its time goes:
//
//	gpubench: ALG/TYPE/N setup Xs check Ys total Zs
func logCaseTimes(w io.Writer, c Case, t caseTimes) {
	name := fmt.Sprintf("%s/%s/%d", c.Algorithm, c.Type, c.N)
	if c.System != "" {
		name = c.System + " " + name
	}
	fmt.Fprintf(w, "gpubench: %s setup %.3fs check %.3fs total %.3fs\n", name, t.setup.Seconds(), t.check.Seconds(), t.total.Seconds())
}

// measure runs one case: poison, run, check, warm up, then reps timed runs.
// It returns the row to print and whether the case failed (as opposed to
// being skipped or measured).
func measure(env *Env, c Case, reps, warmup int) (res Result, failed bool) {
	return measureTimed(env, c, reps, warmup, nil)
}

// measureTimed is measure that also fills times (when not nil) with where
// the case's wall clock went.
func measureTimed(env *Env, c Case, reps, warmup int, times *caseTimes) (res Result, failed bool) {
	if times != nil {
		start := time.Now()
		defer func() { times.total = time.Since(start) }()
	}
	res = Result{System: c.System, Algorithm: c.Algorithm, Type: c.Type, N: c.N, Bytes: c.Bytes, Note: c.Note, Micros: math.NaN(), HostMicros: math.NaN()}
	if res.System == "" {
		res.System = "gocccl"
	}
	fail := func(err error) (Result, bool) {
		if errors.Is(err, ErrSkip) {
			res.Note = err.Error()
			return res, false
		}
		res.Note = "FAILED: " + err.Error()
		return res, true
	}
	setupStart := time.Now()
	inst, err := c.Setup(env)
	if times != nil {
		times.setup = time.Since(setupStart)
	}
	if err != nil {
		return fail(err)
	}
	if inst.Free != nil {
		defer inst.Free()
	}
	if inst.Poison != nil {
		if err := inst.Poison(); err != nil {
			return fail(fmt.Errorf("poisoning outputs: %w", err))
		}
	}
	if err := inst.Run(0); err != nil {
		return fail(err)
	}
	if err := env.Stream.Synchronize(); err != nil {
		return fail(err)
	}
	checkStart := time.Now()
	err = inst.Check()
	if times != nil {
		times.check = time.Since(checkStart)
	}
	if err != nil {
		return fail(fmt.Errorf("check: %w", err))
	}
	for i := range warmup {
		if err := inst.Run(i + 1); err != nil {
			return fail(err)
		}
	}
	runs, host := make([]time.Duration, reps), make([]time.Duration, reps)
	for i := range runs {
		d, err := env.Stream.Time(func() error {
			start := time.Now()
			err := inst.Run(warmup + 1 + i)
			host[i] = time.Since(start)
			return err
		})
		if err != nil {
			return fail(err)
		}
		runs[i] = d
	}
	slices.Sort(runs)
	slices.Sort(host)
	res.Micros = float64(median(runs).Nanoseconds()) / 1e3
	res.HostMicros = float64(median(host).Nanoseconds()) / 1e3
	return res, false
}

func median(ds []time.Duration) time.Duration {
	n := len(ds)
	if n%2 == 1 {
		return ds[n/2]
	}
	return (ds[n/2-1] + ds[n/2]) / 2
}
