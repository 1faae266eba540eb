package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/gocccl/gocccl/runtime"
)

func cpuEnv(t *testing.T) *Env {
	t.Helper()
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return &Env{Dev: dev, Stream: dev.DefaultStream(), L2: 50 << 20, Seed: 1}
}

func TestBuffers(t *testing.T) {
	e := &Env{L2: 50 << 20}
	for _, c := range []struct {
		bytes int64
		want  int
	}{{4 << 10, 32}, {4 << 20, 32}, {64 << 20, 4}, {1 << 30, 1}} {
		if got := e.Buffers(c.bytes); got != c.want {
			t.Errorf("Buffers(%d) = %d, want %d", c.bytes, got, c.want)
		}
	}
}

func TestResultWrite(t *testing.T) {
	var b bytes.Buffer
	Result{System: "gocccl", Algorithm: "reduce", Type: "int32", N: 1024, Micros: 6.5, Bytes: 4100}.Write(&b)
	Result{System: "gocccl", Algorithm: "scan", Type: "int32", N: 8, Micros: math.NaN(), Bytes: 64, Note: "no\tkernels\nyet"}.Write(&b)
	want := "gocccl\treduce\tint32\t1024\t6.50\t4100\ngocccl\tscan\tint32\t8\t-\t64\tno kernels yet\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestReduceCasesOnCPU runs the reduce family through the harness on the CPU
// backend: setup, poison, run, check and timing, without a GPU.
func TestReduceCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	ran := 0
	defer func() {
		// int32, float32, float32 with a fastmath operator, float32
		// GPUToGPU and NotGuaranteed, uint32, uint64, float64
		if ran != 8 {
			t.Errorf("ran %d reduce cases, want 8", ran)
		}
	}()
	for _, fam := range families {
		for _, c := range fam([]int{1 << 10}) {
			if c.Algorithm != "reduce" {
				continue
			}
			ran++
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s/%s: %+v", c.Algorithm, c.Type, res)
			}
			hr, ok := res.hostRow()
			if !ok || hr.System != res.System+":host_call" || !(hr.Micros > 0) || hr.N != res.N {
				t.Errorf("%s/%s: host call row %+v (%v) of %+v", c.Algorithm, c.Type, hr, ok, res)
			}
		}
	}
}

func TestMeasureReportsSkipsAndFailures(t *testing.T) {
	env := cpuEnv(t)
	skip := Case{Algorithm: "x", Type: "int32", N: 1, Setup: func(*Env) (*Instance, error) {
		return nil, fmt.Errorf("%w: no kernels", ErrSkip)
	}}
	if res, failed := measure(env, skip, 20, 0); failed || !math.IsNaN(res.Micros) || !strings.Contains(res.Note, "no kernels") {
		t.Errorf("skip: %+v failed=%v", res, failed)
	}
	bad := Case{Algorithm: "x", Type: "int32", N: 1, Setup: func(*Env) (*Instance, error) {
		return &Instance{Run: func(int) error { return nil }, Check: func() error { return errors.New("wrong") }}, nil
	}}
	if res, failed := measure(env, bad, 20, 0); !failed || !strings.HasPrefix(res.Note, "FAILED: check: wrong") {
		t.Errorf("failed check: %+v failed=%v", res, failed)
	}
}

func TestPoisonIsNotZero(t *testing.T) {
	if poison[int32]() == 0 || poison[float32]() == 0 || poison[uint64]() == 0 {
		t.Error("poison is zero")
	}
}

