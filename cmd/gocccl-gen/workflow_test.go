package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The workflow tests drive gocccl-gen the way users do: through go generate,
// in modules of their own (using this repository through a replace
// directive), with nested packages, build tags, a go.work workspace and
// several generated packages in one binary. Their packages name one target
// with //gocccl:arch to keep nvcc's share of the time small.

// testCacheDir is the compile cache of every gocccl-gen this test binary
// runs; see TestMain.
var testCacheDir string

// TestMain points the compile cache at a temporary directory, so that no
// test (nor the gocccl-gen binaries they run, which inherit the
// environment) writes into the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gocccl-gen-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testCacheDir = dir
	os.Setenv("GOCCCL_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	if pathDir != "" {
		os.RemoveAll(pathDir)
	}
	os.Exit(code)
}

var (
	pathOnce sync.Once
	pathDir  string
	pathErr  error
)

// generatorOnPath builds gocccl-gen once into a directory and returns the
// environment that puts it first on $PATH, as go generate needs, and the
// binary's path.
func generatorOnPath(t *testing.T) (env []string, gen string) {
	t.Helper()
	pathOnce.Do(func() {
		pathDir, pathErr = os.MkdirTemp("", "gocccl-gen-bin-")
		if pathErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(pathDir, "gocccl-gen"), ".").CombinedOutput()
		if err != nil {
			pathErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, pathErr)
	return []string{"PATH=" + pathDir + string(os.PathListSeparator) + os.Getenv("PATH")}, filepath.Join(pathDir, "gocccl-gen")
}

// writeTree writes files (slash-separated paths relative to root).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}

// goMod returns a go.mod for module path that uses this repository, and
// writes the repository's go.sum beside it in dir.
func goMod(t *testing.T, dir, path string) string {
	t.Helper()
	root := repoRoot(t)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	writeTree(t, dir, map[string]string{"go.sum": string(sum)})
	return "module " + path + "\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => " + root + "\n"
}

// kernelPackage returns the source of a package that reduces with op, a
// Go expression over a and b of type typ, and exports Total.
func kernelPackage(name, typ, op, extra string) string {
	return `// Package ` + name + ` is a generated package of the workflow tests.
package ` + name + `

//go:generate gocccl-gen` + extra + `

//gocccl:arch sm_80

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Op(a, b ` + typ + `) ` + typ + ` { return ` + op + ` }

// Reduce folds with Op.
var Reduce = runtime.Reduce(Op)

// Total folds xs with Op on dev, starting from init.
func Total(dev *runtime.Device, xs []` + typ + `, init ` + typ + `) (` + typ + `, error) {
	in, err := runtime.FromHost(dev, xs)
	if err != nil {
		return 0, err
	}
	defer in.Free()
	out, err := runtime.Alloc[` + typ + `](dev, 1)
	if err != nil {
		return 0, err
	}
	defer out.Free()
	if err := Reduce.Run(nil, in, out, init); err != nil {
		return 0, err
	}
	res, err := out.ToHost()
	if err != nil {
		return 0, err
	}
	return res[0], nil
}
`
}

// mainProgram returns a main package that opens a device, prints the
// registered modules and calls Total of each imported package.
func mainProgram(imports map[string]string) string {
	var imp, calls strings.Builder
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	sortStrings(names)
	for _, name := range names {
		fmt.Fprintf(&imp, "\t%s %q\n", name, imports[name])
		fmt.Fprintf(&calls, `	if v, err := %[1]s.Total(dev, []int64{1, 2, 3, 4}, 0); err != nil {
		log.Fatal(err)
	} else {
		fmt.Println("%[1]s:", v)
	}
`, name)
	}
	return `package main

import (
	"fmt"
	"log"

	"github.com/gocccl/gocccl/runtime"
` + imp.String() + `)

func main() {
	dev, err := runtime.Open(runtime.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	fmt.Println("backend:", dev.Info().Backend)
	fmt.Println("modules:", runtime.Modules())
` + calls.String() + `}
`
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// imageFiles lists the compiled images in dir.
func imageFiles(t *testing.T, dir string) []string {
	t.Helper()
	var ims []string
	for _, name := range names(snapshot(t, dir)) {
		if strings.HasSuffix(name, ".cubin") || strings.HasSuffix(name, ".ptx") {
			ims = append(ims, name)
		}
	}
	return ims
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := run(t, dir, env, name, args...)
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
	return out
}

func requireLinuxNVCC(t *testing.T) {
	t.Helper()
	requireNVCC(t)
	if runtime.GOOS != "linux" {
		t.Skip("the CUDA toolchain tests run on Linux")
	}
}

// TestGoGenerateModule runs go generate ./... from the root of a module
// whose generated packages are nested: every one is generated (for the
// directive's target, or the -arch of its go:generate line), the program
// runs on the CPU backend with every module registered, check passes, and
// the module builds and vets with CGO_ENABLED=0.
func TestGoGenerateModule(t *testing.T) {
	requireLinuxNVCC(t)
	env, gen := generatorOnPath(t)
	dir := filepath.Join(t.TempDir(), "mod")
	writeTree(t, dir, map[string]string{
		"go.mod":                     goMod(t, dir, "example.com/mod"),
		"main.go":                    mainProgram(map[string]string{"sum": "example.com/mod/internal/deep/sum", "maxi": "example.com/mod/pkg/maxi"}),
		"internal/deep/sum/sum.go":   kernelPackage("sum", "int64", "a + b", ""),
		"pkg/maxi/maxi.go":           kernelPackage("maxi", "int64", "a | b", " -arch sm_75"),
		"pkg/plain/plain.go":         "// Package plain has no operators.\npackage plain\n",
		"internal/deep/sum/other.go": "package sum\n\n// Other is a second file of the package.\nfunc Other() {}\n",
	})

	mustRun(t, dir, env, "go", "generate", "./...")
	assert.Equal(t, []string{"gocccl_gen_sm_80.cubin"}, imageFiles(t, filepath.Join(dir, "internal/deep/sum")), "the //gocccl:arch target")
	assert.Equal(t, []string{"gocccl_gen_sm_75.cubin"}, imageFiles(t, filepath.Join(dir, "pkg/maxi")), "-arch overrides //gocccl:arch")
	assert.NotContains(t, names(snapshot(t, filepath.Join(dir, "pkg/plain"))), "gocccl_gen.go")

	out := mustRun(t, dir, []string{"GOCCCL_BACKEND=cpu"}, "go", "run", ".")
	assert.Equal(t, "backend: cpu\nmodules: [example.com/mod/internal/deep/sum example.com/mod/pkg/maxi]\nmaxi: 7\nsum: 10\n", out)

	out = mustRun(t, dir, env, gen, "check", "./internal/...")
	assert.Contains(t, out, "1 package(s) up to date")
	// Check keeps to the targets the files were generated for: the flag
	// of the go:generate line is not known to it, so it is given again.
	mustRun(t, dir, env, gen, "check", "-arch", "sm_75", "./pkg/maxi")

	// Another nvcc release (here: the same nvcc, reporting a later patch
	// version) neither makes the output stale nor changes it.
	sum := filepath.Join(dir, "internal/deep/sum")
	nvcc, err := exec.LookPath("nvcc")
	if p := os.Getenv("GOCCCL_NVCC"); p != "" {
		nvcc = p
	} else {
		require.NoError(t, err)
	}
	patched := filepath.Join(t.TempDir(), "nvcc")
	require.NoError(t, os.WriteFile(patched, []byte("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 11.8, V11.8.99'; exit 0; fi\nexec "+nvcc+" \"$@\"\n"), 0o755))
	patchedEnv := append([]string{"GOCCCL_NVCC=" + patched}, env...)
	before := snapshot(t, sum)
	mustRun(t, sum, patchedEnv, gen, "check")
	mustRun(t, sum, patchedEnv, "go", "generate")
	assert.Equal(t, before, snapshot(t, sum))

	// A changed operator makes check fail and say why, file by file.
	src := filepath.Join(sum, "sum.go")
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(src, []byte(strings.Replace(string(b), "return a + b", "return a - b", 1)), 0o644))
	out, err = run(t, sum, env, gen, "check")
	require.Error(t, err)
	assert.Contains(t, out, "stale: gocccl_gen.cu (differs from what gocccl-gen generates now)\n")
	assert.Contains(t, out, "stale: gocccl_gen_sm_80.cubin (built from other inputs: operators, instances or kernel headers changed)\n")
	assert.Contains(t, out, "stale: gocccl_gen_manifest.json (differs")
	assert.Contains(t, out, "generated file(s) are out of date; run go generate")
	require.NoError(t, os.WriteFile(src, b, 0o644))

	// Again from a nested directory: nothing changes.
	mustRun(t, filepath.Join(dir, "internal/deep/sum"), env, "go", "generate")
	assert.Equal(t, before, snapshot(t, filepath.Join(dir, "internal/deep/sum")))

	// The size report: bytes per target per package, totals.
	out = mustRun(t, dir, env, gen, "size", "./...")
	sizes := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 4, line)
		var n, gz int64
		_, err := fmt.Sscan(f[len(f)-2]+" "+f[len(f)-1], &n, &gz)
		require.NoError(t, err, line)
		assert.Less(t, gz, n, "gzip does not shrink %s", line)
		sizes[strings.Join(f[:len(f)-2], " ")] = n
	}
	cubin, err := os.Stat(filepath.Join(sum, "gocccl_gen_sm_80.cubin"))
	require.NoError(t, err)
	assert.Equal(t, cubin.Size(), sizes["example.com/mod/internal/deep/sum sm_80"], out)
	assert.Equal(t, cubin.Size(), sizes["example.com/mod/internal/deep/sum total"], out)
	assert.Equal(t, sizes["example.com/mod/pkg/maxi sm_75"]+cubin.Size(), sizes["all packages total"], out)

	cgoOff := []string{"CGO_ENABLED=0"}
	mustRun(t, dir, cgoOff, "go", "build", "./...")
	mustRun(t, dir, cgoOff, "go", "vet", "./...")
	out = mustRun(t, dir, append(cgoOff, "GOCCCL_BACKEND="), "go", "run", ".")
	assert.Contains(t, out, "backend: cpu\n")
}

