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
	for _, v := range []string{"GOCCCL_BACKEND", "GOCCCL_CACHE", "GOCCCL_UNGENERATED", "GOCCCL_NVCC", "-v"} {
		assert.Contains(t, stdout, v)
	}
}

// freshModule writes files into a new module that uses this repository and
// returns its directory.
func freshModule(t *testing.T, path string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	files["go.mod"] = "module " + path + "\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	files["go.sum"] = string(sum)
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	return dir
}

// TestInstancesInTestFiles: an instance only a _test.go file declares (of
// the package or its external test package, over an operator of either)
// is reported at its position by go generate and check, which write
// nothing; a test file may repeat an instance a package file declares, and
// may declare instances over functions that are not operators.
func TestInstancesInTestFiles(t *testing.T) {
	ops := "package tests\n\nimport \"github.com/gocccl/gocccl/runtime\"\n\n//gocccl:op\nfunc Add(a, b int32) int32 { return a + b }\n\n//gocccl:op\nfunc Mul(a, b int32) int32 { return a * b }\n\nvar Sum = runtime.Reduce(Add)\n"
	dir := freshModule(t, "example.com/tests", map[string]string{
		"ops.go": ops,
		"ops_test.go": "package tests\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gocccl/gocccl/runtime\"\n)\n\n" +
			"//gocccl:op\nfunc Sub(a, b int32) int32 { return a - b }\n\n" +
			"func plain(a, b int32) int32 { return a - b }\n\n" +
			"func TestOps(t *testing.T) {\n" +
			"\t_ = runtime.Reduce(Add)\n" + // line 15: declared by ops.go too
			"\t_ = runtime.Reduce(Mul)\n" + // 16: only here
			"\t_ = runtime.InclusiveScan(Sub)\n" + // 17: only here, operator here too
			"\t_ = runtime.Reduce(plain)\n" + // 18: not an operator
			"\t_ = runtime.RadixSortKeys[uint16]()\n" + // 19: only here
			"}\n",
		"ext_test.go": "package tests_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/tests\"\n\t\"github.com/gocccl/gocccl/runtime\"\n)\n\n" +
			"func TestExt(t *testing.T) {\n" +
			"\t_ = runtime.Reduce(tests.Add)\n" + // 11: declared by ops.go
			"\t_ = runtime.ExclusiveScan(tests.Mul)\n" + // 12: only here
			"}\n",
	})
	before := snapshot(t, dir)
	for _, args := range [][]string{nil, {"check"}} {
		_, stderr, err := runIn(t, dir, args...)
		require.Error(t, err, "%v", args)
		for _, want := range []string{
			"ops_test.go:16:6: runtime.Reduce(Mul) is declared only in a _test.go file: gocccl-gen generates kernels for package files only; move the declaration (and its operator, if that is in a test file too) to a non-test file, then run go generate",
			"ops_test.go:17:6: runtime.InclusiveScan(Sub) is declared only in a _test.go file",
			"ops_test.go:19:6: runtime.RadixSortKeys[uint16] is declared only in a _test.go file",
			"ext_test.go:12:6: runtime.ExclusiveScan(tests.Mul) is declared only in a _test.go file",
		} {
			assert.Contains(t, stderr, want, "%v", args)
		}
		for _, line := range []string{"ops_test.go:15:", "ops_test.go:18:", "ext_test.go:11:"} {
			assert.NotContains(t, stderr, line, "%v", args)
		}
	}
	assert.Equal(t, before, snapshot(t, dir), "files were written despite errors")

	// Without the test-only instances, nothing is reported (check finds
	// the package never generated).
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ops_test.go"), []byte("package tests\n\nimport (\n\t\"testing\"\n\n\t\"github.com/gocccl/gocccl/runtime\"\n)\n\nfunc plain(a, b int32) int32 { return a - b }\n\nfunc TestOps(t *testing.T) {\n\t_ = runtime.Reduce(Add)\n\t_ = runtime.Reduce(plain)\n}\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "ext_test.go")))
	_, stderr, err := runIn(t, dir, "check")
	require.Error(t, err)
	assert.NotContains(t, stderr, "_test.go")
	assert.Contains(t, stderr, "stale: gocccl_gen.go (missing)")
}

// TestEditedOperator: an operator edited after go generate makes check
// report the package stale and the generated test (gocccl_gen_test.go)
// fail, saying to run go generate; editing a comment does neither, and
// after go generate both pass again.
func TestEditedOperator(t *testing.T) {
	requireLinuxNVCC(t)
	env, gen := generatorOnPath(t)
	src := "package edited\n\n//go:generate gocccl-gen -arch=sm_80\n\nimport \"github.com/gocccl/gocccl/runtime\"\n\n//gocccl:op\nfunc Add(a, b int32) int32 {\n\t// adds\n\treturn a + b\n}\n\nvar Sum = runtime.Reduce(Add)\n"
	dir := freshModule(t, "example.com/edited", map[string]string{"ops.go": src})
	mustRun(t, dir, env, "go", "generate", ".")
	require.FileExists(t, filepath.Join(dir, "gocccl_gen_test.go"))
	mustRun(t, dir, env, "go", "test", ".")
	mustRun(t, dir, env, gen, "check")

	edit := func(old, new string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "ops.go"))
		require.NoError(t, err)
		require.True(t, bytes.Contains(b, []byte(old)))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "ops.go"), bytes.Replace(b, []byte(old), []byte(new), 1), 0o644))
	}
	edit("// adds", "// adds two numbers")
	mustRun(t, dir, env, "go", "test", ".")
	mustRun(t, dir, env, gen, "check")

	edit("a + b", "a - b")
	out, err := run(t, dir, env, "go", "test", ".")
	require.Error(t, err, "%s", out)
	assert.Contains(t, out, "TestGoccclGenerated")
	assert.Contains(t, out, "the //gocccl:op operators or constants of package edited changed since gocccl-gen compiled its kernels: run go generate")
	out, err = run(t, dir, env, gen, "check")
	require.Error(t, err, "%s", out)
	assert.Contains(t, out, "stale: gocccl_gen.cu")
	assert.Contains(t, out, "stale: gocccl_gen_test.go")

	mustRun(t, dir, env, "go", "generate", ".")
	mustRun(t, dir, env, "go", "test", ".")
	mustRun(t, dir, env, gen, "check")
}

