package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCases(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.tsv")
	tsv := "# gpubench: H100, L2 50 MiB, median of 20 runs, seed 1\n" +
		"system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\tnote\n" +
		"gocccl\treduce\tuint32\t1024\t3.1\t4096\n" +
		"gocccl:host_call\treduce\tuint32\t1024\t2.0\t4096\n" +
		"gocccl\tscan\tfloat64\t65536\tFAILED\t0\tbad\n"
	if err := os.WriteFile(path, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readCases(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"reduce/uint32/1024", "scan/float64/65536"} {
		if !got[key] {
			t.Errorf("case %s missing from %v", key, got)
		}
	}
	if len(got) != 2 {
		t.Errorf("got %d cases %v, want 2", len(got), got)
	}

	if _, err := readCases(filepath.Join(dir, "none.tsv")); err == nil || !strings.Contains(err.Error(), "none.tsv") {
		t.Errorf("missing file: got error %v, want one naming none.tsv", err)
	}

	if err := os.WriteFile(path, []byte("gocccl\treduce\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readCases(path); err == nil || !strings.Contains(err.Error(), "a.tsv:1: 2 fields") {
		t.Errorf("short row: got error %v, want one naming a.tsv:1 and its 2 fields", err)
	}
}