// TestHostRow: a measured case at n up to hostCallMax reports its host call
// time as a "SYSTEM:host_call" row; larger cases and unmeasured ones do not.
func TestHostRow(t *testing.T) {
	r := Result{System: "gocccl", Algorithm: "reduce", Type: "int32", N: hostCallMax, Micros: 9, HostMicros: 4.5, Bytes: 8}
	hr, ok := r.hostRow()
	if !ok || hr.System != "gocccl:host_call" || hr.Micros != 4.5 || hr.Algorithm != "reduce" || hr.N != hostCallMax {
		t.Errorf("hostRow(%+v) = %+v, %v", r, hr, ok)
	}
	r.N = hostCallMax + 1
	if _, ok := r.hostRow(); ok {
		t.Errorf("a case above hostCallMax reported a host call row")
	}
	r.N, r.HostMicros = 1024, math.NaN()
	if _, ok := r.hostRow(); ok {
		t.Errorf("an unmeasured case reported a host call row")
	}
}

// TestSegmentedReduceCasesOnCPU: the segmented reductions, over an offsets
// buffer and over offsets read through iterators (gocccl-iter), run and pass
// their checks on the CPU backend; a size that is not a multiple of the
// segment length skips the iterator case.
func TestSegmentedReduceCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	systems := map[string]int{}
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12}) {
			if !strings.HasPrefix(c.Algorithm, "segmented_reduce") {
				continue
			}
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s %s/%s: %+v", res.System, c.Algorithm, c.Type, res)
			}
			systems[c.Algorithm+" "+res.System]++
		}
	}
	want := map[string]int{
		"segmented_reduce gocccl": 2, "segmented_reduce gocccl-iter": 1, "segmented_reduce gocccl-fixed": 1, "segmented_reduce gocccl-max": 1,
		"segmented_reduce_4 gocccl": 1, "segmented_reduce_4 gocccl-max": 1, "segmented_reduce_16 gocccl": 1,
		"segmented_reduce_16 gocccl-max": 1, "segmented_reduce_128 gocccl": 1, "segmented_reduce_128 gocccl-max": 1,
	}
	if !maps.Equal(systems, want) {
		t.Errorf("ran segmented_reduce cases %v, want %v", systems, want)
	}
	res, failed := measure(env, segReduceIterCase(1<<12+1), 3, 1)
	if failed || !math.IsNaN(res.Micros) || !strings.Contains(res.Note, "not a multiple") {
		t.Errorf("n = 4097: %+v, failed %v; want a skip", res, failed)
	}
}

// TestMergeCasesOnCPU runs the merge cases on the CPU backend: their
// reference (a linear merge of the sorted halves) must agree with Merge, and
// each case counts the bytes of its own key type.
func TestMergeCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	ran := 0
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<12 + 3}) {
			if c.Algorithm != "merge" {
				continue
			}
			if want := 2 * int64(c.N) * map[string]int64{"uint32": 4, "float32": 4, "uint64": 8, "float64": 8}[c.Type]; c.Bytes != want {
				t.Errorf("merge/%s/%d: %d bytes moved, want %d", c.Type, c.N, c.Bytes, want)
			}
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s %s/%s/%d: %+v", res.System, c.Algorithm, c.Type, c.N, res)
			}
			ran++
		}
	}
	if ran != 8 {
		t.Errorf("ran %d merge cases, want 8 (uint32, float32, uint64 and float64 at two sizes)", ran)
	}
}

func TestMergeSorted(t *testing.T) {
	got := mergeSorted([]float32{1, 2, 2, 5}, []float32{0, 2, 6})
	want := []float32{0, 1, 2, 2, 2, 5, 6}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mergeSorted = %v, want %v", got, want)
	}
}

