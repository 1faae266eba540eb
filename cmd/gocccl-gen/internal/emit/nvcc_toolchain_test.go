package emit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTargets(t *testing.T) {
	for _, in := range []string{"sm_80,sm_90,compute_90", "-arch sm_90,compute_90,sm_80", "-arch=sm_80, sm_90 ,compute_90,sm_90"} {
		ts, err := ParseTargets(in)
		require.NoError(t, err, in)
		assert.Equal(t, []Target{{Arch: 80}, {Arch: 90}, {Arch: 90, PTX: true}}, ts, in)
	}
	for _, in := range []string{"", "sm_9a", "gfx90a", "sm_", "compute_090", "sm_80,,x"} {
		_, err := ParseTargets(in)
		assert.Error(t, err, in)
	}
	assert.Equal(t, "sm_75", Target{Arch: 75}.String())
	assert.Equal(t, "compute_90", Target{Arch: 90, PTX: true}.String())
	assert.Equal(t, "gocccl_gen_sm_75.cubin", Target{Arch: 75}.FileName())
	assert.Equal(t, "gocccl_gen_compute_90.ptx", Target{Arch: 90, PTX: true}.FileName())
}

func TestIsGeneratedFile(t *testing.T) {
	for _, name := range []string{"gocccl_gen.go", "gocccl_gen_test.go", "gocccl_gen.cu", "gocccl_gen_manifest.json", "gocccl_gen_sm_75.cubin", "gocccl_gen_compute_90.ptx"} {
		assert.True(t, IsGeneratedFile(name), name)
	}
	for _, name := range []string{"gocccl_gen_extra_test.go", "gocccl_gen_sm_75.ptx", "gocccl_gen_compute_90.cubin", "gocccl_gen_sm_x.cubin", "x_gocccl_gen.go", "gocccl_gen_sm_075.cubin"} {
		assert.False(t, IsGeneratedFile(name), name)
	}
}

func TestVersions(t *testing.T) {
	v, err := parseNVCCVersion("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 11.8, V11.8.89\n")
	require.NoError(t, err)
	assert.Equal(t, "11.8", v)
	_, err = parseNVCCVersion("garbage")
	assert.Error(t, err)

	cub, ok := parseCUBVersion("/* c */\n#define CUB_VERSION 101702\n#define CUB_MAJOR_VERSION (CUB_VERSION / 100000)\n")
	require.True(t, ok)
	assert.Equal(t, "1.17.2", cubVersionString(cub))
	assert.Equal(t, "3.0.1", cubVersionString(300001))

	assert.Contains(t, knownTargets("11.8"), Target{Arch: 90})
	assert.Contains(t, knownTargets("11.8"), Target{Arch: 35})
	assert.NotContains(t, knownTargets("11.8"), Target{Arch: 100})
	assert.NotContains(t, knownTargets("12.4"), Target{Arch: 35})
	assert.NotContains(t, knownTargets("13.0"), Target{Arch: 70})
	assert.Contains(t, knownTargets("13.0"), Target{Arch: 75, PTX: true})
}

func targetNames(ts []Target) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, " ")
}

// fakeNVCC writes an nvcc stand-in under a CUDA-like root (bin/nvcc,
// include/cub/version.cuh) and returns its path. It prints 11.8's version
// and target lists, and "compiles" by writing the target and the source to
// the output file; every compile is appended to the returned log.
func fakeNVCC(t *testing.T, listTargets bool) (nvcc, log string) {
	root := t.TempDir()
	log = filepath.Join(root, "compiles.log")
	list := "echo sm_75; echo sm_80; echo sm_86; echo sm_89; echo sm_90"
	if !listTargets {
		list = "exit 1"
	}
	script := fmt.Sprintf(`#!/bin/sh
case "$1" in
--version) echo "Cuda compilation tools, release 11.8, V11.8.89"; exit 0;;
--list-gpu-code) %s; exit 0;;
--list-gpu-arch) echo compute_75; echo compute_80; echo compute_90; exit 0;;
esac
out=; arch=; src=
while [ $# -gt 0 ]; do
  case "$1" in
  -o) out=$2; shift;;
  -arch=*) arch=${1#-arch=};;
  *.cu|*.ptx) src=$1;;
  esac
  shift
done
echo "$arch" >> %q
if grep -q FAIL_HERE "$src"; then
  line=$(grep -n FAIL_HERE "$src" | cut -d: -f1)
  echo "$src($line): error: identifier \"FAIL_HERE\" is undefined" >&2
  exit 2
fi
case "$src" in
*.cu) # PTX: the source as comments, then an entry per kernel
  { echo ".version 9.0"; sed 's|^|// |' "$src"
    grep -A1 '__global__' "$src" | grep -o '^gocccl_[A-Za-z0-9_]*' | while read -r k; do
      printf '.visible .entry %%s(\n)\n{\n\tret;\n}\n' "$k"
    done; } > "$out";;
*) { echo "fake image for $arch"; cat "$src"; } > "$out";;
esac
`, list, log)
	nvcc = filepath.Join(root, "bin", "nvcc")
	require.NoError(t, os.MkdirAll(filepath.Dir(nvcc), 0o755))
	require.NoError(t, os.WriteFile(nvcc, []byte(script), 0o755))
	cub := filepath.Join(root, "include", "cub", "version.cuh")
	require.NoError(t, os.MkdirAll(filepath.Dir(cub), 0o755))
	require.NoError(t, os.WriteFile(cub, []byte("#define CUB_VERSION 101702\n"), 0o644))
	return nvcc, log
}

