package emit

import (
	"bytes"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoComplex compiles a host program that runs every helper of
// kernels/include/gocccl/gocomplex.cuh (+, -, *, /, unary -, == and != of
// complex64 and complex128, the conversions between them, and each ported
// function of math/cmplx) over edge values (every pair of parts from ±0,
// ±1, subnormals, huge and tiny values, ±Inf and NaN) and random ones, and
// compares each result with what Go computes here, bit for bit. NaN parts
// of *, / and the math/cmplx functions may differ in payload (any NaN
// matches a NaN: the header's comment says why); everything else, the sign
// of zero and the NaN payloads of +, -, unary -, conversions and Conj
// included, must be Go's exactly.
func TestGoComplex(t *testing.T) {
	cc, args := hostCompiler(t)
	prog, want := gocomplexProgram()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gocomplex_test.cu"), []byte(prog), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	bin := filepath.Join(dir, "gocomplex")
	if filepath.Base(cc) == "nvcc" {
		args = append(args, "-Xcompiler", "-ffp-contract=off")
	} else {
		args = append(args, "-ffp-contract=off")
	}
	cmd := exec.Command(cc, append(append(args, "-O2", "-I"+include, "-o", bin), "gocomplex_test.cu")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "compiling the gocomplex host program with %s:\n%s", cc, out)
	got, err := exec.Command(bin).Output()
	require.NoError(t, err)
	gotLines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	require.Len(t, gotLines, len(want), "number of results")
	bad := map[string]int{}
	total := 0
	payloads := map[string]int{} // NaN parts that match as a class only
	for i, w := range want {
		if w.nanClass && gotLines[i] != w.value && w.check(gotLines[i]) == "" {
			payloads[w.fn]++
			if os.Getenv("GOCOMPLEX_SHOW") != "" && payloads[w.fn] <= 8 {
				t.Logf("%s(%s): C++ %s, Go %s", w.fn, w.operands, gotLines[i], w.value)
			}
		}
		if msg := w.check(gotLines[i]); msg != "" {
			total++
			bad[w.fn]++
			if bad[w.fn] <= 5 {
				t.Errorf("%s(%s): C++ %s, Go %s: %s", w.fn, w.operands, gotLines[i], w.value, msg)
			}
		}
	}
	require.Zero(t, total, "%d of %d results differ: %v", total, len(want), bad)
	t.Logf("%d results agree; NaN payloads differing (allowed): %v", len(want), payloads)
}

// TestGoComplexDevice compiles every helper of gocomplex.cuh for the
// device, so that the device side of the header at least compiles.
func TestGoComplexDevice(t *testing.T) {
	nvcc, err := FindNVCC("")
	if err != nil {
		if os.Getenv("GOCCCL_REQUIRE_NVCC") != "" {
			t.Fatalf("nvcc not found, and GOCCCL_REQUIRE_NVCC is set: %v", err)
		}
		t.Skip("nvcc not found")
	}
	src := `#include <gocccl/gocomplex.cuh>

namespace go = ::gocccl::go;
namespace cx = ::gocccl::go::cmplx;

extern "C" __global__ void gocomplex_all(const go::complex128* z, const go::complex64* w, go::complex128* o, go::complex64* o64, double* f, bool* b) {
  const go::complex128 a = z[0], c = z[1];
  const go::complex64 x = w[0], y = w[1];
  o[0] = go::cadd(a, c); o[1] = go::csub(a, c); o[2] = go::cmul(a, c); o[3] = go::cquo(a, c); o[4] = go::cneg(a);
  o64[0] = go::cadd(x, y); o64[1] = go::csub(x, y); o64[2] = go::cmul(x, y); o64[3] = go::cquo(x, y); o64[4] = go::cneg(x);
  o[5] = go::cconv<go::complex128>(x); o64[5] = go::cconv<go::complex64>(a);
  b[0] = a == c; b[1] = x != y; b[2] = cx::IsNaN(a); b[3] = cx::IsInf(a);
  f[0] = go::creal(a); f[1] = go::cimag(a); f[2] = go::creal(x); f[3] = go::cimag(x);
  f[4] = cx::Abs(a); f[5] = cx::Phase(a); const go::pair<double, double> p = cx::Polar(a); f[6] = p.r0; f[7] = p.r1;
  o[6] = cx::Exp(a); o[7] = cx::Log(a); o[8] = cx::Sqrt(a); o[9] = cx::Pow(a, c); o[10] = cx::Sin(a); o[11] = cx::Cos(a);
  o[12] = cx::Sinh(a); o[13] = cx::Cosh(a); o[14] = cx::Conj(a); o[15] = cx::Rect(a.re, a.im); o[16] = cx::Inf(); o[17] = cx::NaN();
}
`
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "all.cu"), []byte(src), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	cmd := exec.Command(nvcc, append(Flags(), "-I"+include, "-cubin", "-arch=sm_75", "-o", "all.cubin", "all.cu")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvcc:\n%s", out)
}

// cxLine is one expected output line of the gocomplex host program.
type cxLine struct {
	fn       string // "cquo128"
	operands string // for messages
	value    string // Go's result, comma-separated parts
	nanClass bool   // a NaN part matches any NaN
}

func (w cxLine) check(got string) string {
	if got == w.value {
		return ""
	}
	gs, ws := strings.Split(got, ","), strings.Split(w.value, ",")
	if len(gs) != len(ws) {
		return "different number of results"
	}
	for i := range ws {
		if gs[i] == ws[i] {
			continue
		}
		_, gf, gok := parseFloatBits(gs[i])
		_, wf, wok := parseFloatBits(ws[i])
		switch {
		case !gok || !wok:
			return "differ"
		case math.IsNaN(gf) && math.IsNaN(wf):
			if !w.nanClass {
				return "NaN payloads differ"
			}
		case math.IsNaN(gf) || math.IsNaN(wf) || math.IsInf(wf, 0) || wf == 0:
			return "special value differs"
		default:
			return "not bit-identical"
		}
	}
	return ""
}

func fmt128(z complex128) string {
	return fmt.Sprintf("f64:%016x,f64:%016x", math.Float64bits(real(z)), math.Float64bits(imag(z)))
}

func fmt64(z complex64) string {
	return fmt.Sprintf("f32:%08x,f32:%08x", math.Float32bits(real(z)), math.Float32bits(imag(z)))
}

func fmtF64(x float64) string { return fmt.Sprintf("f64:%016x", math.Float64bits(x)) }

// Go's operations on run-time values, so that nothing folds at compile time.
//
//go:noinline
func goMul128(a, b complex128) complex128 { return a * b }

//go:noinline
func goQuo128(a, b complex128) complex128 { return a / b }

//go:noinline
func goMul64(a, b complex64) complex64 { return a * b }

//go:noinline
func goQuo64(a, b complex64) complex64 { return a / b }

// complexParts128 are the parts the float64 edge values are built from.
func complexParts128() []float64 {
	return []float64{0, math.Copysign(0, -1), 1, -1, 2, -0.5, 3, 1e-310, -5e-324, 1e300, -1e300, 1e-300,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64}
}

// complexParts64 are the float32 ones.
func complexParts64() []float32 {
	return []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -0.5, 3, 1e-40, -1e-45, 3e38, -3e38, 1e-38,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32}
}

