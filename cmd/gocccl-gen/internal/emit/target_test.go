package emit

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTargetPrecedence checks which targets win: the -arch flag over the
// package's //gocccl:arch directive, the directive over the manifest's
// targets, the manifest's over the toolchain's defaults.
func TestTargetPrecedence(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	ctx := context.Background()
	dir := t.TempDir()
	pkg := reducePkg()
	pkg.Dir = dir
	targetsOf := func(o *Output) []string {
		var ts []string
		for _, t := range o.Manifest.Targets {
			ts = append(ts, t.String())
		}
		return ts
	}

	// A manifest that chose sm_75.
	out, err := Generate(ctx, pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 75}}})
	require.NoError(t, err)
	require.NoError(t, out.Write(dir))

	// Without directive or flag, the manifest's targets stay.
	out, err = Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.Equal(t, []string{"sm_75"}, targetsOf(out))

	// The directive overrides the manifest, and check judges by it.
	pkg.Targets = []string{"sm_80", "compute_80"}
	stale, err := Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Contains(t, stale, "gocccl_gen_sm_80.cubin")
	assert.Contains(t, stale, "gocccl_gen_sm_75.cubin", "no longer generated")
	out, err = Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.Equal(t, []string{"sm_80", "compute_80"}, targetsOf(out))
	require.NoError(t, out.Write(dir))
	stale, err = Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale)

	// The flag overrides the directive.
	out, err = Generate(ctx, pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 90}}})
	require.NoError(t, err)
	assert.Equal(t, []string{"sm_90"}, targetsOf(out))
	stale, err = Check(pkg, dir, Options{Targets: []Target{{Arch: 90}}})
	require.NoError(t, err)
	assert.Contains(t, stale, "gocccl_gen_sm_90.cubin")

	// A target the toolchain cannot build is an error naming it.
	pkg.Targets = []string{"sm_87"}
	_, err = Generate(ctx, pkg, Options{NVCC: nvcc})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot compile for sm_87")

	// Without anything, the toolchain's defaults.
	pkg.Targets = nil
	pkg.Dir = t.TempDir()
	out, err = Generate(ctx, pkg, Options{NVCC: nvcc})
	require.NoError(t, err)
	assert.Equal(t, []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "compute_90"}, targetsOf(out))
}
