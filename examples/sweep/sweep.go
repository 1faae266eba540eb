package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	goruntime "runtime"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

// baselineSlack is how far device memory in use may stand above the
// baseline after a state: the driver's own bookkeeping and the pool's
// rounding.
const baselineSlack = 64 << 20

// sweep runs states states on d, each over fresh buffers of about bufBytes
// (0: chosen from the device), and reports progress to w. It returns an
// error at the first wrong result, or when memory or modules do not return
// to their baseline.
func sweep(d *runtime.Device, states int, bufBytes int64, w io.Writer) error {
	gpu := d.Backend() == runtime.GPU
	var free0, total int64
	if gpu {
		var err error
		if free0, total, err = d.MemInfo(); err != nil {
			return err
		}
		if bufBytes == 0 {
			bufBytes = max(total/64, 64<<20)
		}
	} else if bufBytes == 0 {
		bufBytes = 64 << 20
	}
	fmt.Fprintf(w, "%s: %d states of %d MiB buffers over %d algorithms and %d element types\n",
		d, states, bufBytes>>20, len(suites[0].algorithms()), len(suites))
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var allocated int64
	start := time.Now()
	baseUsed, baseSlices := int64(-1), 0
	for i := range states {
		su := suites[i%len(suites)]
		alg := su.algorithms()[i/len(suites)%len(su.algorithms())]
		n, err := alg.run(d, r, bufBytes, i%2 == 0)
		if err != nil {
			return fmt.Errorf("state %d (%s over %s): %w", i, alg.name, su.typeName(), err)
		}
		allocated += n
		if i == 0 {
			// The first state loaded the module and allocated the stream's
			// scratch, which stay: the baseline is taken after it.
			baseSlices = userAllocations(d)
		}
		slices := collect(d, baseSlices)
		if mods := d.LoadedModules(); gpu && len(mods) != 1 {
			return fmt.Errorf("state %d: modules %q loaded, want one (this generated package)", i, mods)
		}
		var used int64
		if gpu {
			free, _, err := d.MemInfo()
			if err != nil {
				return err
			}
			used = free0 - free
			if baseUsed < 0 {
				baseUsed = used
			}
		}
		if i%25 == 0 || i == states-1 {
			fmt.Fprintf(w, "state %3d: %-22s %-8s %7.1f GiB allocated so far, %d slices live, %6d MiB in use\n",
				i, alg.name, su.typeName(), float64(allocated)/(1<<30), slices, used>>20)
		}
		if slices > baseSlices {
			return fmt.Errorf("state %d (%s over %s): %d slices live after collection, want %d", i, alg.name, su.typeName(), slices, baseSlices)
		}
		if used > baseUsed+baselineSlack {
			return fmt.Errorf("state %d (%s over %s): %d MiB of device memory in use, above the baseline of %d MiB: memory did not return to the baseline",
				i, alg.name, su.typeName(), used>>20, baseUsed>>20)
		}
	}
	line := fmt.Sprintf("done: %d states, %.1f GiB allocated in %v", states, float64(allocated)/(1<<30), time.Since(start).Round(time.Millisecond))
	if gpu {
		free, _, err := d.MemInfo()
		if err != nil {
			return err
		}
		line += fmt.Sprintf(", %d MiB in use (baseline %d MiB), %.1f× the device's %d GiB", (free0-free)>>20, baseUsed>>20, float64(allocated)/float64(total), total>>30)
	}
	fmt.Fprintln(w, line)
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
	slices := userAllocations(d)
	for start := time.Now(); slices > want && time.Since(start) < 5*time.Second; {
		goruntime.GC()
		time.Sleep(time.Millisecond)
		slices = userAllocations(d)
	}
	return slices
}
