package main

import (
	"strings"
	"testing"
)

// TestTargets checks each kind of target on rows whose verdicts are known:
// the general bounds by size, an algorithm's own bound overriding them, the
// C++ dispatch standing in for a missing Go row, the read ceiling (the
// fastest reduce of the same n), the peers, and the host-side targets.
func TestTargets(t *testing.T) {
	in := strings.Join([]string{
		"gocccl\treduce\tuint32\t1024\t5.0\t4100",                              // 0.83× ≤ 0.90: met
		"cub\treduce\tuint32\t1024\t6.0\t4100",                                 //
		"gocccl\treduce\tuint32\t1048576\t14.0\t4100",                          // 1.00× > 0.90: missed
		"cub\treduce\tuint32\t1048576\t14.0\t4100",                             //
		"gocccl\treduce\tuint32\t16777216\t25.1\t4100",                         // 1.004×, printed 1.00×: met
		"cub\treduce\tuint32\t16777216\t25.0\t4100",                            //
		"torch\treduce\tuint32\t1024\t4.0\t4100",                               // 1.25× a peer: missed
		"cupy\treduce\tuint32\t1024\t9.0\t4100",                                // 0.56×: met
		"gocccl\thistogram_even\tuint32\t268435456\t700\t1073742848\t256 bins", // 0.52× > 0.50 (its own target): missed; 57% of the read: missed
		"cub\thistogram_even\tuint32\t268435456\t1350\t1073742848\t256 bins",
		"gocccl\thistogram_even\tfloat32\t268435456\t270\t1073742848\t256 bins", // 0.96× ≤ 1.00 (the general target): met; 148%: met
		"cub\thistogram_even\tfloat32\t268435456\t280\t1073742848\t256 bins",
		"cub\treduce\tuint32\t268435456\t400\t1073741828", // the read ceiling at 2^28 (no gocccl row: no check)
		"torch\treduce\tfloat32\t268435456\t450\t1073741828",
		"gocccl-kernels\tmerge_sort\tuint32\t65536\t57\t1", // no Go row: the C++ dispatch, 1.19×: missed
		"cub\tmerge_sort\tuint32\t65536\t48\t1",
		"gocccl\tscan\tuint32\t65536\t-\t1\tnot built", // skipped: no check
		"cub\tscan\tuint32\t65536\t13\t1",
		"gocccl:host_call\tselect\tuint32\t1024\t4.4\t1", // 0.6 µs over CUB's: met
		"cub:host_call\tselect\tuint32\t1024\t3.8\t1",
		"gocccl:host_call\tunique\tuint32\t1024\t6.0\t1", // 1.5 µs over: missed
		"cub:host_call\tunique\tuint32\t1024\t4.5\t1",
		"gocccl:first_call\treduce\tint32\t1024\t1200\t1",             // over 1 ms: missed
		"gocccl:first_call\treduce\tuint32\t1024\t300\t1",             // met
		"cuda.compute:first_call\tscan\tuint32\t1024\t2000000\t1",     // 1667× the slowest: met
		"cuda.compute:first_call\tsort_keys\tuint32\t1024\t100000\t1", // 83×: missed
	}, "\n")
	rows, err := ParseRows(strings.NewReader(in), "targets.tsv")
	if err != nil {
		t.Fatal(err)
	}
	checks := Build(Env{}, rows).Targets()
	type verdict struct {
		target, algorithm, typ string
		n                      int64
		system, against        string
		met                    bool
	}
	want := []verdict{
		{"histogram_even, 256 bins: ≤ 0.50× CUB at 2^24–2^28", "histogram_even", "uint32", 1 << 28, "gocccl", "cub", false},
		{"histogram_even, 256 bins: ≥ 80% of the read ceiling at 2^24–2^28", "histogram_even", "uint32", 1 << 28, "gocccl", "cub reduce uint32", false},
		{"≤ 1.00× CUB at 2^24–2^28", "histogram_even", "float32", 1 << 28, "gocccl", "cub", true},
		{"histogram_even, 256 bins: ≥ 80% of the read ceiling at 2^24–2^28", "histogram_even", "float32", 1 << 28, "gocccl", "cub reduce uint32", true},
		{"≤ 0.90× CUB at 2^10–2^20", "merge_sort", "uint32", 1 << 16, "gocccl-kernels", "cub", false},
		{"≤ 0.90× CUB at 2^10–2^20", "reduce", "uint32", 1 << 10, "gocccl", "cub", true},
		{"no slower than cuda.compute, CuPy and PyTorch", "reduce", "uint32", 1 << 10, "gocccl", "cupy", true},
		{"no slower than cuda.compute, CuPy and PyTorch", "reduce", "uint32", 1 << 10, "gocccl", "torch", false},
		{"≤ 0.90× CUB at 2^10–2^20", "reduce", "uint32", 1 << 20, "gocccl", "cub", false},
		{"≤ 1.00× CUB at 2^24–2^28", "reduce", "uint32", 1 << 24, "gocccl", "cub", true},
		{"first call ≤ 0.3 ms", "reduce", "int32", 1 << 10, "gocccl", "", false},
		{"first call ≤ 0.3 ms", "reduce", "uint32", 1 << 10, "gocccl", "", true},
		{"first call ≥ 100× faster than cuda.compute's (gocccl's slowest)", "scan", "uint32", 1 << 10, "gocccl", "cuda.compute", true},
		{"a call's host side at 2^10 within 1 µs of CUB's", "select", "uint32", 1 << 10, "gocccl", "cub", true},
		{"first call ≥ 100× faster than cuda.compute's (gocccl's slowest)", "sort_keys", "uint32", 1 << 10, "gocccl", "cuda.compute", false},
		{"a call's host side at 2^10 within 1 µs of CUB's", "unique", "uint32", 1 << 10, "gocccl", "cub", false},
	}
	var got []verdict
	for _, c := range checks {
		got = append(got, verdict{c.Target, c.Algorithm, c.Type, c.N, c.System, c.Against, c.Met})
	}
	if len(got) != len(want) {
		t.Fatalf("%d checks, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("check %d = %+v\nwant       %+v", i, got[i], want[i])
		}
	}

	var b strings.Builder
	writeTargets(&b, checks)
	md := b.String()
	for _, s := range []string{
		"| ≤ 0.90× CUB at 2^10–2^20 | 3 | 1 | 2 |",
		"| ≤ 0.90× CUB at 2^10–2^20 | merge_sort | uint32 | 2^16 | gocccl-kernels | cub | 1.19× | ≤ 0.90× |",
		"| a call's host side at 2^10 within 1 µs of CUB's | unique | uint32 | 2^10 | gocccl | cub | 1.50 µs | ≤ 1.00 µs |",
		"| first call ≥ 100× faster than cuda.compute's (gocccl's slowest) | sort_keys | uint32 | 2^10 | gocccl | cuda.compute | 83.3× | ≥ 100× |",
		"| first call ≤ 0.3 ms | reduce | int32 | 2^10 | gocccl | – | 1200 µs | ≤ 300 µs |",
		"| histogram_even, 256 bins: ≥ 80% of the read ceiling at 2^24–2^28 | histogram_even | uint32 | 2^28 | gocccl | cub reduce uint32 | 57% | ≥ 80% |",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("Targets section lacks %q:\n%s", s, md)
		}
	}
}