// TestGeneratorFaults: a missing nvcc, an nvcc that fails and a package
// that does not type-check each end gocccl-gen with an error that names the
// problem, and leave the package's files as they were, with no temporary
// file behind. (An operator outside the subset: TestDiagnosticsWriteNothing;
// an unwritable directory: emit.TestWriteAllAtomic.)
func TestGeneratorFaults(t *testing.T) {
	src := "package faults\n\nimport \"github.com/gocccl/gocccl/runtime\"\n\n//gocccl:op\nfunc Add(a, b int32) int32 { return a + b }\n\nvar Sum = runtime.Reduce(Add)\n"
	failing := filepath.Join(t.TempDir(), "nvcc")
	require.NoError(t, os.WriteFile(failing, []byte(`#!/bin/sh
case "$1" in
--version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0;;
--list-gpu-code) echo sm_80; exit 0;;
--list-gpu-arch) echo compute_80; exit 0;;
esac
echo "nvcc fatal   : injected failure" >&2
exit 2
`), 0o755))
	for name, c := range map[string]struct {
		files map[string]string
		args  []string
		want  []string
	}{
		"nvcc missing": {map[string]string{"ops.go": src}, []string{"--nvcc=/nonexistent/bin/nvcc", "--arch=sm_80"},
			[]string{"nvcc from the -nvcc flag: /nonexistent/bin/nvcc: no such file; install the CUDA toolkit"}},
		"nvcc failing": {map[string]string{"ops.go": src}, []string{"--nvcc=" + failing, "--arch=sm_80"},
			[]string{"example.com/faults", "injected failure"}},
		"type error": {map[string]string{"ops.go": src + "\nvar x int = \"s\"\n"}, []string{"--nvcc=" + failing, "--arch=sm_80"},
			[]string{"ops.go:10:13: ", "cannot use \"s\""}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := freshModule(t, "example.com/faults", c.files)
			t.Setenv("GOCCCL_CACHE", "off")
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			before := snapshot(t, dir)
			_, stderr, err := runIn(t, dir, c.args...)
			require.Error(t, err)
			msg := err.Error() + stderr
			for _, w := range c.want {
				assert.Contains(t, msg, w)
			}
			assert.Equal(t, before, snapshot(t, dir), "files were written")
			left, err := os.ReadDir(tmp)
			require.NoError(t, err)
			assert.Empty(t, left, "temporary files left behind")
		})
	}
}
