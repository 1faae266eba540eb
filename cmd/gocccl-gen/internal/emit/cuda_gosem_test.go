package emit

import (
	"bytes"
	"fmt"
	"go/constant"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestGoSemantics compiles a host program that runs the helpers of
// kernels/include/gocccl/gosem.cuh over edge values of every integer and
// float type and compares each printed result with what Go computes here.
// Where Go panics (division by zero, negative shift counts) the expected
// value is the result gosem.cuh documents. Float → integer conversions out of
// range are Go's amd64 results; on other architectures they are skipped.
func TestGoSemantics(t *testing.T) {
	cc, args := hostCompiler(t)
	prog, want := gosemProgram()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gosem_test.cu"), []byte(prog), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	for _, opt := range []string{"-O0", "-O3"} {
		t.Run(opt, func(t *testing.T) {
			bin := filepath.Join(dir, "gosem"+opt)
			cmd := exec.Command(cc, append(append(args, opt, "-I"+include, "-o", bin), "gosem_test.cu")...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "compiling the gosem host program with %s:\n%s", cc, out)
			got, err := exec.Command(bin).Output()
			require.NoError(t, err)
			gotLines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
			require.Len(t, gotLines, len(want.lines), "number of results")
			bad := 0
			for i, w := range want.lines {
				if w.value == "*" || gotLines[i] == w.label+" "+w.value {
					continue
				}
				bad++
				if bad <= 30 {
					t.Errorf("%s (%s): C++ %q, Go %s", w.label, w.operands, gotLines[i], w.value)
				}
			}
			require.Zero(t, bad, "%d of %d results differ", bad, len(want.lines))
			t.Logf("%d results agree", len(want.lines))
		})
	}
}

// TestGoSemanticsDocumented pins the documented results for cases where Go
// panics or leaves the result to the implementation (the amd64 values).
func TestGoSemanticsDocumented(t *testing.T) {
	if goruntime.GOARCH != "amd64" {
		t.Skip("the documented float → integer results are amd64's")
	}
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 300, 1e10, 1e19, 1e20, -1e19}
	type row struct {
		i8  int8
		u8  uint8
		i32 int32
		u32 uint32
		i64 int64
		u64 uint64
	}
	want := []row{
		{0, 0, math.MinInt32, 0, math.MinInt64, 1 << 63},              // NaN
		{0, 0, math.MinInt32, 0, math.MinInt64, 1 << 63},              // +Inf
		{0, 0, math.MinInt32, 0, math.MinInt64, 1 << 63},              // -Inf
		{-1, 255, -1, math.MaxUint32, -1, math.MaxUint64},             // -1
		{44, 44, 300, 300, 300, 300},                                  // 300
		{0, 0, math.MinInt32, 1410065408, 10000000000, 10000000000},   // 1e10
		{0, 0, math.MinInt32, 0, math.MinInt64, 10000000000000000000}, // 1e19
		{0, 0, math.MinInt32, 0, math.MinInt64, 1 << 63},              // 1e20
		{0, 0, math.MinInt32, 0, math.MinInt64, 1 << 63},              // -1e19
	}
	for i, v := range vals {
		x := opaqueFloat(v)
		got := row{int8(x), uint8(x), int32(x), uint32(x), int64(x), uint64(x)}
		require.Equal(t, want[i], got, "conversions of %v", v)
	}
}

//go:noinline
func opaqueFloat(v float64) float64 { return v }

// hostCompiler returns a C++ compiler for host code and its flags: nvcc
// when it is installed, else c++.
func hostCompiler(t *testing.T) (string, []string) {
	if p, err := FindNVCC(""); err == nil {
		args := []string{"-std=c++17", "-x", "cu"}
		// NVIDIA's wheels keep libcudart_static and libcudadevrt in lib/,
		// where their nvcc.profile does not look (it names lib64): without
		// Debian's toolkit in the linker's path, host programs fail to link.
		if lib := filepath.Join(filepath.Dir(p), "..", "lib"); fileExists(filepath.Join(lib, "libcudart_static.a")) {
			args = append(args, "-L"+lib)
		}
		return p, args
	}
	if p, err := exec.LookPath("c++"); err == nil {
		return p, []string{"-std=c++17", "-x", "c++"}
	}
	t.Skip("neither nvcc nor c++ is installed: cannot compile the gosem.cuh host test")
	return "", nil
}

