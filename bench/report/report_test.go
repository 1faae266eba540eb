package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func TestParseRows(t *testing.T) {
	in := "# comment\nsystem\talgorithm\ttype\tn\tmedian_us\tbytes_moved\n\n" +
		"cub\treduce\tuint32\t1024\t6.9\t4100\n" +
		"torch\treduce\tuint32\t1024\t-\t4100\tnot\timplemented\n"
	rows, err := ParseRows(strings.NewReader(in), "x.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	want := Row{System: "cub", Algorithm: "reduce", Type: "uint32", N: 1024, Micros: 6.9, Bytes: 4100}
	if rows[0] != want {
		t.Errorf("row 0 = %+v, want %+v", rows[0], want)
	}
	if r := rows[1]; !r.Skipped || !math.IsNaN(r.Micros) || r.Note != "not implemented" {
		t.Errorf("row 1 = %+v, want skipped with note", r)
	}
}

func TestParseRowsErrors(t *testing.T) {
	for _, in := range []string{
		"cub\treduce\tuint32\t1024\t6.9\n",     // 5 fields
		"cub\treduce\tuint32\tx\t6.9\t4\n",     // bad n
		"cub\treduce\tuint32\t1024\tfast\t4\n", // bad time
		"cub\treduce\tuint32\t1024\t-1\t4\n",   // negative time
		"cub\treduce\tuint32\t1024\t1\tmany\n", // bad bytes
		"cub\t\tuint32\t1024\t1\t4\n",          // empty algorithm
	} {
		if _, err := ParseRows(strings.NewReader(in), "bad.tsv"); err == nil || !strings.Contains(err.Error(), "bad.tsv:1:") {
			t.Errorf("ParseRows(%q) error = %v, want one naming bad.tsv:1", in, err)
		}
	}
}

func TestParseEnv(t *testing.T) {
	e, err := ParseEnv(strings.NewReader("# c\ngpu\tNVIDIA H200\ngpu\tother\ncuda\t13.0\nempty\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Get("gpu"); got != "NVIDIA H200" {
		t.Errorf("gpu = %q", got)
	}
	if got := e.Get("empty"); got != "unknown" {
		t.Errorf("empty = %q, want unknown", got)
	}
	if !slices.Equal(e.Keys, []string{"gpu", "cuda", "empty"}) {
		t.Errorf("keys = %q", e.Keys)
	}
}

func load(t *testing.T) *Report {
	t.Helper()
	rep, err := Load("testdata/in", "testdata/in/env.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary, err = LoadSummary("testdata/in/summary.md"); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRatiosAndCeiling(t *testing.T) {
	rep := load(t)
	var names []string
	for _, a := range rep.Algorithms {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"copy", "reduce", "scan"}) {
		t.Fatalf("algorithms = %q", names)
	}
	red := rep.Algorithms[1]
	wantSys := []string{"gocccl", "gocccl-kernels", "cub", "cuda.compute", "cupy", "torch"}
	if !slices.Equal(red.Systems, wantSys) {
		t.Errorf("systems = %q, want %q", red.Systems, wantSys)
	}
	p := Point{"uint32", 1024}
	if got, want := red.Ratio("gocccl", p), 5.5/6.9; math.Abs(got-want) > 1e-12 {
		t.Errorf("ratio = %v, want %v", got, want)
	}
	if got := red.Ratio("torch", p); !math.IsNaN(got) {
		t.Errorf("ratio of a skipped row = %v, want NaN", got)
	}
	if got := red.Ratio("cuda.compute", Point{"uint32", 1 << 28}); !math.IsNaN(got) {
		t.Errorf("ratio of a missing row = %v, want NaN", got)
	}
	// cub's own row in gocccl.tsv repeats a key of cub-reduce.tsv: the first file wins.
	if r, _ := red.Cell("cub", p); r.Micros != 6.9 || len(rep.Duplicates) != 1 {
		t.Errorf("cub row = %+v, duplicates %d; want the first file's 6.9 and one duplicate", r, len(rep.Duplicates))
	}
	if want := 2147483648 / 511e3; math.Abs(rep.Ceiling-want) > 1e-9 {
		t.Errorf("ceiling = %v GB/s, want %v", rep.Ceiling, want)
	}
	if len(rep.Calls) != 3 || rep.Calls[0].System != "gocccl:first_call" || rep.Calls[2].System != "gocccl:per_call" {
		t.Errorf("host-side rows = %+v", rep.Calls)
	}
}

func TestSVGWellFormed(t *testing.T) {
	rep := load(t)
	for _, a := range rep.Algorithms {
		var b bytes.Buffer
		if err := WriteSVG(&b, rep, a); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&b)
		var root string
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s.svg is not well-formed XML: %v", a.Name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("%s.svg: root element %q, want svg", a.Name, root)
		}
	}
}

