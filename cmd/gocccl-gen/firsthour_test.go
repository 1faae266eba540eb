package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runIn runs the command line args in dir and returns its output.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	wd, werr := os.Getwd()
	require.NoError(t, werr)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	cmd := newRootCommand(&out, &errb)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetArgs(args)
	err = cmd.Execute()
	return out.String(), errb.String(), err
}

// TestMisspelledVerb: a typo of a command is answered with the command, not
// taken as a package; a directory of that name is still a package.
func TestMisspelledVerb(t *testing.T) {
	dir := t.TempDir()
	for arg, want := range map[string]string{"docter": "doctor", "chek": "check", "sise": "size", "verison": "version"} {
		_, _, err := runIn(t, dir, arg)
		require.Error(t, err, arg)
		assert.Contains(t, err.Error(), `unknown command "`+arg+`": did you mean "`+want+`"?`)
	}
	assert.Nil(t, misspelledVerb([]string{"./docter"}, newRootCommand(nil, nil).Commands()))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "docter"), 0o755))
	assert.Nil(t, misspelledVerb([]string{"docter"}, nil))
	assert.Nil(t, misspelledVerb([]string{"sum"}, newRootCommand(nil, nil).Commands()))
	assert.Equal(t, 2, editDistance("docter", "doctor")+editDistance("a", "b"))
}

// TestSizeNeverGenerated: size in a package that was never generated is an
// error that says to run go generate, not an empty table.
func TestSizeNeverGenerated(t *testing.T) {
	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	files := map[string]string{
		"go.mod": "module example.com/fresh\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => " + root + "\n",
		"ops.go": "package fresh\n\nimport \"github.com/gocccl/gocccl/runtime\"\n\n//gocccl:op\nfunc Add(a, b int32) int32 { return a + b }\n\nvar Sum = runtime.Reduce(Add)\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	stdout, _, err := runIn(t, dir, "size")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no generated images in package example.com/fresh: run go generate")
	assert.Empty(t, stdout)
}

func TestHelpNamesEnvironment(t *testing.T) {
	stdout, _, err := runIn(t, t.TempDir(), "--help")
	require.NoError(t, err)
	for _, v := range []string{"GOCCCL_BACKEND", "GOCCCL_CACHE", "GOCCCL_NVCC", "-v"} {
		assert.Contains(t, stdout, v)
	}
}
