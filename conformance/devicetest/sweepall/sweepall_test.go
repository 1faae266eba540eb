package sweepall

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	dt "github.com/gocccl/gocccl/conformance/devicetest"
	"github.com/gocccl/gocccl/runtime"
)

var (
	flagMiB    = flag.Int64("sweepall.mib", 64, "MiB of a state's largest buffer (at least 1)")
	flagStates = flag.Int("sweepall.states", 0, "states to run (0: max(300, twice the table), so that every entry runs freed and dropped)")
	flagEvery  = flag.Int("sweepall.every", 25, "log progress every this many states")
	flagRun    = flag.String("sweepall.run", "", "run only the entries whose \"algorithm types\" matches this regular expression")
	flagSeed   = flag.Uint64("sweepall.seed", 0, "random seed (0: from the clock)")
)

// memSlack is how far device memory in use may stand above the baseline
// after a state: the 32 MiB of freed scratch the pool keeps after MemInfo
// trims it (runtime's tempRetain; MemInfo returns the rest of what
// ScratchRetain would keep), and 64 MiB of the driver's bookkeeping and the
// pool's rounding, the bound examples/sweep checks.
const memSlack = (32 + 64) << 20

// TestSweepAll is issue 13's sweep over every algorithm and every element
// type the conformance packages instantiate for it (the table in
// table_test.go). Every state allocates fresh buffers (the largest of
// -sweepall.mib MiB), fills them on the device, runs one entry of the table,
// checks its result against the host, and frees its buffers or drops them
// to the garbage collector, in turn. After every state the device's live
// allocations are back at the baseline (after collections, for dropped
// buffers), its memory in use within memSlack of it, and its loaded modules
// one per generated package the sweep has run. It runs on a GPU; under -short,
// or without a GPU, it runs every entry once with small buffers on the CPU
// backend instead.
func TestSweepAll(t *testing.T) {
	run, err := regexp.Compile(*flagRun)
	if err != nil {
		t.Fatalf("-sweepall.run: %v", err)
	}
	var table []entry
	for _, e := range entries {
		if run.MatchString(e.alg + " " + e.types) {
			table = append(table, e)
		}
	}
	if len(table) == 0 {
		t.Fatalf("no entry matches -sweepall.run %q", *flagRun)
	}
	var d *runtime.Device
	bytes, states := max(1, *flagMiB)<<20, *flagStates
	if states <= 0 {
		states = max(300, 2*len(table))
	}
	cpu := testing.Short()
	if !cpu {
		if d, err = runtime.OpenGPU(0); err != nil {
			// CI has no GPU: it still runs every entry once, on the CPU.
			t.Logf("no CUDA GPU (%v): every entry runs once on the CPU backend, with small buffers", err)
			cpu = true
		}
	}
	if cpu {
		if d, err = runtime.Open(runtime.CPU); err != nil {
			t.Fatalf("opening the CPU backend: %v", err)
		}
		bytes, states = 256<<10, len(table)
		blockLen = 1 << 12
		defer func() { blockLen = 1 << 16 }()
	}
	defer d.Close()
	seed := *flagSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	if err := sweep(t, d, table, states, bytes, seed); err != nil {
		t.Fatal(err)
	}
}

