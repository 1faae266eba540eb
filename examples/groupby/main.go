// Command groupby is a group-by aggregation over a columnar table, the way
// a data engineer runs one on a GPU: rows of int64 keys and float64 values,
// in host memory, are summed per key. The table goes up in chunks from
// pinned memory on two streams, so that one chunk's upload overlaps the
// previous chunk's sort and reduction (RadixSortPairs, then ReduceByKey);
// the partial groups of all chunks are merged by one more sort and
// reduction, and the result comes back to the host, where a sample of the
// groups is checked against a plain Go loop. On a machine without a GPU the
// CPU backend runs the same code.
//
//	go generate ./examples/groupby && go run ./examples/groupby -rows 268435456
package main

//go:generate gocccl-gen --arch sm_80,sm_90

import (
	"flag"
	"fmt"
	"log"
	"math/bits"
	"os"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

// SameKey says whether two rows belong to one group.
//
//gocccl:op
func SameKey(a, b int64) bool { return a == b }

// Add sums the values of a group.
//
//gocccl:op
func Add(a, b float64) float64 { return a + b }

// The algorithm instances, generated into this package.
var (
	SortRows = runtime.RadixSortPairs[int64, float64]()
	SumRuns  = runtime.ReduceByKey(SameKey, Add)
)

func main() {
	rows := flag.Int("rows", 0, "rows of the table (default 2^28 on a GPU, 2^22 on the CPU backend)")
	chunk := flag.Int("chunk", 1<<24, "rows per chunk")
	groups := flag.Int("groups", 1<<20, "distinct keys, 0 … groups-1")
	sample := flag.Int("sample", 1000, "groups checked against a Go loop over the table")
	phases := flag.Bool("phases", false, "also time the uploads alone and the computation alone, to show the overlap")
	cpu := flag.Bool("cpu", false, "also time the same job in plain Go (one map per goroutine, merged)")
	flag.Parse()
	if err := run(config{rows: *rows, chunk: *chunk, groups: *groups, sample: *sample, phases: *phases, cpu: *cpu}); err != nil {
		fmt.Fprintln(os.Stderr, "groupby:", err)
		os.Exit(1)
	}
}

type config struct {
	rows, chunk, groups, sample int
	phases, cpu                 bool
}

func run(c config) error {
	dev, err := runtime.Open(runtime.Auto)
	if err != nil {
		return err
	}
	defer dev.Close()
	if c.rows == 0 {
		c.rows = 1 << 28
		if dev.Backend() == runtime.CPU {
			c.rows = 1 << 22
		}
	}
	if c.rows < 1 || c.chunk < 1 || c.groups < 1 {
		return fmt.Errorf("rows, chunk and groups must be positive (%d, %d, %d)", c.rows, c.chunk, c.groups)
	}
	c.chunk = min(c.chunk, c.rows)
	log.SetFlags(0)
	log.Printf("device: %s", dev)
	log.Printf("table: %d rows (%.1f GiB), %d groups, chunks of %d rows", c.rows, float64(c.rows)*16/(1<<30), c.groups, c.chunk)

	t := time.Now()
	tab, err := newTable(dev, c.rows, c.groups)
	if err != nil {
		return err
	}
	defer tab.free()
	log.Printf("generated and pinned the table on the host in %v", time.Since(t).Round(time.Millisecond))

	job, err := newJob(dev, c.rows, c.chunk, c.groups)
	if err != nil {
		return err
	}
	defer job.free()
	var res result
	for i := range 3 { // the first run warms the streams' scratch up
		start := time.Now()
		if res, err = job.run(tab, true, true); err != nil {
			return err
		}
		log.Printf("run %d: %d groups in %v end to end (host table in, host result out): %.2f G rows/s",
			i+1, len(res.keys), time.Since(start).Round(time.Microsecond), float64(c.rows)/time.Since(start).Seconds()/1e9)
	}
	// Checked before the phases below, which overwrite the job's output.
	if err := check(tab, res, c.sample); err != nil {
		return err
	}
	log.Printf("checked %d groups against a Go loop over all %d rows: equal", min(c.sample, len(res.keys)), c.rows)
	if c.phases {
		for _, p := range []struct {
			name            string
			upload, compute bool
		}{{"uploads alone", true, false}, {"computation alone", false, true}} {
			start := time.Now()
			if _, err := job.run(tab, p.upload, p.compute); err != nil {
				return err
			}
			log.Printf("%s: %v", p.name, time.Since(start).Round(time.Microsecond))
		}
	}
	if c.cpu {
		start := time.Now()
		n := len(groupByGo(tab))
		log.Printf("plain Go (maps on %d goroutines): %d groups in %v", goroutines(), n, time.Since(start).Round(time.Microsecond))
	}
	return nil
}

// keyBits is the radix sort's window for keys in [0, groups): the bits
// above it are zero in every key, so the sort need not pass over them.
func keyBits(groups int) int { return max(1, bits.Len(uint(groups-1))) }