// runHeaderProgram compiles src, a host program over kernels/include's
// headers, with cc and args (hostCompiler's) and returns the lines it prints.
func runHeaderProgram(t *testing.T, cc string, args []string, name, src string) []string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_test.cu"), []byte(src), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	bin := filepath.Join(dir, name)
	cmd := exec.Command(cc, append(append(args, "-O2", "-I"+include, "-o", bin), name+"_test.cu")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "compiling the %s host program with %s:\n%s", name, cc, out)
	got, err := exec.Command(bin).Output()
	require.NoError(t, err, "running the %s host program", name)
	return strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
}

// expectLine is one expected output line of the host program.
type expectLine struct {
	label    string // "int8 add 3 4"
	operands string // the operand values, for messages
	value    string // the expected result, or "*" for any
}

// gosemCase collects the C++ program and the expected lines side by side.
type gosemCase struct {
	decls strings.Builder // value tables
	calls strings.Builder // calls in main
	lines []expectLine
}

func (c *gosemCase) expect(label, operands, value string) {
	c.lines = append(c.lines, expectLine{label, operands, value})
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

type number interface {
	integer | ~float32 | ~float64
}

// format prints a value as the host program does: integers in decimal,
// floats as their bits in hex, NaN as "NaN".
func format[T number](v T) string {
	switch x := any(v).(type) {
	case float32:
		if x != x {
			return "NaN"
		}
		return fmt.Sprintf("%08x", math.Float32bits(x))
	case float64:
		if x != x {
			return "NaN"
		}
		return fmt.Sprintf("%016x", math.Float64bits(x))
	}
	return fmt.Sprint(v)
}

// isSigned reports whether T is a signed type.
func isSigned[T integer]() bool { var z T; return z-1 < 0 }

// intValues are the edge values of an integer type, with a few extra ones
// for 64-bit types around float rounding boundaries.
func intValues[T integer]() []T {
	var z T
	bits := int(8 * sizeOf(z))
	var vs []T
	if isSigned[T]() {
		minV := (z - 1) << (bits - 1)
		maxV := ^minV
		vs = []T{0, 1, z - 1, 2, z - 2, 3, z - 3, 7, z - 7, minV, minV + 1, maxV, maxV - 1, 100, z - 100}
	} else {
		maxV := ^z
		vs = []T{0, 1, 2, 3, 7, maxV, maxV - 1, maxV / 2, maxV/2 + 1, 100}
	}
	u := func(x uint64) T { return T(x) } // wraps, for values of a wider type
	if bits >= 32 {
		vs = append(vs, u(1<<24+1), u(1<<24+3))
	}
	if bits == 64 {
		vs = append(vs, u(1<<53+1), u(1<<62+1<<38+1), u(1<<63-1<<10), u(1<<63-1<<9-1))
		if !isSigned[T]() {
			vs = append(vs, u(math.MaxUint64-1<<10), u(math.MaxUint64-1<<11+1), u(1<<63+1))
		}
	}
	return vs
}

func sizeOf[T number](v T) uintptr {
	switch any(v).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32, float32:
		return 4
	}
	return 8
}

// floatValues are the float64 edge values for conversions.
func floatValues() []float64 {
	return []float64{
		0, math.Copysign(0, -1), 0.5, -0.5, 0.9999999, 1.5, -1.5, 2.5, -2.5, 127.9, 128, 128.5, -128.9, -129,
		255.5, 256, 300, -300, 32767.9, 32768, -32768.9, -32769, 65535.9, 65536, 1e6 + 0.5,
		2147483647.9, 2147483648, -2147483648.9, -2147483649, 4294967295.9, 4294967296, -4294967296,
		1e10, -1e10, 9007199254740993, 9223372036854774784, 9223372036854775808, -9223372036854775808,
		-9223372036854777856, 1.8446744073709550e19, 18446744073709551616, 1e19, -1e19, 1e20, -1e20,
		0.1, 1.0000001, 16777217, 3.4028235677973366e38, 3.4028236e38, 1e39, 1e-39, 1e-46,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat32,
		math.Inf(1), math.Inf(-1), math.NaN(),
	}
}

