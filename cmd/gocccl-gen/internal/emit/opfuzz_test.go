package emit_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/analyzer"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/conformance/opfuzz"
)

// The operator fuzzer's packages (conformance/opfuzz) through the
// analyzer and the emitter: every random operator must be accepted and
// translated, and the smallest package must compile with nvcc.

func fuzzConfig(seed uint64, n int) opfuzz.Config {
	return opfuzz.Config{Seed: seed, N: n, Package: "fuzzpkg", Arch: "sm_90", Command: "opfuzz_test"}
}

// repoRoot returns the directory of this module.
func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// newModule returns the directory of a new module that uses this
// repository through a replace directive.
func newModule(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	mod := t.TempDir()
	gomod := "module example.com/fuzz\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644))
	return mod
}

// writeModule writes the package of c into a new module and returns the
// package's directory.
func writeModule(t *testing.T, c opfuzz.Config) string {
	t.Helper()
	return writePackage(t, newModule(t), c)
}

// writePackage writes the package of c into the directory c.Package of
// module mod, and returns it.
func writePackage(t *testing.T, mod string, c opfuzz.Config) string {
	t.Helper()
	dir := filepath.Join(mod, c.Package)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	files, err := opfuzz.Generate(c)
	require.NoError(t, err)
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
	}
	return dir
}

// TestOpfuzzAnalyzerAndEmit loads the packages of several seeds with the
// analyzer, which must accept every operator and find one instance per
// operator, translates them to CUDA C++, and compiles the smallest with
// nvcc for sm_90 when nvcc is installed (GOCCCL_REQUIRE_NVCC makes a
// missing nvcc fail the test).
func TestOpfuzzAnalyzerAndEmit(t *testing.T) {
	seeds := []struct {
		seed uint64
		n    int
	}{{1, 40}, {2, 40}, {3, 40}, {4, 40}, {5, 40}, {6, 6}}
	if testing.Short() {
		seeds = seeds[len(seeds)-1:]
	}
	for _, s := range seeds {
		c := fuzzConfig(s.seed, s.n)
		dir := writeModule(t, c)
		pkgs, err := analyzer.Load(dir, nil, ".")
		require.NoError(t, err, "seed %d", s.seed)
		require.Len(t, pkgs, 1)
		require.Len(t, pkgs[0].Instances, s.n, "seed %d: instances", s.seed)
		src, err := emit.CUDASource(pkgs[0], []emit.Target{{Arch: 90}})
		require.NoError(t, err, "seed %d", s.seed)
		require.NotEmpty(t, src)
		if s.n > 6 {
			continue
		}
		t.Run(fmt.Sprintf("nvcc/seed=%d", s.seed), func(t *testing.T) {
			if _, err := emit.FindNVCC(""); err != nil {
				if os.Getenv("GOCCCL_REQUIRE_NVCC") != "" {
					t.Fatalf("nvcc not found, and GOCCCL_REQUIRE_NVCC is set: %v", err)
				}
				t.Skipf("nvcc is not installed (%v): skipping compilation", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			out, err := emit.Generate(ctx, pkgs[0], emit.Options{Targets: []emit.Target{{Arch: 90}}, Jobs: 1})
			require.NoError(t, err, "seed %d: generated source:\n%s", s.seed, src)
			names := make([]string, len(out.Files))
			for i, f := range out.Files {
				names[i] = f.Name
			}
			require.Contains(t, names, "gocccl_gen_sm_90.cubin")
		})
	}
}

var sweepFlag = flag.Int("opfuzz.sweep", 0, "seeds (from 1000 on, 40 operators each) that TestSweep analyzes and translates to CUDA C++")

// TestOpfuzzSweep is a longer run of the analyzer and the translation, skipped
// unless -opfuzz.sweep=N: it generates N packages into one module, loads
// them all at once, and translates each to CUDA C++. The analyzer must
// accept every operator.
func TestOpfuzzSweep(t *testing.T) {
	if *sweepFlag <= 0 {
		t.Skip("give -opfuzz.sweep=N to analyze and translate N more seeds")
	}
	mod := newModule(t)
	for i := range *sweepFlag {
		c := fuzzConfig(1000+uint64(i), 40)
		c.Package = fmt.Sprintf("seed%d", c.Seed)
		writePackage(t, mod, c)
	}
	pkgs, err := analyzer.Load(mod, nil, "./...")
	require.NoError(t, err)
	require.Len(t, pkgs, *sweepFlag)
	for _, p := range pkgs {
		require.Len(t, p.Instances, 40, "%s: instances", p.Path)
		_, err := emit.CUDASource(p, []emit.Target{{Arch: 90}})
		require.NoError(t, err, p.Path)
	}
}