// TestBuildTags generates a package one of whose operators is in a
// build-tagged file: the tag given with -tags, or in GOFLAGS, includes its
// kernels, and without it they are left out.
func TestBuildTags(t *testing.T) {
	requireLinuxNVCC(t)
	env, gen := generatorOnPath(t)
	dir := filepath.Join(t.TempDir(), "tagged")
	writeTree(t, dir, map[string]string{
		"go.mod":       goMod(t, dir, "example.com/tagged"),
		"main.go":      mainProgram(map[string]string{"kern": "example.com/tagged/kern"}),
		"kern/kern.go": kernelPackage("kern", "int64", "a + b", ""),
		"kern/extra.go": `//go:build extra

package kern

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Mul(a, b int64) int64 { return a * b }

// Product multiplies.
var Product = runtime.Reduce(Mul)
`,
	})
	kern := filepath.Join(dir, "kern")
	glue := func() string {
		b, err := os.ReadFile(filepath.Join(kern, "gocccl_gen.go"))
		require.NoError(t, err)
		return string(b)
	}

	mustRun(t, kern, env, "go", "generate")
	assert.NotContains(t, glue(), "gocccl_reduce_Mul")

	mustRun(t, kern, env, gen, "-tags", "extra")
	assert.Contains(t, glue(), "gocccl_reduce_Mul", "-tags extra includes extra.go")
	out := mustRun(t, kern, env, gen, "check", "-tags=extra")
	assert.Contains(t, out, "up to date")
	_, err := run(t, kern, env, gen, "check")
	assert.Error(t, err, "without the tag the generated files are stale")

	mustRun(t, kern, env, gen)
	assert.NotContains(t, glue(), "gocccl_reduce_Mul")
	mustRun(t, dir, append(env, "GOFLAGS=-tags=extra"), "go", "generate", "./...")
	assert.Contains(t, glue(), "gocccl_reduce_Mul", "GOFLAGS=-tags=extra includes extra.go")
	out = mustRun(t, dir, []string{"GOFLAGS=-tags=extra", "GOCCCL_BACKEND=cpu"}, "go", "run", ".")
	assert.Contains(t, out, "kern: 10\n")
}

