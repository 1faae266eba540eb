// Command firstcall times a process's first gocccl call, module load
// included, and what it is made of. Run it once per process: a module is
// loaded once, so only a fresh process measures a first call. It prints rows
// in the format of bench/gpubench (system, algorithm, type, n, median_us,
// bytes_moved, note), one sample each:
//
//	firstcall -pkg ops       # a Reduce of bench/ops (54 instances)
//	firstcall -pkg hundred   # a Reduce of bench/hundred (100 instances)
//	firstcall -pkg hundred -raw
//	firstcall -runs 11 -pkg hundred   # the median of 11 processes
//
// The default measures through the Go API: "driver_init" (cuInit, the primary
// context and the scratch pool: OpenGPU), then "first_call" (one Run and a
// Synchronize, from after OpenGPU) and "second_call". -raw measures the
// driver's side of a module's first load alone, with no gocccl call:
// "part_verify" (the sha256 of the part of the embedded image that holds the
// Reduce's kernels), "part_load" (cuModuleLoadData of that part),
// "get_function" (the Reduce's kernels) and "all_parts_load" (every part of
// the package, one after another: what loading the whole package costs). The
// driver's CUDA_MODULE_LOADING (LAZY by default, or EAGER) decides how much of
// a module a load prepares; run both to see the difference.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocccl/gocccl/bench/hundred"
	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/registry"
	"github.com/gocccl/gocccl/runtime"
)

// n is the length of the first call's input.
const n = 1024

// target is one generated package's first instance to call.
type target struct {
	path      string       // import path
	instances int          // instances in the package
	kernels   []string     // the Reduce's kernels, for -raw
	key       registry.Key // the Reduce's registration, for -raw
	typ       string
	call      func(d *runtime.Device, s *runtime.Stream) (func() error, func() error, error)
}

var targets = map[string]target{
	"ops": {
		path: "github.com/gocccl/gocccl/bench/ops", instances: 54, typ: "int32",
		kernels: []string{"gocccl_reduce_AddInt32_sweep", "gocccl_reduce_AddInt32_final"},
		key:     registry.NewKey(algo.Reduce, []any{ops.AddInt32}, reflect.TypeFor[int32]()),
		call: func(d *runtime.Device, s *runtime.Stream) (func() error, func() error, error) {
			return reduceCall(d, s, ops.SumInt32, func(i int) int32 { return int32(i*7 - 5) },
				func(a, b int32) int32 { return a + b })
		},
	},
	"hundred": {
		path: "github.com/gocccl/gocccl/bench/hundred", instances: 100, typ: "uint32",
		kernels: []string{"gocccl_reduce_SumMask0_sweep", "gocccl_reduce_SumMask0_final"},
		key:     registry.NewKey(algo.Reduce, []any{hundred.SumMask0}, reflect.TypeFor[uint32]()),
		call: func(d *runtime.Device, s *runtime.Stream) (func() error, func() error, error) {
			return reduceCall(d, s, hundred.Reduce0, func(i int) uint32 { return uint32(i)*2654435761 + 7 },
				hundred.SumMask0)
		},
	},
}

// reduceCall prepares a Reduce over n items made by gen and returns the call
// and a check of its result against op folded on the host.
func reduceCall[T comparable](d *runtime.Device, s *runtime.Stream, r *runtime.ReduceOp[T], gen func(int) T, op func(T, T) T) (run, check func() error, err error) {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = gen(i)
	}
	in, err := runtime.FromHost(d, xs)
	if err != nil {
		return nil, nil, err
	}
	out, err := runtime.Alloc[T](d, 1)
	if err != nil {
		return nil, nil, err
	}
	var zero T
	want := zero
	for _, x := range xs {
		want = op(want, x)
	}
	run = func() error {
		if err := r.Run(s, in, out, zero); err != nil {
			return err
		}
		return s.Synchronize()
	}
	check = func() error {
		got, err := out.ToHost()
		if err != nil {
			return err
		}
		if got[0] != want {
			return fmt.Errorf("reduce: got %v, want %v", got[0], want)
		}
		return nil
	}
	return run, check, nil
}

func main() {
	pkg := flag.String("pkg", "ops", "the generated package to call first: ops or hundred")
	raw := flag.Bool("raw", false, "time the driver's module load alone, without a gocccl call")
	runs := flag.Int("runs", 1, "run this many processes of one sample each and print the median of each measure")
	flag.Parse()
	t, ok := targets[*pkg]
	if !ok {
		log.Fatalf("firstcall: -pkg %q: want ops or hundred", *pkg)
	}
	var err error
	switch {
	case *runs > 1:
		err = medianOf(*runs, *pkg, *raw)
	case *raw:
		err = rawLoad(t)
	default:
		err = firstCall(t)
	}
	if err != nil {
		log.Fatalf("firstcall: %v", err)
	}
}

