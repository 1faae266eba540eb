package emit

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The NaN rules of Go on amd64 that gosem.cuh reproduces (fadd, fsub, fmul,
// fquo, conv, FMA). Each function below is one Go operation compiled on its
// own (noinline), as an operator's body is.

//go:noinline
func nanAdd32(a, b float32) float32 { return a + b }

//go:noinline
func nanSub32(a, b float32) float32 { return a - b }

//go:noinline
func nanMul32(a, b float32) float32 { return a * b }

//go:noinline
func nanQuo32(a, b float32) float32 { return a / b }

//go:noinline
func nanAdd64(a, b float64) float64 { return a + b }

//go:noinline
func nanSub64(a, b float64) float64 { return a - b }

//go:noinline
func nanMul64(a, b float64) float64 { return a * b }

//go:noinline
func nanQuo64(a, b float64) float64 { return a / b }

//go:noinline
func nanF32to64(x float32) float64 { return float64(x) }

//go:noinline
func nanF64to32(x float64) float32 { return float32(x) }

//go:noinline
func nanFMA(x, y, z float64) float64 { return math.FMA(x, y, z) }

//go:noinline
func nanSqrt(x float64) float64 { return math.Sqrt(x) }

//go:noinline
func nanSqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

//go:noinline
func nanNeg32(x float32) float32 { return -x }

//go:noinline
func nanAddConst(x float32) float32 { return x + 1 }

//go:noinline
func nanConstSub(x float64) float64 { return 1 - x }

// Where gc's compiler, not the operator's source, decides the payload.

//go:noinline
func nanAddReversed(a, b float32) float32 { return b + a }

//go:noinline
func nanAddLeftLive(a, b float32) (float32, float32) { return a + b, a }

//go:noinline
func nanSubLeftLive(a, b float32) (float32, float32) { return a - b, a }

const (
	snan32  = 0x7F800001 // signalling
	nsnan32 = 0xFF812345
	qnan32  = 0x7FC00456 // quiet
	nqnan32 = 0xFFC00789
	snan64  = 0x7FF0000000000001
	nsnan64 = 0xFFF0000000012345
	qnan64  = 0x7FF8000000000456
	nqnan64 = 0xFFF8000000000789
)

func f32(b uint32) float32 { return math.Float32frombits(b) }
func f64(b uint64) float64 { return math.Float64frombits(b) }

// TestAMD64NaNRules pins what gc on amd64 returns for NaNs, the rules that
// gosem.cuh's nan2, nan3 and NaN conversions implement: the first source
// operand quieted if it is a NaN, else the second quieted, else (an invalid
// operation) the default NaN with the sign bit set; float32 <-> float64
// conversions keep the sign and payload, quieted; FMA takes the first NaN
// of x, y, z; negation flips the sign bit alone.
func TestAMD64NaNRules(t *testing.T) {
	if goruntime.GOARCH != "amd64" {
		t.Skip("the rules are amd64's")
	}
	b32 := math.Float32bits
	b64 := math.Float64bits
	inf32, inf64 := float32(math.Inf(1)), math.Inf(1)
	type c32 struct {
		name string
		got  float32
		want uint32
	}
	for _, c := range []c32{
		{"snan + qnan", nanAdd32(f32(snan32), f32(nqnan32)), snan32 | 0x400000},
		{"qnan + snan", nanAdd32(f32(nqnan32), f32(snan32)), nqnan32},
		{"1 + snan", nanAdd32(1, f32(nsnan32)), nsnan32 | 0x400000},
		{"snan - qnan", nanSub32(f32(snan32), f32(nqnan32)), snan32 | 0x400000},
		{"qnan - snan", nanSub32(f32(nqnan32), f32(snan32)), nqnan32},
		{"1 - snan", nanSub32(1, f32(snan32)), snan32 | 0x400000},
		{"snan * qnan", nanMul32(f32(nsnan32), f32(qnan32)), nsnan32 | 0x400000},
		{"qnan / snan", nanQuo32(f32(qnan32), f32(snan32)), qnan32},
		{"0 / snan", nanQuo32(0, f32(snan32)), snan32 | 0x400000},
		{"inf - inf", nanSub32(inf32, inf32), 0xFFC00000},
		{"-inf + inf", nanAdd32(-inf32, inf32), 0xFFC00000},
		{"0 * inf", nanMul32(0, inf32), 0xFFC00000},
		{"0 / 0", nanQuo32(0, 0), 0xFFC00000},
		{"inf / -inf", nanQuo32(inf32, -inf32), 0xFFC00000},
		{"float32(snan64)", nanF64to32(f64(nsnan64)), 0xFFC00000 | uint32(nsnan64>>29&0x3FFFFF)},
		{"float32(qnan64)", nanF64to32(f64(0x7FF80000E0000000)), 0x7FC00007},
		{"sqrt32(snan)", nanSqrt32(f32(snan32)), snan32 | 0x400000},
		{"sqrt32(-1)", nanSqrt32(-1), 0xFFC00000},
		{"-snan", nanNeg32(f32(snan32)), snan32 | 0x80000000},
		{"snan + 1 (constant)", nanAddConst(f32(snan32)), snan32 | 0x400000},
		// + and * are commutative to gc: it orders their operands itself
		// and lets the register allocator pick the destination, so the
		// payload of NaN + NaN depends on the code around the operation.
		{"b + a takes a's NaN", nanAddReversed(f32(snan32), f32(nqnan32)), snan32 | 0x400000},
		{"a + b with a live after takes b's NaN", first(nanAddLeftLive(f32(snan32), f32(nqnan32))), nqnan32},
		{"a - b with a live after still takes a's", first(nanSubLeftLive(f32(snan32), f32(nqnan32))), snan32 | 0x400000},
	} {
		require.Equalf(t, fmt.Sprintf("%08x", c.want), fmt.Sprintf("%08x", b32(c.got)), "%s", c.name)
	}
	type c64 struct {
		name string
		got  float64
		want uint64
	}
	for _, c := range []c64{
		{"snan + qnan", nanAdd64(f64(snan64), f64(nqnan64)), snan64 | 1<<51},
		{"qnan + snan", nanAdd64(f64(nqnan64), f64(snan64)), nqnan64},
		{"snan - qnan", nanSub64(f64(nsnan64), f64(qnan64)), nsnan64 | 1<<51},
		{"1 - snan (constant)", nanConstSub(f64(snan64)), snan64 | 1<<51},
		{"snan * qnan", nanMul64(f64(snan64), f64(qnan64)), snan64 | 1<<51},
		{"qnan / snan", nanQuo64(f64(qnan64), f64(snan64)), qnan64},
		{"inf - inf", nanSub64(inf64, inf64), 0xFFF8000000000000},
		{"0 * -inf", nanMul64(0, -inf64), 0xFFF8000000000000},
		{"0 / 0", nanQuo64(0, 0), 0xFFF8000000000000},
		{"float64(snan32)", nanF32to64(f32(nsnan32)), 0xFFF8000000000000 | uint64(nsnan32&0x3FFFFF)<<29},
		{"sqrt(snan)", nanSqrt(f64(nsnan64)), nsnan64 | 1<<51},
		{"sqrt(-1)", nanSqrt(-1), 0xFFF8000000000000},
		{"fma(x, y, z) all NaN", nanFMA(f64(snan64), f64(nqnan64), f64(qnan64)), snan64 | 1<<51},
		{"fma(1, y, z)", nanFMA(1, f64(nqnan64), f64(snan64)), nqnan64},
		{"fma(x, 1, z)", nanFMA(f64(nsnan64), 1, f64(qnan64)), nsnan64 | 1<<51},
		{"fma(1, 1, z)", nanFMA(1, 1, f64(snan64)), snan64 | 1<<51},
		{"fma(0, inf, z): z's NaN, no invalid", nanFMA(0, inf64, f64(nqnan64)), nqnan64},
		{"fma(0, inf, 1)", nanFMA(0, inf64, 1), 0xFFF8000000000000},
	} {
		require.Equalf(t, fmt.Sprintf("%016x", c.want), fmt.Sprintf("%016x", b64(c.got)), "%s", c.name)
	}
}

func first[T any](a, _ T) T { return a }

// nanValues32 and nanValues64 are the operands of the NaN vectors: NaNs of
// both kinds and signs with payloads, the default NaN, and the values of
// invalid operations.
var (
	nanValues32 = []uint32{snan32, nsnan32, qnan32, nqnan32, 0xFFC00000, 0x7FFFFFFF, 0x7F800000, 0xFF800000, 0, 0x80000000, 0x3F800000, 0xC0000000}
	nanValues64 = []uint64{snan64, nsnan64, qnan64, nqnan64, 0xFFF8000000000000, 0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
		0, 0x8000000000000000, 0x3FF0000000000000, 0xC000000000000000, 0x7FF00000E0000001, 0xFFFFFFFFE0000000}
)

// nanVectors computes every vector with Go: one line per operation and
// operands, "op a b [c] = result" in hex bits.
func nanVectors() string {
	var b strings.Builder
	b.WriteString("# NaN vectors recorded from Go on amd64 by TestNaNVectors (go test ./emit -run TestNaNVectors -update).\n")
	b.WriteString("# op operands... = result, all as hex bits; checked by nan_test.cu against gosem.cuh.\n")
	ops32 := []struct {
		name string
		f    func(a, b float32) float32
	}{{"add32", nanAdd32}, {"sub32", nanSub32}, {"mul32", nanMul32}, {"quo32", nanQuo32}}
	for _, op := range ops32 {
		for _, x := range nanValues32 {
			for _, y := range nanValues32 {
				fmt.Fprintf(&b, "%s %08x %08x = %08x\n", op.name, x, y, math.Float32bits(op.f(f32(x), f32(y))))
			}
		}
	}
	ops64 := []struct {
		name string
		f    func(a, b float64) float64
	}{{"add64", nanAdd64}, {"sub64", nanSub64}, {"mul64", nanMul64}, {"quo64", nanQuo64}}
	for _, op := range ops64 {
		for _, x := range nanValues64 {
			for _, y := range nanValues64 {
				fmt.Fprintf(&b, "%s %016x %016x = %016x\n", op.name, x, y, math.Float64bits(op.f(f64(x), f64(y))))
			}
		}
	}
	for _, x := range nanValues64 {
		for _, y := range nanValues64 {
			for _, z := range nanValues64 {
				fmt.Fprintf(&b, "fma %016x %016x %016x = %016x\n", x, y, z, math.Float64bits(nanFMA(f64(x), f64(y), f64(z))))
			}
		}
	}
	for _, x := range nanValues32 {
		fmt.Fprintf(&b, "f32to64 %08x = %016x\n", x, math.Float64bits(nanF32to64(f32(x))))
	}
	for _, x := range nanValues64 {
		fmt.Fprintf(&b, "f64to32 %016x = %08x\n", x, math.Float32bits(nanF64to32(f64(x))))
	}
	for _, x := range nanValues64 {
		fmt.Fprintf(&b, "sqrt64 %016x = %016x\n", x, math.Float64bits(nanSqrt(f64(x))))
	}
	return b.String()
}

// TestNaNVectors records Go's NaN results into testdata/nan/vectors.txt
// (with -update; otherwise it checks that the file is what Go computes), then
// compiles testdata/nan/nan_test.cu for the host and runs it over them. The
// C++ test checks gosem.cuh's selection functions directly, each given the
// GPU's canonical NaN in place of the IEEE result, so it checks the logic
// the GPU runs even though host arithmetic already returns amd64's NaNs.
func TestNaNVectors(t *testing.T) {
	if goruntime.GOARCH != "amd64" {
		t.Skip("the vectors are amd64's")
	}
	path := filepath.Join("testdata", "nan", "vectors.txt")
	want := nanVectors()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want, string(got), "%s is stale: run go test ./emit -run TestNaNVectors -update", path)

	cc, args := hostCompiler(t)
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	src, err := filepath.Abs(filepath.Join("testdata", "nan", "nan_test.cu"))
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "nan_test")
	out, err := exec.Command(cc, append(args, "-O2", "-I"+include, "-o", bin, src)...).CombinedOutput()
	require.NoError(t, err, "compiling %s with %s:\n%s", src, cc, out)
	vec, err := filepath.Abs(path)
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, vec)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "nan_test:\n%s%s", stdout.String(), stderr.String())
	t.Log(strings.TrimSpace(stdout.String()))
}
