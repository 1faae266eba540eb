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
	var baseUsed int64 = -1
	for i := range states {
		su := suites[i%len(suites)]
		alg := su.algorithms()[i/len(suites)%len(su.algorithms())]
		n, err := alg.run(d, r, bufBytes, i%2 == 0)
		if err != nil {
			return fmt.Errorf("state %d (%s over %s): %w", i, alg.name, su.typeName(), err)
		}
		allocated += n
		slices, modules := d.LiveAllocations()
		if gpu && modules != 1 {
			return fmt.Errorf("state %d: %d modules loaded, want 1 (one generated package)", i, modules)
		}
		var used int64
		if gpu {
			free, _, err := d.MemInfo()
			if err != nil {
				return err
			}
			used = free0 - free
			if baseUsed < 0 {
				// The first state loaded the module and allocated the
				// stream's scratch, which stay: the baseline is taken after it.
				baseUsed = used
			}
		}
		if i%25 == 0 || i == states-1 {
			fmt.Fprintf(w, "state %3d: %-22s %-8s %7.1f GiB allocated so far, %d slices live, %6d MiB in use\n",
				i, alg.name, su.typeName(), float64(allocated)/(1<<30), slices, used>>20)
		}
	}
	// Dropped slices are freed when the collector finds them; their
	// cleanups run on a goroutine of their own, so wait for them a while.
	slices, _ := d.LiveAllocations()
	for wait := time.Now(); slices > 0 && time.Since(wait) < 5*time.Second; {
		goruntime.GC()
		time.Sleep(20 * time.Millisecond)
		slices, _ = d.LiveAllocations()
	}
	line := fmt.Sprintf("done: %d states, %.1f GiB allocated in %v, %d slices live", states, float64(allocated)/(1<<30), time.Since(start).Round(time.Millisecond), slices)
	if gpu {
		free, _, err := d.MemInfo()
		if err != nil {
			return err
		}
		used := free0 - free
		line += fmt.Sprintf(", %d MiB in use (baseline %d MiB), %.1f× the device's %d GiB", used>>20, baseUsed>>20, float64(allocated)/float64(total), total>>30)
		if used > baseUsed+baselineSlack {
			return fmt.Errorf("%s: memory in use did not return to the baseline", line)
		}
	}
	fmt.Fprintln(w, line)
	if slices != 0 {
		return fmt.Errorf("%d slices still live after the sweep", slices)
	}
	return nil
}