// funcParts are the parts of the math/cmplx functions' edge inputs: the
// special cases, the thresholds of Exp (overflow, underflow) and of
// sinhcosh (|x| <= 0.5), huge arguments of the trigonometric functions.
func funcParts() []float64 {
	return []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 0.50000000000000011, -2.5, 3, 1e-310, 1e300, -1e300, 1e-300,
		math.Inf(1), math.Inf(-1), math.NaN(), 710, -745, 1e10, 0.3, 40, -1e-20, math.Pi / 2, 1e6, 0.1, 4.5, -4}
}

func squares128(parts []float64) []complex128 {
	var zs []complex128
	for _, re := range parts {
		for _, im := range parts {
			zs = append(zs, complex(re, im))
		}
	}
	return zs
}

// randomComplex128 draws n values with parts of random sign and magnitude
// 2^[-lo, hi), a few of them with a zero or an integer part.
func randomComplex128(r *rand.Rand, n, lo, hi int) []complex128 {
	part := func() float64 {
		switch r.IntN(16) {
		case 0:
			return 0
		case 1:
			return float64(r.IntN(21) - 10)
		}
		return (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(lo+hi)-lo)
	}
	zs := make([]complex128, n)
	for i := range zs {
		zs[i] = complex(part(), part())
	}
	return zs
}

