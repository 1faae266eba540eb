package emit

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// testTargets are the targets of the golden files.
var testTargets = []Target{{Arch: 75}, {Arch: 80}, {Arch: 86}, {Arch: 89}, {Arch: 90}, {Arch: 90, PTX: true}}

// goldenModels are the hand-built models with golden output.
var goldenModels = []struct {
	name  string
	build func() *model.Package
	goSrc string // Go source of the operators, for building the glue
}{
	{"reduce", reducePkg, reduceGo},
	{"transform", transformPkg, transformGo},
	{"semantics", semanticsPkg, semanticsGo},
	{"complex", complexPkg, complexGo},
	{"half", halfPkg, halfGo},
}

// goldenManifest is the manifest the golden glue is generated with: a fixed
// input hash, so that edits of the kernel headers do not change it.
func goldenManifest(targets []Target) *Manifest {
	m := &Manifest{NVCC: "11.8", InputHash: strings.Repeat("0123456789abcdef", 4), Targets: targets}
	for _, t := range targets {
		m.Files = append(m.Files, FileHash{Name: t.FileName(), SHA256: sha256Hex([]byte(t.String()))})
	}
	return m
}

// golden compares got with testdata/golden/<name>, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing; run go test ./emit -update")
	assert.Equal(t, string(want), string(got), "%s differs from the golden file; run go test ./emit -update and review the diff", path)
}

func TestCUDAGolden(t *testing.T) {
	for _, m := range goldenModels {
		t.Run(m.name, func(t *testing.T) {
			got, err := CUDASource(m.build(), testTargets)
			require.NoError(t, err)
			golden(t, m.name+"/"+CUDAFile, got)
			again, err := CUDASource(m.build(), testTargets)
			require.NoError(t, err)
			require.Equal(t, got, again, "CUDASource is not deterministic")
			assert.NotContains(t, string(got), "/home/", "absolute path in the output")
		})
	}
}

func TestGoGlueGolden(t *testing.T) {
	for _, m := range goldenModels {
		t.Run(m.name, func(t *testing.T) {
			got, err := GoGlue(m.build(), goldenManifest(testTargets))
			require.NoError(t, err)
			golden(t, m.name+"/"+GoFile, got)
			again, err := GoGlue(m.build(), goldenManifest(testTargets))
			require.NoError(t, err)
			require.Equal(t, got, again, "GoGlue is not deterministic")
		})
	}
}

// TestPoliciesPerArch checks the #if __CUDA_ARCH__ blocks and the per-arch
// Go policies when the tuning table differs between architectures.
func TestPoliciesPerArch(t *testing.T) {
	defer func(f func(*algo.Algorithm, int64, int) Policy) { policyFor = f }(policyFor)
	policyFor = func(alg *algo.Algorithm, size int64, arch int) Policy {
		p := alg.Policy(size, arch)
		switch {
		case arch >= 90:
			p.BlockThreads = 512
		case arch >= 80:
			p.ItemsPerThread *= 2
		}
		return p
	}
	pkg := reducePkg()
	cu, err := CUDASource(pkg, testTargets)
	require.NoError(t, err)
	golden(t, "perarch/"+CUDAFile, cu)
	glue, err := GoGlue(pkg, goldenManifest(testTargets))
	require.NoError(t, err)
	golden(t, "perarch/"+GoFile, glue)
	s := string(cu)
	assert.Contains(t, s, "#if __CUDA_ARCH__ >= 900  // sm_90, compute_90\n")
	assert.Contains(t, s, "#elif __CUDA_ARCH__ >= 800  // sm_80, sm_86, sm_89\n")
	assert.Contains(t, s, "#else  // sm_75\n")
}

// TestMinBlocks: a policy that asks for a minimum of blocks per
// multiprocessor on some architectures gives the instance's entry points
// __launch_bounds__(threads, minblocks), 0 (no bound) where it asks for none; the glue
// does not change; and the source compiles.
func TestMinBlocks(t *testing.T) {
	defer func(f func(*algo.Algorithm, int64, int) Policy) { policyFor = f }(policyFor)
	policyFor = func(alg *algo.Algorithm, size int64, arch int) Policy {
		p := alg.Policy(size, arch)
		if arch >= 90 && size == 4 {
			p.MinBlocks = 3
		}
		return p
	}
	pkg := reducePkg()
	cu, err := CUDASource(pkg, testTargets)
	require.NoError(t, err)
	s := string(cu)
	assert.Contains(t, s, "constexpr int gocccl_reduce_Add_threads = 256, gocccl_reduce_Add_items = 16, gocccl_reduce_Add_minblocks = 3;")
	assert.Contains(t, s, "constexpr int gocccl_reduce_Add_threads = 256, gocccl_reduce_Add_items = 16, gocccl_reduce_Add_minblocks = 0;")
	assert.Contains(t, s, "__launch_bounds__(gocccl_reduce_Add_threads, gocccl_reduce_Add_minblocks)\ngocccl_reduce_Add_sweep(")
	assert.Contains(t, s, "__launch_bounds__(gocccl_reduce_Max_threads)\ngocccl_reduce_Max_sweep(", "8-byte Max asks for none")
	assert.NotContains(t, s, "gocccl_reduce_Max_minblocks")

	policyFor = func(alg *algo.Algorithm, size int64, arch int) Policy { return alg.Policy(size, arch) }
	plain, err := GoGlue(pkg, goldenManifest(testTargets))
	require.NoError(t, err)
	policyFor = func(alg *algo.Algorithm, size int64, arch int) Policy {
		p := alg.Policy(size, arch)
		p.MinBlocks = 2
		return p
	}
	withMin, err := GoGlue(pkg, goldenManifest(testTargets))
	require.NoError(t, err)
	assert.Equal(t, string(plain), string(withMin), "the glue does not record MinBlocks")

	if testing.Short() {
		return
	}
	tc := realNVCC(t)
	out, err := tc.compile(context.Background(), &cudaFile{src: cu}, stubHeaders(t), []Target{{Arch: 90}}, nil, 0)
	require.NoError(t, err)
	require.NotEmpty(t, out[Target{Arch: 90}].data, "a cubin for sm_90")
}