// sweep runs states states of the table on d with buffers of bytes.
func sweep(t *testing.T, d *runtime.Device, table []entry, states int, bytes int64, seed uint64) error {
	gpu := d.Backend() == runtime.GPU
	c := &state{d: d, r: rand.New(rand.NewPCG(seed, 13)), bytes: bytes, pkgs: map[string]bool{}}
	// A first Reduce loads the root package's module (the fills' transforms)
	// and allocates the default stream's scratch, which stay: the baselines
	// are taken after it.
	warm, err := runtime.Alloc[int32](d, 1<<20)
	if err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	out, err := runtime.Alloc[int32](d, 1)
	if err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	if err := dt.SumInt32.Run(nil, warm, out, 0); err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	if _, err := out.ToHost(); err != nil {
		return fmt.Errorf("warming up: %w", err)
	}
	if err := warm.Free(); err != nil {
		return err
	}
	if err := out.Free(); err != nil {
		return err
	}
	c.pkgs[rootPkg] = true
	baseSlices := userAllocations(d)
	var baseUsed, total int64
	if gpu {
		free, tot, err := d.MemInfo()
		if err != nil {
			return err
		}
		baseUsed, total = tot-free, tot
	}
	algs := map[string]bool{}
	for _, e := range table {
		algs[e.alg] = true
	}
	t.Logf("%s: %d states over %d entries (%d algorithms), largest buffer %d KiB, seed %d; baseline %d slices, %d MiB in use, scratch retention %d MiB",
		d, states, len(table), len(algs), bytes>>10, seed, baseSlices, baseUsed>>20, d.ScratchRetain()>>20)
	start := time.Now()
	for i := range states {
		e := table[i%len(table)]
		free := (i+i/len(table))%2 == 0 // each pass over the table swaps which entries are freed
		c.pkgs[e.pkg] = true
		if err := e.run(c); err != nil {
			return fmt.Errorf("state %d (%s over %s): %w", i, e.alg, e.types, err)
		}
		if err := c.release(free); err != nil {
			return fmt.Errorf("state %d (%s over %s): %w", i, e.alg, e.types, err)
		}
		slices := collect(d, baseSlices)
		var used int64
		if gpu {
			f, _, err := d.MemInfo()
			if err != nil {
				return fmt.Errorf("state %d: %w", i, err)
			}
			used = total - f
		}
		if i%max(1, *flagEvery) == 0 || i == states-1 {
			t.Logf("state %4d: %-20s %-40s %8.2f GiB allocated so far, %d slices live, %6d MiB in use",
				i, e.alg, e.types, float64(c.allocated)/(1<<30), slices, used>>20)
		}
		if slices != baseSlices {
			return fmt.Errorf("state %d (%s over %s, %s): %d slices live after collection, want the baseline's %d",
				i, e.alg, e.types, freedOrDropped(free), slices, baseSlices)
		}
		if used > baseUsed+memSlack {
			return fmt.Errorf("state %d (%s over %s, %s): %d MiB of device memory in use, above the baseline of %d MiB and %d MiB of slack",
				i, e.alg, e.types, freedOrDropped(free), used>>20, baseUsed>>20, memSlack>>20)
		}
		if gpu {
			if err := checkModules(d, c.pkgs); err != nil {
				return fmt.Errorf("state %d (%s over %s): %w", i, e.alg, e.types, err)
			}
		}
	}
	line := fmt.Sprintf("done: %d states, %.1f GiB allocated in %v", states, float64(c.allocated)/(1<<30), time.Since(start).Round(time.Millisecond))
	if gpu {
		line += fmt.Sprintf(", %.2f× the device's %d GiB", float64(c.allocated)/float64(total), total>>30)
	}
	t.Log(line)
	return nil
}

func freedOrDropped(free bool) string {
	if free {
		return "buffers freed"
	}
	return "buffers dropped"
}

// checkModules checks that the device holds one module per generated
// package the sweep has run, and no other.
func checkModules(d *runtime.Device, pkgs map[string]bool) error {
	want := make([]string, 0, len(pkgs))
	for p := range pkgs {
		want = append(want, p)
	}
	slices.Sort(want)
	if got := d.LoadedModules(); !slices.Equal(got, want) {
		return fmt.Errorf("modules loaded:\n\t%s\nwant one per package run:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	return nil
}

// userAllocations returns the device's live allocations less the streams'
// own (scratch and epoch regions, which stay by design until a stream
// closes): the Slices the program still holds.
func userAllocations(d *runtime.Device) int {
	live, _ := d.LiveAllocations()
	return live - d.StreamAllocations()
}

// collect runs the collector until the slices a state dropped are freed
// (their cleanups run on a goroutine of their own), at most 5 s, and
// returns the slices still live.
func collect(d *runtime.Device, want int) int {
	n := userAllocations(d)
	for start := time.Now(); n > want && time.Since(start) < 5*time.Second; {
		goruntime.GC()
		time.Sleep(time.Millisecond)
		n = userAllocations(d)
	}
	return n
}

// TestTableCoversREADME checks that the table holds every algorithm of the
// README's table.
func TestTableCoversREADME(t *testing.T) {
	have := map[string]bool{}
	for _, e := range entries {
		have[e.alg] = true
	}
	for _, a := range []string{"Reduce", "TransformReduce", "UnaryTransform", "BinaryTransform", "ForEach",
		"InclusiveScan", "ExclusiveScan", "InclusiveScanByKey", "ExclusiveScanByKey", "Select", "Partition",
		"ThreeWayPartition", "Unique", "UniqueByKey", "RunLengthEncode", "HistogramEven", "HistogramRange",
		"LowerBound", "UpperBound", "Merge", "SegmentedReduce", "ReduceByKey", "AdjacentDifference",
		"RadixSortKeys", "RadixSortPairs", "MergeSortKeys", "MergeSortPairs", "SegmentedSortKeys", "SegmentedSortPairs"} {
		if !have[a] {
			t.Errorf("no entry runs %s", a)
		}
	}
}
