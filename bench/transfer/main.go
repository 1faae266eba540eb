// Command transfer times gocccl's host transfers on a GPU: asynchronous
// copies from and to Pinned memory, and the synchronous pageable copies,
// as rows of bench's format (bench/README.md). ref.cu times the same bytes
// with cudaMemcpyAsync from cudaMallocHost memory in the same run, the
// link's best.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

func main() {
	sizes := flag.String("sizes", "268435456,1073741824", "transfer sizes in bytes, comma-separated")
	reps := flag.Int("reps", 20, "timed repetitions per case (median reported)")
	flag.Parse()
	if err := run(*sizes, *reps); err != nil {
		fmt.Fprintln(os.Stderr, "transfer:", err)
		os.Exit(1)
	}
}

func run(sizes string, reps int) error {
	d, err := runtime.OpenGPU(0)
	if err != nil {
		return err
	}
	defer d.Close()
	st, err := d.NewStreamWith(runtime.StreamOptions{NonBlocking: true})
	if err != nil {
		return err
	}
	start, err := d.NewEvent()
	if err != nil {
		return err
	}
	end, err := d.NewEvent()
	if err != nil {
		return err
	}
	fmt.Println("# system\talgorithm\ttype\tn\tmedian_us\tbytes_moved")
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return fmt.Errorf("size %q: %w", f, err)
		}
		p, err := runtime.AllocPinned[byte](d, n)
		if err != nil {
			return err
		}
		for i := range p.Host() {
			p.Host()[i] = byte(i * 7)
		}
		s, err := runtime.Alloc[byte](d, n)
		if err != nil {
			return err
		}
		pageable := make([]byte, n)
		timed := func(name string, f func() error) error {
			var ts []time.Duration
			for i := 0; i < reps+2; i++ {
				if err := start.Record(st); err != nil {
					return err
				}
				if err := f(); err != nil {
					return err
				}
				if err := end.Record(st); err != nil {
					return err
				}
				if err := end.Synchronize(); err != nil {
					return err
				}
				el, err := end.Elapsed(start)
				if err != nil {
					return err
				}
				if i >= 2 {
					ts = append(ts, el)
				}
			}
			slices.Sort(ts)
			med := ts[len(ts)/2]
			fmt.Printf("gocccl\t%s\tuint8\t%d\t%.1f\t%d\t%.1f GB/s\n", name, n, float64(med.Nanoseconds())/1e3, n, float64(n)/med.Seconds()/1e9)
			return nil
		}
		if err := timed("htod_pinned", func() error { return s.CopyFromPinned(st, p) }); err != nil {
			return err
		}
		if err := timed("dtoh_pinned", func() error { return s.CopyToPinned(st, p) }); err != nil {
			return err
		}
		if err := timed("htod_pageable", func() error { return s.CopyFromHostAsync(st, pageable) }); err != nil {
			return err
		}
		if err := timed("dtoh_pageable", func() error { return s.CopyToHostAsync(st, pageable) }); err != nil {
			return err
		}
		// The bytes made the round trip.
		for i, b := range p.Host() {
			if b != byte(i*7) {
				return fmt.Errorf("FAILED: byte %d of %d after the round trip: %d", i, n, b)
			}
		}
		if err := p.Free(); err != nil {
			return err
		}
		if err := s.Free(); err != nil {
			return err
		}
	}
	return st.Close()
}
