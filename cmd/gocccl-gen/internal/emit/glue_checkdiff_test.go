package emit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reports returns "name (reason)" for each stale file.
func reports(t *testing.T, sts []Stale) []string {
	t.Helper()
	var s []string
	for _, st := range sts {
		s = append(s, st.String())
	}
	return s
}

// TestCheckReportReasons checks the reason given for each kind of stale
// file.
func TestCheckReportReasons(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	dir := t.TempDir()
	pkg := reducePkg()
	pkg.Dir = dir
	out, err := Generate(context.Background(), pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 75}, {Arch: 80}}})
	require.NoError(t, err)
	require.NoError(t, out.Write(dir))
	report, err := CheckReport(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, report)

	// Other targets: every image is reported with how the inputs differ.
	report, err = CheckReport(pkg, dir, Options{Targets: []Target{{Arch: 80}, {Arch: 90}}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"gocccl_gen.go (differs from what gocccl-gen generates now)",
		"gocccl_gen_manifest.json (differs from what gocccl-gen generates now)",
		"gocccl_gen_sm_75.cubin (no longer generated: its target is not built)",
		"gocccl_gen_sm_80.cubin (built from other inputs: targets sm_75, sm_80 → sm_80, sm_90)",
		"gocccl_gen_sm_90.cubin (missing)",
	}, reports(t, report))

	// An edited source, a damaged image.
	cu := filepath.Join(dir, CUDAFile)
	b, err := os.ReadFile(cu)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cu, append(b, "// edited\n"...), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gocccl_gen_sm_75.cubin"), []byte("x"), 0o644))
	report, err = CheckReport(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"gocccl_gen.cu (differs from what gocccl-gen generates now)",
		"gocccl_gen_sm_75.cubin (sha256 does not match the manifest: damaged or edited)",
	}, reports(t, report))

	// Changed operators: the input hash differs, and the reason says so.
	m, err := ReadManifest(filepath.Join(dir, ManifestFile))
	require.NoError(t, err)
	m.InputHash = strings.Repeat("0", 64)
	mb, err := m.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestFile), mb, 0o644))
	report, err = CheckReport(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Contains(t, reports(t, report), "gocccl_gen_sm_80.cubin (built from other inputs: operators, instances or kernel headers changed)")
}

// otherNVCC writes an nvcc that reports the given --version text and
// otherwise runs nvcc.
func otherNVCC(t *testing.T, nvcc, version string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nvcc")
	script := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = --version ]; then echo %q; exit 0; fi\nexec %q \"$@\"\n", version, nvcc)
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

// TestToolchainUpdateNotStale is the check policy: generated files are
// judged by their inputs (source, headers, flags, targets), not by the
// toolchain that compiled them. After an nvcc patch update nothing is
// stale, and go generate keeps the images (and the recorded version) it
// has.
func TestToolchainUpdateNotStale(t *testing.T) {
	nvcc, log := fakeNVCC(t, true)
	dir := t.TempDir()
	pkg := reducePkg()
	pkg.Dir = dir
	ctx := context.Background()
	out, err := Generate(ctx, pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 80}}})
	require.NoError(t, err)
	require.NoError(t, out.Write(dir))
	before := snapshot(t, dir)
	compiles := compileCount(t, log)

	for _, version := range []string{
		"Cuda compilation tools, release 11.8, V11.8.90",  // a patch release
		"Cuda compilation tools, release 12.4, V12.4.131", // another release
	} {
		patched := otherNVCC(t, nvcc, version)
		t.Setenv("GOCCCL_NVCC", patched)
		report, err := CheckReport(pkg, dir, Options{})
		require.NoError(t, err)
		assert.Empty(t, report, version)
		again, err := Generate(ctx, pkg, Options{NVCC: patched})
		require.NoError(t, err)
		assert.True(t, again.Reused, version)
		require.NoError(t, again.Write(dir))
		assert.Equal(t, before, snapshot(t, dir), version)
		assert.Equal(t, compiles, compileCount(t, log), "nvcc ran for %s", version)
	}
}