// gocomplexProgram returns the host program and its expected output.
func gocomplexProgram() (string, []cxLine) {
	r := rand.New(rand.NewPCG(37, 64))
	var decls, calls strings.Builder
	var lines []cxLine
	ntab := 0
	table128 := func(zs []complex128) string {
		name := fmt.Sprintf("t%d", ntab)
		ntab++
		items := make([]string, len(zs))
		for i, z := range zs {
			items[i] = fmt.Sprintf("{0x%016xULL, 0x%016xULL}", math.Float64bits(real(z)), math.Float64bits(imag(z)))
		}
		fmt.Fprintf(&decls, "static const uint64_t %s[][2] = {%s};\n", name, strings.Join(items, ", "))
		return name
	}
	table64 := func(zs []complex64) string {
		name := fmt.Sprintf("t%d", ntab)
		ntab++
		items := make([]string, len(zs))
		for i, z := range zs {
			items[i] = fmt.Sprintf("{0x%08xU, 0x%08xU}", math.Float32bits(real(z)), math.Float32bits(imag(z)))
		}
		fmt.Fprintf(&decls, "static const uint32_t %s[][2] = {%s};\n", name, strings.Join(items, ", "))
		return name
	}
	loop := func(tab, v string, wide bool) string {
		ld := "ld64"
		if wide {
			ld = "ld128"
		}
		return fmt.Sprintf("for (size_t i_%s = 0; i_%s < sizeof %s / sizeof %s[0]; i_%s++) { const auto %s = %s(%s[i_%s]); ", v, v, tab, tab, v, v, ld, tab, v)
	}
	// unary128 runs cexpr (of a) over tab and records goFn's results.
	unary128 := func(fn, cexpr string, zs []complex128, tab string, nanClass bool, goFn func(complex128) string) {
		fmt.Fprintf(&calls, "  %sout(%s); }\n", loop(tab, "a", true), cexpr)
		for _, a := range zs {
			lines = append(lines, cxLine{fn, fmt.Sprint(a), goFn(a), nanClass})
		}
	}
	binary128 := func(fn, cexpr string, as, bs []complex128, ta, tb string, nanClass bool, goFn func(a, b complex128) string) {
		fmt.Fprintf(&calls, "  %s%sout(%s); } }\n", loop(ta, "a", true), loop(tb, "b", true), cexpr)
		for _, a := range as {
			for _, b := range bs {
				lines = append(lines, cxLine{fn, fmt.Sprint(a, ", ", b), goFn(a, b), nanClass})
			}
		}
	}
	binary64 := func(fn, cexpr string, as, bs []complex64, ta, tb string, nanClass bool, goFn func(a, b complex64) string) {
		fmt.Fprintf(&calls, "  %s%sout(%s); } }\n", loop(ta, "a", false), loop(tb, "b", false), cexpr)
		for _, a := range as {
			for _, b := range bs {
				lines = append(lines, cxLine{fn, fmt.Sprint(a, ", ", b), goFn(a, b), nanClass})
			}
		}
	}
	// zipped128 runs a binary cexpr over the pairs (as[i], bs[i]).
	zipped128 := func(fn, cexpr string, as, bs []complex128, nanClass bool, goFn func(a, b complex128) string) {
		ta, tb := table128(as), table128(bs)
		fmt.Fprintf(&calls, "  for (size_t i = 0; i < sizeof %s / sizeof %s[0]; i++) { const auto a = ld128(%s[i]); const auto b = ld128(%s[i]); out(%s); }\n", ta, ta, ta, tb, cexpr)
		for i := range as {
			lines = append(lines, cxLine{fn, fmt.Sprint(as[i], ", ", bs[i]), goFn(as[i], bs[i]), nanClass})
		}
	}
	zipped64 := func(fn, cexpr string, as, bs []complex64, nanClass bool, goFn func(a, b complex64) string) {
		ta, tb := table64(as), table64(bs)
		fmt.Fprintf(&calls, "  for (size_t i = 0; i < sizeof %s / sizeof %s[0]; i++) { const auto a = ld64(%s[i]); const auto b = ld64(%s[i]); out(%s); }\n", ta, ta, ta, tb, cexpr)
		for i := range as {
			lines = append(lines, cxLine{fn, fmt.Sprint(as[i], ", ", bs[i]), goFn(as[i], bs[i]), nanClass})
		}
	}

	// Arithmetic of complex128: every pair of edge values, then random
	// pairs over the whole exponent range and over a moderate one.
	e128 := squares128(complexParts128())
	te128 := table128(e128)
	binary128("cadd128", "go::cadd(a, b)", e128, e128, te128, te128, false, func(a, b complex128) string { return fmt128(a + b) })
	binary128("csub128", "go::csub(a, b)", e128, e128, te128, te128, false, func(a, b complex128) string { return fmt128(a - b) })
	binary128("cmul128", "go::cmul(a, b)", e128, e128, te128, te128, true, func(a, b complex128) string { return fmt128(goMul128(a, b)) })
	binary128("cquo128", "go::cquo(a, b)", e128, e128, te128, te128, true, func(a, b complex128) string { return fmt128(goQuo128(a, b)) })
	binary128("ceq128", "a == b", e128, e128, te128, te128, false, func(a, b complex128) string { return fmt.Sprint(a == b) })
	binary128("cne128", "a != b", e128, e128, te128, te128, false, func(a, b complex128) string { return fmt.Sprint(a != b) })
	unary128("cneg128", "go::cneg(a)", e128, te128, false, func(a complex128) string { return fmt128(-a) })
	unary128("creal128", "go::creal(a)", e128, te128, false, func(a complex128) string { return fmtF64(real(a)) })
	unary128("cimag128", "go::cimag(a)", e128, te128, false, func(a complex128) string { return fmtF64(imag(a)) })
	unary128("cconv128to64", "go::cconv<go::complex64>(a)", e128, te128, false, func(a complex128) string { return fmt64(complex64(a)) })
	for _, rng := range [][2]int{{1074, 1024}, {60, 60}, {3, 3}} {
		as, bs := randomComplex128(r, 3000, rng[0], rng[1]), randomComplex128(r, 3000, rng[0], rng[1])
		zipped128("cmul128", "go::cmul(a, b)", as, bs, true, func(a, b complex128) string { return fmt128(goMul128(a, b)) })
		zipped128("cquo128", "go::cquo(a, b)", as, bs, true, func(a, b complex128) string { return fmt128(goQuo128(a, b)) })
		zipped128("cadd128", "go::cadd(a, b)", as, bs, false, func(a, b complex128) string { return fmt128(a + b) })
	}

	// complex64: * in float64, / through complex128div.
	var e64 []complex64
	for _, re := range complexParts64() {
		for _, im := range complexParts64() {
			e64 = append(e64, complex(re, im))
		}
	}
	te64 := table64(e64)
	binary64("cadd64", "go::cadd(a, b)", e64, e64, te64, te64, false, func(a, b complex64) string { return fmt64(a + b) })
	binary64("csub64", "go::csub(a, b)", e64, e64, te64, te64, false, func(a, b complex64) string { return fmt64(a - b) })
	binary64("cmul64", "go::cmul(a, b)", e64, e64, te64, te64, true, func(a, b complex64) string { return fmt64(goMul64(a, b)) })
	binary64("cquo64", "go::cquo(a, b)", e64, e64, te64, te64, true, func(a, b complex64) string { return fmt64(goQuo64(a, b)) })
	binary64("ceq64", "a == b", e64, e64, te64, te64, false, func(a, b complex64) string { return fmt.Sprint(a == b) })
	fmt.Fprintf(&calls, "  %sout(go::cneg(a)); out(go::cconv<go::complex128>(a)); out(go::creal(a)); out(go::cimag(a)); }\n", loop(te64, "a", false))
	for _, a := range e64 {
		lines = append(lines,
			cxLine{"cneg64", fmt.Sprint(a), fmt64(-a), false},
			cxLine{"cconv64to128", fmt.Sprint(a), fmt128(complex128(a)), false},
			cxLine{"creal64", fmt.Sprint(a), fmt.Sprintf("f32:%08x", math.Float32bits(real(a))), false},
			cxLine{"cimag64", fmt.Sprint(a), fmt.Sprintf("f32:%08x", math.Float32bits(imag(a))), false})
	}
	for _, rng := range [][2]int{{149, 128}, {20, 20}} {
		as, bs := make([]complex64, 3000), make([]complex64, 3000)
		for i, w := range randomComplex128(r, 2*len(as), rng[0], rng[1]) {
			if i%2 == 0 {
				as[i/2] = complex64(w)
			} else {
				bs[i/2] = complex64(w)
			}
		}
		zipped64("cmul64", "go::cmul(a, b)", as, bs, true, func(a, b complex64) string { return fmt64(goMul64(a, b)) })
		zipped64("cquo64", "go::cquo(a, b)", as, bs, true, func(a, b complex64) string { return fmt64(goQuo64(a, b)) })
	}

	// math/cmplx: the edge squares and random values at several scales.
	fz := squares128(funcParts())
	for _, rng := range [][2]int{{60, 12}, {4, 4}, {1074, 1024}, {1, 1}} {
		fz = append(fz, randomComplex128(r, 800, rng[0], rng[1])...)
	}
	for i := range 200 { // around the unit circle, where Log and Sqrt lose digits
		th := float64(i) * math.Pi / 100
		fz = append(fz, cmplx.Rect(1+(r.Float64()-0.5)*1e-6, th))
	}
	tf := table128(fz)
	type fn1 struct {
		name, cexpr string
		nanClass    bool
		goFn        func(complex128) string
	}
	for _, f := range []fn1{
		{"cmplx.Abs", "cx::Abs(a)", true, func(a complex128) string { return fmtF64(cmplx.Abs(a)) }},
		{"cmplx.Phase", "cx::Phase(a)", true, func(a complex128) string { return fmtF64(cmplx.Phase(a)) }},
		{"cmplx.Polar", "cx::Polar(a)", true, func(a complex128) string { r, th := cmplx.Polar(a); return fmtF64(r) + "," + fmtF64(th) }},
		{"cmplx.Conj", "cx::Conj(a)", false, func(a complex128) string { return fmt128(cmplx.Conj(a)) }},
		{"cmplx.Exp", "cx::Exp(a)", true, func(a complex128) string { return fmt128(cmplx.Exp(a)) }},
		{"cmplx.Log", "cx::Log(a)", true, func(a complex128) string { return fmt128(cmplx.Log(a)) }},
		{"cmplx.Sqrt", "cx::Sqrt(a)", true, func(a complex128) string { return fmt128(cmplx.Sqrt(a)) }},
		{"cmplx.Sin", "cx::Sin(a)", true, func(a complex128) string { return fmt128(cmplx.Sin(a)) }},
		{"cmplx.Cos", "cx::Cos(a)", true, func(a complex128) string { return fmt128(cmplx.Cos(a)) }},
		{"cmplx.Sinh", "cx::Sinh(a)", true, func(a complex128) string { return fmt128(cmplx.Sinh(a)) }},
		{"cmplx.Cosh", "cx::Cosh(a)", true, func(a complex128) string { return fmt128(cmplx.Cosh(a)) }},
		{"cmplx.IsNaN", "cx::IsNaN(a)", false, func(a complex128) string { return fmt.Sprint(cmplx.IsNaN(a)) }},
		{"cmplx.IsInf", "cx::IsInf(a)", false, func(a complex128) string { return fmt.Sprint(cmplx.IsInf(a)) }},
		{"cmplx.Rect", "cx::Rect(a.re, a.im)", true, func(a complex128) string { return fmt128(cmplx.Rect(real(a), imag(a))) }},
	} {
		unary128(f.name, f.cexpr, fz, tf, f.nanClass, f.goFn)
	}
	calls.WriteString("  out(cx::Inf()); out(cx::NaN());\n")
	lines = append(lines, cxLine{"cmplx.Inf", "", fmt128(cmplx.Inf()), false}, cxLine{"cmplx.NaN", "", fmt128(cmplx.NaN()), false})

	// Pow over pairs of edge values, and random pairs.
	var pp []float64
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3, 1e-310, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), 2, 1e-3} {
		pp = append(pp, v)
	}
	pz := squares128(pp)
	tp := table128(pz)
	goPow := func(a, b complex128) (s string) {
		defer func() {
			if recover() != nil { // Go's "not reached": x == 0, real(y) NaN, imag(y) ±Inf
				s = fmt128(cmplx.NaN())
			}
		}()
		return fmt128(cmplx.Pow(a, b))
	}
	binary128("cmplx.Pow", "cx::Pow(a, b)", pz, pz, tp, tp, true, goPow)
	for _, rng := range [][2]int{{4, 4}, {40, 8}} {
		zipped128("cmplx.Pow", "cx::Pow(a, b)", randomComplex128(r, 2000, rng[0], rng[1]), randomComplex128(r, 2000, rng[0], rng[1]), true, goPow)
	}

	var b bytes.Buffer
	b.WriteString(gocomplexPrelude)
	b.WriteString(decls.String())
	b.WriteString("\nint main() {\n")
	b.WriteString(calls.String())
	b.WriteString("  return 0;\n}\n")
	return b.String(), lines
}