// medianOf runs this program runs times, one sample a process, and prints
// each measure's median in the children's format, their order kept.
func medianOf(runs int, pkg string, raw bool) error {
	var order []string
	rows := map[string][]string{}    // measure: the first child's row
	micros := map[string][]float64{} // measure: every child's sample
	for range runs {
		cmd := exec.Command(os.Args[0], "-pkg", pkg, "-raw="+strconv.FormatBool(raw))
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("a child process: %w", err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 7 {
				return fmt.Errorf("a child process printed %q", line)
			}
			us, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				return fmt.Errorf("a child process printed %q: %w", line, err)
			}
			if _, ok := rows[f[0]]; !ok {
				order = append(order, f[0])
				rows[f[0]] = f
			}
			micros[f[0]] = append(micros[f[0]], us)
		}
	}
	var b bytes.Buffer
	for _, m := range order {
		f, us := slices.Clone(rows[m]), micros[m]
		slices.Sort(us)
		f[4] = fmt.Sprintf("%.1f", us[len(us)/2])
		f[6] += fmt.Sprintf("; median of %d processes, %.1f to %.1f", len(us), us[0], us[len(us)-1])
		b.WriteString(strings.Join(f, "\t") + "\n")
	}
	_, err := os.Stdout.Write(b.Bytes())
	return err
}

// row prints one measurement in gpubench's format.
func row(measure string, t target, d time.Duration, note string) {
	fmt.Printf("gocccl:%s\treduce\t%s\t%d\t%.1f\t0\t%s\n", measure, t.typ, n, float64(d.Nanoseconds())/1e3, note)
}

func moduleNote(t target) string {
	size := 0
	if m := registry.ModuleOf(t.path); m != nil {
		for _, im := range m.Images() {
			size += len(im.Data)
		}
	}
	return fmt.Sprintf("package of %d instances, a %.1f MB image; CUDA_MODULE_LOADING=%q", t.instances, float64(size)/1e6, os.Getenv("CUDA_MODULE_LOADING"))
}

func firstCall(t target) error {
	start := time.Now()
	d, err := runtime.OpenGPU(0)
	if err != nil {
		return err
	}
	defer d.Close()
	opened := time.Since(start)
	s := d.DefaultStream()
	run, check, err := t.call(d, s)
	if err != nil {
		return err
	}
	start = time.Now()
	if err := run(); err != nil {
		return err
	}
	first := time.Since(start)
	if err := check(); err != nil {
		return err
	}
	start = time.Now()
	if err := run(); err != nil {
		return err
	}
	second := time.Since(start)
	if err := check(); err != nil {
		return err
	}
	note := moduleNote(t)
	row("driver_init", t, opened, "wall clock: OpenGPU (cuInit, primary context, scratch pool)")
	row("first_call", t, first, "wall clock after OpenGPU: Run and Synchronize, "+note)
	row("second_call", t, second, "wall clock: Run and Synchronize")
	return nil
}

func rawLoad(t target) error {
	if err := cuda.Init(); err != nil {
		return err
	}
	dev, err := cuda.DeviceGet(0)
	if err != nil {
		return err
	}
	ctx, err := cuda.PrimaryContext(dev)
	if err != nil {
		return err
	}
	defer ctx.Release()
	if err := ctx.Synchronize(); err != nil { // the context exists from here
		return err
	}
	major, err := dev.Attribute(cuda.AttrComputeCapabilityMajor)
	if err != nil {
		return err
	}
	minor, err := dev.Attribute(cuda.AttrComputeCapabilityMinor)
	if err != nil {
		return err
	}
	m := registry.ModuleOf(t.path)
	if m == nil {
		return fmt.Errorf("%s registered no module", t.path)
	}
	i, _, err := m.SelectImage(major, minor)
	if err != nil {
		return err
	}
	reg, err := registry.Lookup(t.key)
	if err != nil {
		return err
	}
	im := m.Images()[i]
	start := time.Now()
	part, err := m.PartImage(i, reg.Part)
	if err != nil {
		return err
	}
	verified := time.Since(start)
	start = time.Now()
	h, err := ctx.ModuleLoadData(part.Data)
	if err != nil {
		return err
	}
	loaded := time.Since(start)
	start = time.Now()
	for _, k := range t.kernels {
		if _, err := ctx.ModuleGetFunction(h, k); err != nil {
			return err
		}
	}
	got := time.Since(start)
	if err := ctx.ModuleUnload(h); err != nil {
		return err
	}
	// Every part, one after another: what loading the whole package costs.
	start = time.Now()
	var all []cuda.Module
	for k := range m.Parts() {
		p, err := m.PartImage(i, k)
		if err == nil {
			h, err = ctx.ModuleLoadData(p.Data)
		}
		if err != nil {
			return fmt.Errorf("part %d: %w", k, err)
		}
		all = append(all, h)
	}
	loadedAll := time.Since(start)
	for _, h := range all {
		if err := ctx.ModuleUnload(h); err != nil {
			return err
		}
	}
	note := moduleNote(t)
	row("part_verify", t, verified, fmt.Sprintf("sha256 of the Reduce's part of the %s image, %d of %d bytes", im.Target, len(part.Data), len(im.Data)))
	row("part_load", t, loaded, fmt.Sprintf("cuModuleLoadData of the Reduce's part (%d bytes), %s", len(part.Data), note))
	row("get_function", t, got, fmt.Sprintf("cuModuleGetFunction of the Reduce's %d kernels", len(t.kernels)))
	row("all_parts_load", t, loadedAll, fmt.Sprintf("cuModuleLoadData of all %d parts, one after another (verified above)", m.Parts()))
	return nil
}