// TestGolden renders testdata/in and compares with testdata/golden; run
// `go test ./bench/report -update` to accept a change.
func TestGolden(t *testing.T) {
	files, err := Render(load(t), "results")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Render(load(t), "results")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if !bytes.Equal(data, again[name]) {
			t.Errorf("%s differs between two renderings of the same input", name)
		}
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s differs from %s; run `go test ./bench/report -update` and review the diff", name, golden)
		}
	}
}

func TestSizeLabel(t *testing.T) {
	for n, want := range map[int64]string{1: "2^0", 1024: "2^10", 1 << 28: "2^28", 1000: "1000", 0: "0"} {
		if got := sizeLabel(n); got != want {
			t.Errorf("sizeLabel(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFourTypes: an algorithm timed over uint32, float32, uint64 and float64
// (the compactions, histograms and by-key algorithms now are) lists its
// types in typeOrder whatever order the rows come in, and plots one panel
// per type.
func TestFourTypes(t *testing.T) {
	in := "system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\n" +
		"gocccl\tselect\tfloat64\t1024\t5.0\t12296\n" +
		"cub\tselect\tuint64\t1024\t4.0\t12296\n" +
		"gocccl\tselect\tuint32\t1024\t3.0\t6152\n" +
		"cub\tselect\tfloat32\t1024\t3.5\t6152\n" +
		"cub\tselect\tfloat64\t1024\t4.5\t12296\n"
	rows, err := ParseRows(strings.NewReader(in), "x.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rep := Build(Env{}, rows)
	if len(rep.Algorithms) != 1 {
		t.Fatalf("%d algorithms, want 1", len(rep.Algorithms))
	}
	a := rep.Algorithms[0]
	if want := []string{"uint32", "float32", "uint64", "float64"}; !slices.Equal(a.Types, want) {
		t.Errorf("types = %q, want %q", a.Types, want)
	}
	if got, want := a.Ratio("gocccl", Point{"float64", 1024}), 5.0/4.5; math.Abs(got-want) > 1e-12 {
		t.Errorf("float64 ratio = %v, want %v", got, want)
	}
	var b bytes.Buffer
	if err := WriteSVG(&b, rep, a); err != nil {
		t.Fatal(err)
	}
	for _, typ := range a.Types {
		if !strings.Contains(b.String(), ">"+typ+"<") {
			t.Errorf("select.svg has no panel titled %s", typ)
		}
	}
}

// TestSummary: the hand-written summary goes, as written, between the
// environment table and the targets; without one (a missing file) the
// report is the same but for it, and CRLF line endings or blank lines at
// its ends change nothing.
func TestSummary(t *testing.T) {
	render := func(summary string) string {
		t.Helper()
		rep := load(t)
		rep.Summary = summary
		var b strings.Builder
		if err := WriteMarkdown(&b, rep, "results"); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	sum, err := LoadSummary("testdata/in/summary.md")
	if err != nil {
		t.Fatal(err)
	}
	if none, err := LoadSummary("testdata/in/no-such-summary.md"); err != nil || none != "" {
		t.Fatalf("missing summary file = %q, %v; want no summary and no error", none, err)
	}
	with, without := render(sum), render("")
	block := strings.Trim(sum, "\n") + "\n\n"
	i := strings.Index(with, block)
	if i < 0 {
		t.Fatalf("the summary is not in the report as written:\n%s", with)
	}
	before, after := with[:i], with[i+len(block):]
	if !strings.HasSuffix(before, "bytes read + written) |\n\n") || !strings.HasPrefix(after, "## Targets\n") {
		t.Errorf("the summary is not between the environment table and the targets")
	}
	if before+after != without {
		t.Errorf("the report without a summary differs from the one with it by more than the summary")
	}
	if got := render("\r\n\r\n" + strings.ReplaceAll(strings.Trim(sum, "\n"), "\n", "\r\n") + "\r\n \r\n\r\n"); got != with {
		t.Errorf("CRLF line endings or blank lines around the summary changed the report")
	}
	if got := render(" \n\t\n"); got != without {
		t.Errorf("a summary of blank lines gave a report different from no summary")
	}
}