// TestGraphReplayOnCPU runs the graph-replay row on the CPU backend, where a
// Graph calls its captured function again: the replayed sum is checked, and
// the row is a host-side one with a time.
func TestGraphReplayOnCPU(t *testing.T) {
	rs, err := reduceGraphReplay(cpuEnv(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].System != "gocccl:graph_replay" || !(rs[0].Micros > 0) {
		t.Fatalf("rows = %+v, want one gocccl:graph_replay row with a positive time", rs)
	}
}

// TestScanCasesOnCPU runs the plain scan cases on the CPU backend, over
// every type they time: their reference prefix sums must agree with the
// scans, and each case counts the bytes of its own element type.
func TestScanCasesOnCPU(t *testing.T) {
	env := cpuEnv(t)
	size := map[string]int64{"uint32": 4, "float32": 4, "uint64": 8, "float64": 8}
	ran := map[string]int{}
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<12 + 5}) {
			if c.Algorithm != "scan" && c.Algorithm != "exclusive_scan" {
				continue
			}
			if want := 2 * int64(c.N) * size[c.Type]; c.Bytes != want {
				t.Errorf("%s/%s/%d: %d bytes moved, want %d", c.Algorithm, c.Type, c.N, c.Bytes, want)
			}
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s %s/%s/%d: %+v", res.System, c.Algorithm, c.Type, c.N, res)
			}
			ran[c.Type]++
		}
	}
	for typ := range size {
		if ran[typ] != 4 {
			t.Errorf("%s: ran %d scan cases, want 4 (inclusive and exclusive at two sizes)", typ, ran[typ])
		}
	}
}

// TestEveryTypeOnCPU runs, on the CPU backend, the gocccl cases of the
// algorithms timed over uint32, float32, uint64 and float64 beside the plain
// scans and merges: each case's reference must agree with the algorithm, each
// type must have its cases, and each case counts the bytes of its own
// element type (s bytes; runs of 7 where the algorithm has them).
func TestEveryTypeOnCPU(t *testing.T) {
	env := cpuEnv(t)
	size := map[string]int64{"uint32": 4, "float32": 4, "uint64": 8, "float64": 8}
	bytes := map[string]func(n, s int64) int64{
		"scan_by_key":           func(n, s int64) int64 { return n * (4 + 2*s) },
		"exclusive_scan_by_key": func(n, s int64) int64 { return n * (4 + 2*s) },
		"reduce_by_key":         func(n, s int64) int64 { return (n+(n+6)/7)*(4+s) + 8 },
		"adjacent_difference":   func(n, s int64) int64 { return 2 * n * s },
		"select":                func(n, s int64) int64 { return s*(n+n/2) + 8 },
		"partition":             func(n, s int64) int64 { return 2*s*n + 8 },
		"three_way_partition":   func(n, s int64) int64 { return 2*s*n + 16 },
		"unique":                func(n, s int64) int64 { return s*(n+(n+6)/7) + 8 },
		"unique_by_key":         func(n, s int64) int64 { return 2*s*(n+(n+6)/7) + 8 },
		"run_length_encode":     func(n, s int64) int64 { return s*(n+(n+6)/7) + 8*((n+6)/7) + 8 },
		"histogram_even":        func(n, s int64) int64 { return n*s + histBins*4 },
		"histogram_range":       func(n, s int64) int64 { return n*s + histBins*4 },
		"lower_bound":           func(n, s int64) int64 { return n * (s + 8) },
		"sort_keys":             func(n, s int64) int64 { return 2 * n * s },
		"sort_pairs":            func(n, s int64) int64 { return 2 * n * (s + 4) },
	}
	ran := map[string]int{}
	for _, fam := range families {
		for _, c := range fam([]int{1 << 12, 1<<12 + 5}) {
			want, ok := bytes[c.Algorithm]
			if !ok || c.System != "" && c.System != "gocccl" {
				continue
			}
			if w := want(int64(c.N), size[c.Type]); c.Bytes != w {
				t.Errorf("%s/%s/%d: %d bytes moved, want %d", c.Algorithm, c.Type, c.N, c.Bytes, w)
			}
			res, failed := measure(env, c, 3, 1)
			if failed || math.IsNaN(res.Micros) {
				t.Errorf("%s %s/%s/%d: %+v", res.System, c.Algorithm, c.Type, c.N, res)
			}
			ran[c.Algorithm+"/"+c.Type]++
		}
	}
	for alg := range bytes {
		for typ := range size {
			if got := ran[alg+"/"+typ]; got != 2 {
				t.Errorf("%s/%s: ran %d cases, want 2 (two sizes)", alg, typ, got)
			}
		}
	}
}