// cFloatLit prints a float value exactly for the C++ tables.
func cFloatLit(v float64, bits int) string {
	suffix := ""
	if bits == 32 {
		suffix = "f"
	}
	switch {
	case math.IsNaN(v):
		return fmt.Sprintf("std::numeric_limits<%s>::quiet_NaN()", map[int]string{32: "float", 64: "double"}[bits])
	case math.IsInf(v, 1):
		return fmt.Sprintf("std::numeric_limits<%s>::infinity()", map[int]string{32: "float", 64: "double"}[bits])
	case math.IsInf(v, -1):
		return fmt.Sprintf("-std::numeric_limits<%s>::infinity()", map[int]string{32: "float", 64: "double"}[bits])
	}
	if v == 0 && math.Signbit(v) {
		return "-0x0p+00" + suffix
	}
	return strconv.FormatFloat(v, 'x', -1, bits) + suffix
}

// table declares a C++ array of values and returns its name.
func table[T number](c *gosemCase, name string, vs []T, lit func(T) string) string {
	items := make([]string, len(vs))
	for i, v := range vs {
		items[i] = lit(v)
	}
	fmt.Fprintf(&c.decls, "static const auto %s = std::array<%s, %d>{%s};\n", name, cTypeOf[T](), len(vs), strings.Join(items, ", "))
	return name
}

// intLit prints an integer as the emitter prints constants.
func intLit[T integer](v T) string {
	var c constant.Value
	if isSigned[T]() {
		c = constant.MakeInt64(int64(v))
	} else {
		c = constant.MakeUint64(uint64(v))
	}
	s, _, err := cConst(c, modelTypeOf[T]())
	if err != nil {
		panic(err)
	}
	return s
}

func modelTypeOf[T number]() *model.Type {
	var z T
	switch any(z).(type) {
	case int8:
		return tInt8
	case int16:
		return tInt16
	case int32:
		return tInt32
	case int64:
		return tInt64
	case uint8:
		return tUint8
	case uint16:
		return tUint16
	case uint32:
		return tUint32
	case uint64:
		return tUint64
	case float32:
		return tFloat32
	}
	return tFloat64
}

func cTypeOf[T number]() string  { return cType(modelTypeOf[T]()) }
func goTypeOf[T number]() string { return modelTypeOf[T]().GoName() }

// arith adds the arithmetic and bitwise cases of one integer type.
func arith[T integer](c *gosemCase) {
	tn := goTypeOf[T]()
	vs := intValues[T]()
	tab := table(c, "v_"+tn, vs, intLit[T])
	fmt.Fprintf(&c.calls, "  arith(%q, %s);\n", tn, tab)
	for i, a := range vs {
		for j, b := range vs {
			ops := fmt.Sprintf("%v, %v", a, b)
			l := func(op string) string { return fmt.Sprintf("%s %s %d %d", tn, op, i, j) }
			c.expect(l("add"), ops, format(a+b))
			c.expect(l("sub"), ops, format(a-b))
			c.expect(l("mul"), ops, format(a*b))
			if b == 0 {
				c.expect(l("quo"), ops, format(T(0))) // Go panics; gosem.cuh: 0
				c.expect(l("rem"), ops, format(a))    // Go panics; gosem.cuh: a
			} else {
				c.expect(l("quo"), ops, format(a/b))
				c.expect(l("rem"), ops, format(a%b))
			}
			c.expect(l("band"), ops, format(a&b))
			c.expect(l("bor"), ops, format(a|b))
			c.expect(l("bxor"), ops, format(a^b))
			c.expect(l("band_not"), ops, format(a&^b))
		}
	}
	for i, a := range vs {
		c.expect(fmt.Sprintf("%s neg %d", tn, i), fmt.Sprint(a), format(-a))
		c.expect(fmt.Sprintf("%s bnot %d", tn, i), fmt.Sprint(a), format(^a))
	}
}

// shiftCounts are the shift counts of type S, negative ones included.
func shiftCounts[S integer]() []S {
	var z S
	vs := []S{0, 1, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 65, 100, ^z}
	if isSigned[S]() {
		vs = append(vs, z-2, z-100, (z-1)<<(8*sizeOf(z)-1))
	}
	return vs
}