// TestWorkspace generates packages of two modules of a go.work workspace
// with one go generate from the workspace root, and links them into a
// program of a third module, which runs on the CPU backend with both
// modules registered and builds with CGO_ENABLED=0.
func TestWorkspace(t *testing.T) {
	requireLinuxNVCC(t)
	env, gen := generatorOnPath(t)
	ws := filepath.Join(t.TempDir(), "ws")
	one, two, app := filepath.Join(ws, "one"), filepath.Join(ws, "two"), filepath.Join(ws, "app")
	writeTree(t, ws, map[string]string{
		"go.work":            "go 1.26.0\n\nuse (\n\t./app\n\t./one\n\t./two\n)\n",
		"one/go.mod":         goMod(t, one, "example.com/one"),
		"one/adder/adder.go": kernelPackage("adder", "int64", "a + b", ""),
		"two/go.mod":         goMod(t, two, "example.com/two"),
		"two/lib/xor/xor.go": kernelPackage("xor", "int64", "a ^ b", ""),
		"app/go.mod":         goMod(t, app, "example.com/app"),
		"app/main.go":        mainProgram(map[string]string{"adder": "example.com/one/adder", "xor": "example.com/two/lib/xor"}),
	})

	mustRun(t, ws, env, "go", "generate", "example.com/one/...", "example.com/two/...")
	assert.Equal(t, []string{"gocccl_gen_sm_80.cubin"}, imageFiles(t, filepath.Join(one, "adder")))
	assert.Equal(t, []string{"gocccl_gen_sm_80.cubin"}, imageFiles(t, filepath.Join(two, "lib/xor")))
	mustRun(t, ws, env, gen, "check", "example.com/one/...", "example.com/two/...")

	// gocccl-gen itself, run from the workspace root over both modules,
	// changes nothing.
	before := snapshot(t, filepath.Join(two, "lib/xor"))
	mustRun(t, ws, env, gen, "example.com/one/adder", "example.com/two/lib/xor")
	assert.Equal(t, before, snapshot(t, filepath.Join(two, "lib/xor")))

	out := mustRun(t, app, []string{"GOCCCL_BACKEND=cpu"}, "go", "run", ".")
	assert.Equal(t, "backend: cpu\nmodules: [example.com/one/adder example.com/two/lib/xor]\nadder: 10\nxor: 4\n", out)
	mustRun(t, app, []string{"CGO_ENABLED=0"}, "go", "build", "-o", os.DevNull, ".")
	mustRun(t, app, []string{"CGO_ENABLED=0"}, "go", "vet", "./...")
}
