package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
)

func TestVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := newRootCommand(&stdout, &stderr)
	cmd.SetArgs([]string{"version"})
	require.NoError(t, cmd.Execute())
	want := "gocccl-gen " + emit.Version + " (module " + moduleVersion() + ", " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	assert.Equal(t, want, stdout.String())
	assert.Empty(t, stderr.String())
}

// slowNVCC writes an nvcc that answers --version but, asked to compile,
// writes its working directory (the generator's temporary directory) to
// the file $GOCCCL_TEST_STARTED and sleeps.
func slowNVCC(t *testing.T) string {
	t.Helper()
	script := `#!/bin/sh
case "$1" in
--version) echo "Cuda compilation tools, release 11.8, V11.8.89"; exit 0;;
--list-gpu-code) echo sm_80; exit 0;;
--list-gpu-arch) echo compute_80; exit 0;;
esac
pwd > "$GOCCCL_TEST_STARTED.tmp" && mv "$GOCCCL_TEST_STARTED.tmp" "$GOCCCL_TEST_STARTED"
exec sleep 20
`
	nvcc := filepath.Join(t.TempDir(), "nvcc")
	require.NoError(t, os.WriteFile(nvcc, []byte(script), 0o755))
	return nvcc
}

// TestInterruptRemovesTemporaryFiles interrupts gocccl-gen while nvcc runs:
// it must stop nvcc, remove its temporary directory and write nothing.
func TestInterruptRemovesTemporaryFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a shell script as nvcc and SIGINT")
	}
	gen := buildGenerator(t)
	dir := module(t, "prog")
	before := snapshot(t, dir)
	tmp, started := t.TempDir(), filepath.Join(t.TempDir(), "started")
	cmd := exec.Command(gen, "--nvcc="+slowNVCC(t), "--arch=sm_80")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOCCCL_TEST_STARTED="+started)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var work []byte
	for deadline := time.Now().Add(2 * time.Minute); work == nil; time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("gocccl-gen ended before nvcc started: %v\n%s", err, out.String())
		default:
		}
		require.True(t, time.Now().Before(deadline), "nvcc did not start:\n%s", out.String())
		work, _ = os.ReadFile(started)
	}
	workDir := strings.TrimSpace(string(work))
	require.DirExists(t, workDir)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))

	select {
	case err := <-done:
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "%s", out.String())
		assert.Equal(t, 1, ee.ExitCode(), "not ended by the signal but by the error it causes:\n%s", out.String())
		assert.Contains(t, out.String(), "context canceled")
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("gocccl-gen did not end after SIGINT:\n%s", out.String())
	}
	_, err := os.Stat(workDir)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "nvcc's temporary directory %s is left behind", workDir)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "temporary files left behind")
	assert.Equal(t, before, snapshot(t, dir), "files were written although gocccl-gen was interrupted")
}