// shifts adds x << s and x >> s for values of T and counts of S.
func shifts[T, S integer](c *gosemCase) {
	tn, sn := goTypeOf[T](), goTypeOf[S]()
	vs, ss := intValues[T](), shiftCounts[S]()
	ctab := table(c, "s_"+tn+"_"+sn, ss, intLit[S])
	fmt.Fprintf(&c.calls, "  shifts(%q, %q, v_%s, %s);\n", tn, sn, tn, ctab)
	for i, x := range vs {
		for j, s := range ss {
			ops := fmt.Sprintf("%v, %v", x, s)
			l := func(op string) string { return fmt.Sprintf("%s %s %s %d %d", tn, sn, op, i, j) }
			if s < 0 { // Go panics; gosem.cuh: as a count >= the width
				c.expect(l("shl"), ops, format(T(0)))
				var sign T // x >> s for a count >= the width: 0, or -1 for negative x
				if x < 0 {
					sign--
				}
				c.expect(l("shr"), ops, format(sign))
				continue
			}
			c.expect(l("shl"), ops, format(x<<s))
			c.expect(l("shr"), ops, format(x>>s))
		}
	}
}

// convs adds the conversions To(v) of every value of From.
func convs[From, To number](c *gosemCase, vs []From, fromFloat bool) {
	fn, tn := goTypeOf[From](), goTypeOf[To]()
	fmt.Fprintf(&c.calls, "  convs<%s>(%q, %q, v_%s);\n", cTypeOf[To](), tn, fn, fn)
	var z To
	toInt := !isFloatType(z)
	for i, v := range vs {
		want := format(To(v))
		if fromFloat && toInt && goruntime.GOARCH != "amd64" && !inRange[To](float64(v)) {
			want = "*"
		}
		c.expect(fmt.Sprintf("%s>%s %d", fn, tn, i), fmt.Sprint(v), want)
	}
}

func isFloatType[T number](v T) bool {
	switch any(v).(type) {
	case float32, float64:
		return true
	}
	return false
}

// inRange reports whether truncating f gives a value of the integer type T.
func inRange[T number](f float64) bool {
	if f != f {
		return false
	}
	var z T
	bits := 8 * sizeOf(z)
	t := math.Trunc(f)
	switch any(z).(type) {
	case int8, int16, int32, int64:
		return t >= -math.Ldexp(1, int(bits)-1) && t < math.Ldexp(1, int(bits)-1)
	}
	return t >= 0 && t < math.Ldexp(1, int(bits))
}

// convsFrom adds the conversions of From's values to every numeric type.
func convsFrom[From number](c *gosemCase, vs []From, fromFloat bool) {
	convs[From, int8](c, vs, fromFloat)
	convs[From, int16](c, vs, fromFloat)
	convs[From, int32](c, vs, fromFloat)
	convs[From, int64](c, vs, fromFloat)
	convs[From, uint8](c, vs, fromFloat)
	convs[From, uint16](c, vs, fromFloat)
	convs[From, uint32](c, vs, fromFloat)
	convs[From, uint64](c, vs, fromFloat)
	convs[From, float32](c, vs, fromFloat)
	convs[From, float64](c, vs, fromFloat)
}

// allShifts adds the shifts of T by counts of several types.
func allShifts[T integer](c *gosemCase) {
	shifts[T, int8](c)
	shifts[T, uint8](c)
	shifts[T, int32](c)
	shifts[T, int64](c)
	shifts[T, uint64](c)
}