func TestFindAndLoadToolchain(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	_, err := FindNVCC(filepath.Join(t.TempDir(), "nvcc"))
	assert.Error(t, err, "an explicit path that does not exist")

	t.Setenv("GOCCCL_NVCC", nvcc)
	p, err := FindNVCC("")
	require.NoError(t, err)
	assert.Equal(t, nvcc, p)

	tc, err := LoadToolchain(context.Background(), "")
	require.NoError(t, err)
	assert.Equal(t, "11.8", tc.Version)
	assert.Equal(t, "1.17.2", tc.CUB)
	assert.True(t, tc.Supports(Target{Arch: 90, PTX: true}))
	assert.False(t, tc.Supports(Target{Arch: 87}))

	t.Setenv("GOCCCL_NVCC", filepath.Join(t.TempDir(), "missing"))
	_, err = FindNVCC("")
	assert.Error(t, err, "$GOCCCL_NVCC that does not exist")

	t.Setenv("GOCCCL_NVCC", "")
	t.Setenv("CUDA_HOME", filepath.Dir(filepath.Dir(nvcc)))
	p, err = FindNVCC("")
	require.NoError(t, err)
	assert.Equal(t, nvcc, p)

	noList, _ := fakeNVCC(t, false)
	tc, err = LoadToolchain(context.Background(), noList)
	require.NoError(t, err)
	assert.Equal(t, knownTargets("11.8"), tc.Supported, "fallback table when nvcc cannot list targets")
}