// TestGlueBuilds builds the golden glue with the operators' Go source
// against this repository's runtime package, in a module of its own.
func TestGlueBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("../../../..")
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("go.mod", "module example.com/demo\n\ngo 1.26\n\nrequire github.com/gocccl/gocccl v0.0.0\n\nreplace github.com/gocccl/gocccl => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	write("go.sum", string(sum))
	for _, m := range goldenModels {
		pkg := m.build()
		glue, err := GoGlue(pkg, goldenManifest(testTargets))
		require.NoError(t, err)
		sub := strings.TrimPrefix(pkg.Path, "example.com/demo/")
		write(sub+"/"+GoFile, string(glue))
		write(sub+"/ops.go", m.goSrc)
		for _, tg := range testTargets {
			write(sub+"/"+tg.FileName(), "fake image")
		}
	}
	cmd := exec.Command(goCmd, "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go vet of the generated glue:\n%s", out)
}

// The operators of the hand-built models as Go source.
const reduceGo = `package sum

import "github.com/gocccl/gocccl/runtime"

func Add(a, b float32) float32 { return a + b }
func AddI(a, b int32) int32    { return a + b }
func Max(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

var (
	_ = runtime.Reduce(Add)
	_ = runtime.Reduce(AddI)
	_ = runtime.Reduce(Max)
)
`

const transformGo = `package scale

type Celsius float32

func Scale(x int8) float64             { return float64(x) * 0.1 }
func Warm(t Celsius, d int16) Celsius { return t + Celsius(d) }

func Prec(a, b float32, p, q bool) Celsius {
	x := float32(a+b) * 2
	y := -float32(a - b)
	if !bool(p || q) && !bool(a < b) {
		return Celsius(float32(a)+float32(b)) * 3
	}
	return Celsius(x + y)
}
`

const semanticsGo = `package ops

func Mix(a, b int64) int64                { return a / b }
func Clamp(x int64) int64                 { return x }
func Bits(v uint16, n int8) uint32        { return uint32(v) << n }
func Floats(f float32, g float64) float64 { return float64(f) + g }
func F32(a, b float32) float32            { return a + b }
func Small(a, b int8) int8                { return a * b }
func Limits(u uint, i int) bool           { return int(u) != i }
func Sign(x int16) int16                  { return x }
`

// TestLookBackDelay: an instance whose algorithm looks back gets a _delay
// tag type per architecture group, from its policy's Delay (CUB's default
// where the policy sets none), and passes it to the kernels that take it
// (algo.Kernel.Delay), not to the others; the glue does not record it.
func TestLookBackDelay(t *testing.T) {
	pkg := reducePkg()
	add, maxOp := pkg.Ops[0], pkg.Ops[2]
	pkg.Instances = []*model.Instance{
		{Algorithm: algo.InclusiveScan, Ops: []*model.Op{add}, Types: []*model.Type{tFloat32}, Pos: add.Pos},
		{Algorithm: algo.InclusiveScan, Ops: []*model.Op{maxOp}, Types: []*model.Type{tInt64}, Pos: maxOp.Pos},
		{Algorithm: algo.Reduce, Ops: []*model.Op{add}, Types: []*model.Type{tFloat32}, Pos: add.Pos},
	}
	cu, err := CUDASource(pkg, testTargets)
	require.NoError(t, err)
	s := string(cu)
	require.Contains(t, s, "#if __CUDA_ARCH__ >= 900  // sm_90, compute_90\n")
	require.Contains(t, s, "#else  // sm_75, sm_80, sm_86, sm_89\n", "the scans' policies are alike below sm_90")
	sm90 := s[strings.Index(s, "#if __CUDA_ARCH__ >= 900"):strings.Index(s, "#else  // sm_75")]
	assert.Contains(t, sm90, "using gocccl_inclusive_scan_Add_delay = ::gocccl::FixedDelay<648, 1245>;\n")
	assert.Contains(t, sm90, "using gocccl_inclusive_scan_Max_delay = ::gocccl::FixedDelay<632, 1290>;\n")
	assert.Contains(t, s[strings.Index(s, "#else  // sm_75"):], "using gocccl_inclusive_scan_Add_delay = ::gocccl::DefaultDelay;\n")
	assert.NotContains(t, s, "gocccl_reduce_Add_delay", "Reduce does not look back")
	assert.Contains(t, s, ", has_init, gocccl_inclusive_scan_Add_delay());\n", "the sweep takes the waits")
	assert.Contains(t, s, "(d_state, state_bytes, num_tiles);\n", "the init kernel takes none")

	plain, err := GoGlue(pkg, goldenManifest(testTargets))
	require.NoError(t, err)
	defer func(f func(*algo.Algorithm, int64, int) Policy) { policyFor = f }(policyFor)
	policyFor = func(alg *algo.Algorithm, size int64, a int) Policy {
		p := alg.Policy(size, a)
		p.Delay = arch.Delay{}
		return p
	}
	without, err := GoGlue(pkg, goldenManifest(testTargets))
	require.NoError(t, err)
	assert.Equal(t, string(plain), string(without), "the glue does not record Delay")
	cuWithout, err := CUDASource(pkg, testTargets)
	require.NoError(t, err)
	assert.NotContains(t, string(cuWithout), "FixedDelay")
}
