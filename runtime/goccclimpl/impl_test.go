package goccclimpl_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersionGuard builds glue-shaped packages of several versions against
// this runtime: the current version builds, an older one fails with a
// message naming go generate, a newer one with a message naming an update.
func TestVersionGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules with the go command")
	}
	_, file, _, _ := runtime.Caller(0)
	root, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
	require.NoError(t, err)
	for _, c := range []struct {
		version string
		want    string // "" builds
	}{
		{"2", ""},
		{"3", ""},
		{"1", "constant -1 overflows goccclimpl.EnforceVersion_RunGoGenerate"},
		{"4", ""},
		{"5", ""},
		{"6", ""},
		{"7", "constant -1 overflows goccclimpl.EnforceVersion_UpdateGocccl"},
	} {
		t.Run("v"+c.version, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, text string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
			}
			write("go.mod", "module example.com/glue\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => "+root+"\n")
			write("glue.go", `package glue

import "github.com/gocccl/gocccl/runtime/goccclimpl"

const (
	_ = goccclimpl.EnforceVersion_RunGoGenerate(`+c.version+` - goccclimpl.MinVersion)
	_ = goccclimpl.EnforceVersion_UpdateGocccl(goccclimpl.MaxVersion - `+c.version+`)
)
`)
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if c.want == "" {
				require.NoError(t, err, "%s", out)
				return
			}
			require.Error(t, err)
			assert.Contains(t, string(out), c.want)
		})
	}
}