func TestCompileErrorMapsToGo(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	tc, err := LoadToolchain(context.Background(), nvcc)
	require.NoError(t, err)
	src := brokenSource(t)
	_, err = tc.compile(context.Background(), src, nil, testTargets[:2], nil, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nvcc 11.8 for sm_75")
	assert.Regexp(t, `gocccl_gen\.cu\(\d+\) \[sum\.go:13:2\]: error`, err.Error())
	assert.Contains(t, err.Error(), "also failed: sm_80")

	_, err = tc.compile(context.Background(), src, nil, []Target{{Arch: 87}}, nil, 1)
	assert.ErrorContains(t, err, "cannot compile for sm_87")
}

func TestCompileErrorMapsToGoRealNVCC(t *testing.T) {
	tc := realNVCC(t)
	_, err := tc.compile(context.Background(), brokenSource(t), stubHeaders(t), []Target{{Arch: 75}}, nil, 1)
	require.Error(t, err)
	assert.Regexp(t, `gocccl_gen\.cu\(\d+\) \[sum\.go:13:2\]: error: identifier "FAIL_HERE" is undefined`, err.Error())
}

// brokenSource is the reduce model's source with an error in the body of
// Add, whose return statement is sum.go:13:2.
func brokenSource(t *testing.T) *cudaFile {
	src, err := cudaSource(reducePkg(), testTargets[:2])
	require.NoError(t, err)
	const add = "return ::gocccl::go::fadd<float>(a, b);"
	require.Equal(t, 1, bytes.Count(src.src, []byte(add)))
	src.src = bytes.Replace(src.src, []byte(add), []byte("return FAIL_HERE;"), 1)
	return src
}

func TestCUDALineTable(t *testing.T) {
	src, err := cudaSource(reducePkg(), testTargets)
	require.NoError(t, err)
	lines := strings.Split(string(src.src), "\n")
	found := map[string]string{}
	first := map[string]int{} // the first line of each position
	for n, p := range src.lines {
		if f, ok := first[p]; !ok || n < f {
			first[p] = n
		}
	}
	for p, n := range first {
		found[p] = strings.TrimSpace(lines[n-1])
	}
	assert.Equal(t, "__device__ __forceinline__ float Add(float a, float b) {", found["sum.go:12:1"])
	assert.Equal(t, "return ::gocccl::go::fadd<float>(a, b);", found["sum.go:13:2"])
	assert.Equal(t, "if (a > b) {", found["sum.go:23:2"])
	assert.Equal(t, "return b;", found["sum.go:26:3"])
}

// realNVCC returns the installed toolchain, or skips.
func realNVCC(t *testing.T) *Toolchain {
	t.Helper()
	if _, err := FindNVCC(""); err != nil {
		t.Skipf("nvcc is not installed (%v): skipping compilation (scripts/install-cuda-toolkit.sh installs it)", err)
	}
	tc, err := LoadToolchain(context.Background(), "")
	require.NoError(t, err)
	return tc
}

// algorithmHeaders returns the embedded headers, or skips when the algorithm
// headers are not written yet.
func algorithmHeaders(t *testing.T) []File {
	t.Helper()
	hs, err := embeddedHeaders()
	require.NoError(t, err)
	have := map[string]bool{}
	for _, h := range hs {
		have[h.Name] = true
	}
	for _, need := range []string{"include/gocccl/reduce.cuh", "include/gocccl/transform.cuh"} {
		if !have[need] {
			t.Skipf("kernels/%s is not there yet: skipping compilation against the real headers", need)
		}
	}
	return hs
}

// stubHeaders returns gosem.cuh (and gomath.cuh, which it includes) with the plain stand-ins of the algorithm
// headers in testdata/stub.
func stubHeaders(t *testing.T) []File {
	t.Helper()
	hs, err := embeddedHeaders()
	require.NoError(t, err)
	var out []File
	for _, h := range hs {
		if h.Name == "include/gocccl/gosem.cuh" || h.Name == "include/gocccl/gomath.cuh" || h.Name == "include/gocccl/gocomplex.cuh" || h.Name == "include/gocccl/gohalf.cuh" {
			out = append(out, h)
		}
	}
	for _, name := range []string{"reduce.cuh", "reduce_final.cuh", "transform.cuh", "transform_reduce.cuh"} {
		b, err := os.ReadFile(filepath.Join("testdata", "stub", "include", "gocccl", name))
		require.NoError(t, err)
		out = append(out, File{Name: "include/gocccl/" + name, Data: b})
	}
	return out
}

// TestCompileDefaultTargets compiles the reduce golden model for each
// default target and the other golden models for the last two (the highest
// SASS and the PTX) against the real headers, the reduce model twice (in two temporary
// directories) to check that the artifacts are byte-identical, and checks
// that no artifact holds a path.
func TestCompileDefaultTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs nvcc")
	}
	tc := realNVCC(t)
	headers := algorithmHeaders(t)
	targets, err := tc.DefaultTargets()
	require.NoError(t, err)
	for _, m := range goldenModels {
		t.Run(m.name, func(t *testing.T) {
			targets := targets
			if m.name != "reduce" {
				// Every target once is the reduce model's job; the others
				// check their source on the highest SASS and the PTX, which
				// halves the test's nvcc time.
				targets = targets[len(targets)-2:]
			}
			src, err := cudaSource(m.build(), targets)
			require.NoError(t, err)
			first, err := tc.compile(context.Background(), src, headers, targets, nil, 0)
			require.NoError(t, err)
			for _, tg := range targets {
				img := first[tg].data
				require.NotEmpty(t, img, tg.String())
				for _, leak := range []string{os.TempDir(), "gocccl-gen-", "/home/", "/work/"} {
					assert.False(t, bytes.Contains(img, []byte(leak)), "%s holds %q", tg, leak)
				}
				if tg.PTX {
					assert.Contains(t, string(img), ".target "+strings.Replace(tg.String(), "compute_", "sm_", 1))
				}
			}
			if m.name != "reduce" {
				return
			}
			second, err := tc.compile(context.Background(), src, headers, targets, nil, 1)
			require.NoError(t, err)
			for _, tg := range targets {
				assert.True(t, bytes.Equal(first[tg].data, second[tg].data), "%s differs between two compiles", tg)
			}
		})
	}
}

// TestCompileStubHeaders compiles the generated sources against plain
// stand-ins of the algorithm headers, so that the generated code itself is
// checked by nvcc even while the real headers change.
func TestCompileStubHeaders(t *testing.T) {
	tc := realNVCC(t)
	targets := []Target{{Arch: 75}, {Arch: 90, PTX: true}}
	for _, m := range goldenModels {
		src, err := cudaSource(m.build(), targets)
		require.NoError(t, err)
		out, err := tc.compile(context.Background(), src, stubHeaders(t), targets, nil, 0)
		require.NoError(t, err, m.name)
		for _, tg := range targets {
			require.NotEmpty(t, out[tg].data, "%s %s", m.name, tg)
		}
	}
}
