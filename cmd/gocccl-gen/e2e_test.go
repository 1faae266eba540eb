package main

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
)

// The end-to-end tests build gocccl-gen, run it on a program in a module of
// its own (which uses this repository through a replace directive), compile
// and run the program on the CPU backend, and inspect the compiled images.

// requireNVCC skips without nvcc, unless GOCCCL_REQUIRE_NVCC is set (as make
// test and CI set it), in which case a missing nvcc fails the test.
func requireNVCC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("nvcc"); err != nil && os.Getenv("GOCCCL_NVCC") == "" {
		if os.Getenv("GOCCCL_REQUIRE_NVCC") != "" {
			t.Fatal("nvcc not found, and GOCCCL_REQUIRE_NVCC is set")
		}
		t.Skip("nvcc not found; install the CUDA toolkit (make toolkit) to run the end-to-end tests")
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	require.NoError(t, err)
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// buildGenerator builds gocccl-gen into a temporary directory.
func buildGenerator(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gocccl-gen")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// module copies testdata/<name> into a new module that requires this
// repository through a replace directive, and returns its directory.
func module(t *testing.T, name string) string {
	t.Helper()
	root := repoRoot(t)
	dir := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	src, err := os.ReadFile(filepath.Join("testdata", name, "main.go"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644))
	gomod := "module example.com/" + name + "\n\ngo 1.26.0\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	return dir
}

func run(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// snapshot reads every file of dir, by name.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = data
	}
	return files
}

func names(files map[string][]byte) []string {
	var ns []string
	for n := range files {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// elfFunctions lists the function symbols of each part of a cubin image,
// which the manifest beside it places (one instance's kernels a part).
// Cubins are ELF files whose version fields carry CUDA's ABI version, which
// debug/elf rejects, so those fields are reset in a copy first.
func elfFunctions(t *testing.T, path string) [][]string {
	t.Helper()
	image, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := emit.ReadManifest(filepath.Join(filepath.Dir(path), emit.ManifestFile))
	require.NoError(t, err)
	parts := m.FileParts(filepath.Base(path))
	require.NotEmpty(t, parts, "the manifest places no part in %s", path)
	var all [][]string
	for i, off := range emit.PartOffsets(parts) {
		data := image[off : off+parts[i].Size]
		require.True(t, len(data) > 24 && bytes.HasPrefix(data, []byte(elf.ELFMAG)), "part %d of %s is not an ELF cubin", i, path)
		data = bytes.Clone(data)
		data[elf.EI_VERSION] = byte(elf.EV_CURRENT)
		binary.LittleEndian.PutUint32(data[20:], uint32(elf.EV_CURRENT)) // e_version
		f, err := elf.NewFile(bytes.NewReader(data))
		require.NoError(t, err, "part %d of %s is not an ELF cubin", i, path)
		syms, err := f.Symbols()
		f.Close()
		require.NoError(t, err)
		var fns []string
		for _, s := range syms {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
				fns = append(fns, s.Name)
			}
		}
		all = append(all, fns)
	}
	return all
}

var wantKernels = []string{
	"gocccl_reduce_MaxI_sweep",
	"gocccl_reduce_MaxI_final",
	"gocccl_transform_ToF",
	"gocccl_transform2_Wrap",
}

func TestEndToEnd(t *testing.T) {
	requireNVCC(t)
	if runtime.GOOS != "linux" {
		t.Skip("the CUDA toolchain tests run on Linux")
	}
	gen := buildGenerator(t)
	dir := module(t, "prog")

	out, err := run(t, dir, nil, gen)
	require.NoError(t, err, "gocccl-gen: %s", out)
	first := snapshot(t, dir)
	require.Contains(t, first, "gocccl_gen.go")
	require.Contains(t, first, "gocccl_gen.cu")
	require.Contains(t, first, "gocccl_gen_manifest.json")
	require.True(t, bytes.HasPrefix(first["gocccl_gen.go"], []byte("// Code generated by gocccl-gen. DO NOT EDIT.")))

	// Every SASS image holds every kernel, each in one part only, every
	// part an instance's kernels; the PTX declares them all.
	var cubins, ptxs int
	var ptxParts []string
	for _, name := range names(first) {
		switch {
		case strings.HasSuffix(name, ".cubin"):
			cubins++
			parts := elfFunctions(t, filepath.Join(dir, name))
			for _, k := range wantKernels {
				in := 0
				for _, fns := range parts {
					if slices.Contains(fns, k) {
						in++
					}
				}
				require.Equal(t, 1, in, "%s holds kernel %s in %d parts", name, k, in)
			}
			for i, fns := range parts {
				require.NotEmpty(t, fns, "part %d of %s holds no kernel", i, name)
			}
		case strings.HasSuffix(name, ".ptx"):
			ptxs++
			for _, k := range wantKernels {
				require.Contains(t, string(first[name]), ".entry "+k, "%s lacks kernel %s", name, k)
			}
			ptxParts = append(ptxParts, name)
		}
	}
	// Each PTX part is what a driver JIT-compiles alone: NUL-terminated PTX
	// that ptxas accepts on its own.
	tc, err := emit.LoadToolchain(context.Background(), "")
	require.NoError(t, err)
	for _, name := range ptxParts {
		m, err := emit.ReadManifest(filepath.Join(dir, emit.ManifestFile))
		require.NoError(t, err)
		parts := m.FileParts(name)
		require.NotEmpty(t, parts, "the manifest places no part in %s", name)
		arch := "sm_" + strings.TrimSuffix(strings.TrimPrefix(name, "gocccl_gen_compute_"), ".ptx")
		for i, off := range emit.PartOffsets(parts) {
			part := first[name][off : off+parts[i].Size]
			require.Equal(t, byte(0), part[len(part)-1], "part %d of %s ends in a NUL", i, name)
			src := filepath.Join(t.TempDir(), "part.ptx")
			require.NoError(t, os.WriteFile(src, part[:len(part)-1], 0o644))
			out, err := exec.Command(tc.Path, "-cubin", "-arch="+arch, "-o", filepath.Join(filepath.Dir(src), "part.cubin"), src).CombinedOutput()
			require.NoError(t, err, "part %d of %s does not compile alone:\n%s", i, name, out)
		}
	}
	// The default targets follow the nvcc: sm_75…sm_90 and compute_90 with
	// 11.8, up to sm_120 and compute_120 with 13.0.
	targets, err := tc.DefaultTargets()
	require.NoError(t, err)
	for _, tg := range targets {
		require.Contains(t, first, tg.FileName(), "default target %s was not built", tg)
	}
	require.Contains(t, first, "gocccl_gen_sm_90.cubin")
	require.Equal(t, len(targets)-1, cubins)
	require.Equal(t, 1, ptxs)
	// The manifest and the glue record the PTX's ISA version.
	m, err := emit.ReadManifest(filepath.Join(dir, emit.ManifestFile))
	require.NoError(t, err)
	require.Regexp(t, `^\d+\.\d+$`, m.PTXISA)
	require.Contains(t, string(first["gocccl_gen.go"]), `PTXISA: "`+m.PTXISA+`"`)
	// No absolute path of the build machine leaks into any output.
	for name, data := range first {
		require.NotContains(t, string(data), dir, "%s holds the package's absolute path", name)
	}

	// The program builds and runs on the CPU backend.
	out, err = run(t, dir, []string{"GOCCCL_BACKEND=cpu"}, "go", "run", ".")
	require.NoError(t, err, "%s", out)
	require.Equal(t, "backend: cpu\nmax: 41\nfahrenheit: [-40 32 212]\nwrap: [328 -104 2048]\n", out)

	// With CGO_ENABLED=0 it still builds, and Auto falls back to the CPU.
	out, err = run(t, dir, []string{"CGO_ENABLED=0", "GOCCCL_BACKEND="}, "go", "run", ".")
	require.NoError(t, err, "%s", out)
	require.Contains(t, out, "backend: cpu\n")

	// Generating again gives the same bytes, and check agrees.
	out, err = run(t, dir, nil, gen)
	require.NoError(t, err, "%s", out)
	require.Equal(t, first, snapshot(t, dir))
	out, err = run(t, dir, nil, gen, "check")
	require.NoError(t, err, "check: %s", out)

	// A second copy, generated in another directory, is byte-identical.
	other := module(t, "prog")
	out, err = run(t, other, nil, gen)
	require.NoError(t, err, "%s", out)
	second := snapshot(t, other)
	for _, name := range names(first) {
		if name == "go.mod" {
			continue
		}
		require.Equal(t, first[name], second[name], "%s differs between directories", name)
	}

	// A stale file makes check fail and name it.
	cu := filepath.Join(dir, "gocccl_gen.cu")
	require.NoError(t, os.WriteFile(cu, append(first["gocccl_gen.cu"], "// edited\n"...), 0o644))
	out, err = run(t, dir, nil, gen, "check")
	require.Error(t, err)
	require.Contains(t, out, "gocccl_gen.cu")
}

// TestArchFlag generates for the targets named with Go's one-dash flag
// spelling, as a go:generate line would, and check keeps to them.
func TestArchFlag(t *testing.T) {
	requireNVCC(t)
	gen := buildGenerator(t)
	dir := module(t, "prog")
	out, err := run(t, dir, nil, gen, "-arch", "sm_80,compute_80")
	require.NoError(t, err, "%s", out)
	files := snapshot(t, dir)
	var images []string
	for _, name := range names(files) {
		if strings.HasSuffix(name, ".cubin") || strings.HasSuffix(name, ".ptx") {
			images = append(images, name)
		}
	}
	require.Equal(t, []string{"gocccl_gen_compute_80.ptx", "gocccl_gen_sm_80.cubin"}, images)
	out, err = run(t, dir, nil, gen, "check")
	require.NoError(t, err, "check: %s", out)
}

func TestDiagnosticsWriteNothing(t *testing.T) {
	gen := buildGenerator(t)
	dir := module(t, "bad")
	before := snapshot(t, dir)
	out, err := run(t, dir, nil, gen)
	require.Error(t, err)
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.ExitCode())
	require.Contains(t, out, "main.go:13:2: ")
	require.Contains(t, out, "main.go:18:")
	require.Equal(t, before, snapshot(t, dir), "files were written despite errors")
}