// gosemProgram returns the host program and its expected output.
func gosemProgram() (string, *gosemCase) {
	c := &gosemCase{}
	arith[int8](c)
	arith[int16](c)
	arith[int32](c)
	arith[int64](c)
	arith[uint8](c)
	arith[uint16](c)
	arith[uint32](c)
	arith[uint64](c)
	allShifts[int8](c)
	allShifts[int16](c)
	allShifts[int32](c)
	allShifts[int64](c)
	allShifts[uint8](c)
	allShifts[uint16](c)
	allShifts[uint32](c)
	allShifts[uint64](c)
	convsFrom(c, intValues[int8](), false)
	convsFrom(c, intValues[int16](), false)
	convsFrom(c, intValues[int32](), false)
	convsFrom(c, intValues[int64](), false)
	convsFrom(c, intValues[uint8](), false)
	convsFrom(c, intValues[uint16](), false)
	convsFrom(c, intValues[uint32](), false)
	convsFrom(c, intValues[uint64](), false)
	f64 := floatValues()
	f32 := make([]float32, len(f64))
	for i, v := range f64 {
		f32[i] = float32(v)
	}
	table(c, "v_float64", f64, func(v float64) string { return cFloatLit(v, 64) })
	table(c, "v_float32", f32, func(v float32) string { return cFloatLit(float64(v), 32) })
	convsFrom(c, f64, true)
	convsFrom(c, f32, true)

	var b bytes.Buffer
	b.WriteString(gosemPrelude)
	b.WriteString(c.decls.String())
	b.WriteString("\nint main() {\n")
	b.WriteString(c.calls.String())
	b.WriteString("  return 0;\n}\n")
	return b.String(), c
}

const gosemPrelude = `// Host test of gocccl/gosem.cuh, generated by cmd/gocccl-gen/internal/emit/cuda_gosem_test.go.
#include <gocccl/gosem.cuh>

#include <array>
#include <cstdio>
#include <cstring>
#include <limits>

namespace go = gocccl::go;

// opaque hides a value from the optimizer, so that the helpers run on
// run-time values and not only on constants folded by the compiler.
template <typename T>
__attribute__((noinline)) T opaque(T v) {
  volatile T x = v;
  return x;
}

template <typename T>
void val(T v) {
  if constexpr (std::is_floating_point<T>::value) {
    if (v != v) {
      std::printf("NaN");
    } else if constexpr (sizeof(T) == 4) {
      uint32_t u;
      std::memcpy(&u, &v, 4);
      std::printf("%08x", u);
    } else {
      uint64_t u;
      std::memcpy(&u, &v, 8);
      std::printf("%016llx", (unsigned long long)u);
    }
  } else if constexpr (std::is_signed<T>::value) {
    std::printf("%lld", (long long)v);
  } else {
    std::printf("%llu", (unsigned long long)v);
  }
  std::printf("\n");
}

template <typename T, size_t N>
void arith(const char* tn, const std::array<T, N>& v) {
  for (size_t i = 0; i < N; i++) {
    for (size_t j = 0; j < N; j++) {
      const T a = opaque(v[i]), b = opaque(v[j]);
#define GOCCCL_CASE(op) std::printf("%s %s %zu %zu ", tn, #op, i, j); val(go::op(a, b));
      GOCCCL_CASE(add) GOCCCL_CASE(sub) GOCCCL_CASE(mul) GOCCCL_CASE(quo) GOCCCL_CASE(rem)
      GOCCCL_CASE(band) GOCCCL_CASE(bor) GOCCCL_CASE(bxor) GOCCCL_CASE(band_not)
#undef GOCCCL_CASE
    }
  }
  for (size_t i = 0; i < N; i++) {
    const T a = opaque(v[i]);
    std::printf("%s neg %zu ", tn, i);
    val(go::neg(a));
    std::printf("%s bnot %zu ", tn, i);
    val(go::bnot(a));
  }
}

template <typename T, size_t N, typename S, size_t M>
void shifts(const char* tn, const char* sn, const std::array<T, N>& v, const std::array<S, M>& s) {
  for (size_t i = 0; i < N; i++) {
    for (size_t j = 0; j < M; j++) {
      const T x = opaque(v[i]);
      const S c = opaque(s[j]);
      std::printf("%s %s shl %zu %zu ", tn, sn, i, j);
      val(go::shl(x, c));
      std::printf("%s %s shr %zu %zu ", tn, sn, i, j);
      val(go::shr(x, c));
    }
  }
}

template <typename To, typename From, size_t N>
void convs(const char* tn, const char* fn, const std::array<From, N>& v) {
  for (size_t i = 0; i < N; i++) {
    std::printf("%s>%s %zu ", fn, tn, i);
    val(go::conv<To>(opaque(v[i])));
  }
}

`

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