const gocomplexPrelude = `// Host test of gocccl/gocomplex.cuh, generated by cmd/gocccl-gen/internal/emit/cuda_gocomplex_test.go.
#include <gocccl/gocomplex.cuh>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace go = gocccl::go;
namespace cx = gocccl::go::cmplx;

// opaque hides a value from the optimizer.
template <typename T>
__attribute__((noinline)) T opaque(T v) {
  volatile T x = v;
  return x;
}

static go::complex128 ld128(const uint64_t* p) {
  return go::complex128{go::math::Float64frombits(opaque(p[0])), go::math::Float64frombits(opaque(p[1]))};
}
static go::complex64 ld64(const uint32_t* p) {
  return go::complex64{go::math::Float32frombits(opaque(p[0])), go::math::Float32frombits(opaque(p[1]))};
}

static void one(double v) { std::printf("f64:%016llx", (unsigned long long)go::math::Float64bits(v)); }
static void one(float v) { std::printf("f32:%08x", (unsigned)go::math::Float32bits(v)); }
static void one(bool v) { std::printf(v ? "true" : "false"); }
static void one(go::complex128 v) {
  one(v.re);
  std::printf(",");
  one(v.im);
}
static void one(go::complex64 v) {
  one(v.re);
  std::printf(",");
  one(v.im);
}

template <typename T>
static void out(T v) {
  one(v);
  std::printf("\n");
}

static void out(go::pair<double, double> v) {
  one(v.r0);
  std::printf(",");
  one(v.r1);
  std::printf("\n");
}

`
