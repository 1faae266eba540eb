package emit

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
)

// mathTolerance is the difference in ulps the host test allows between a
// gomath.cuh function compiled for the host and Go's. Functions not listed
// must be bit-identical; every function of math is now a port of the code
// Go runs on amd64, so none is listed.
var mathTolerance = map[string]uint64{}

// nanPayload lists the functions whose NaN results have Go's exact bits on
// every target: those that return a NaN by a special case or through
// gosem.cuh's NaN-exact arithmetic (others give some NaN on the GPU).
var nanPayload = map[string]bool{
	"min": true, "max": true,
	"math.Abs": true, "math.Copysign": true, "math.NaN": true,
	"math.Float64frombits": true, "math.Float32frombits": true,
	"math.Min": true, "math.Max": true, "math.Mod": true, "math.Remainder": true,
	"math.Hypot": true, "math.Floor": true, "math.Ceil": true, "math.Trunc": true,
	"math.Round": true, "math.RoundToEven": true, "math.Sqrt": true,
	"math.Log": true, "math.Log1p": true, "math.Cos": true, "math.Sin": true,
	"math.Tan": true, "math.Cbrt": true, "math.Exp": true, "math.Expm1": true,
	"math.Atan2": true, "math.Acosh": true, "math.Atanh": true, "math.Asinh": true,
	"math.Erf": true, "math.Erfc": true, "math.Pow": true, "math.Frexp": true,
	"math.Ldexp": true, "math.Modf": true,
	"math.Acos": true, "math.Asin": true, "math.Atan": true, "math.Cosh": true,
	"math.Sinh": true, "math.Tanh": true, "math.Exp2": true, "math.Log10": true,
	"math.Log2": true, "math.Dim": true, "math.FMA": true,
}

// TestGoMath compiles a host program that calls every helper of
// kernels/include/gocccl/gomath.cuh (min, max, and each supported function
// of math and math/bits) over edge values and random ones (about 3,200
// float64 inputs for each function of one argument, among them huge
// arguments and multiples of Pi/2 for Sin, Cos and Tan and the neighbors of
// ±1 for Asin and Acos), and compares each result with what Go computes
// here: bit for bit (within mathTolerance for a function listed there).
// Special values (NaN, ±Inf, ±0) must always match exactly.
func TestGoMath(t *testing.T) {
	cc, args := hostCompiler(t)
	prog, want := gomathProgram()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gomath_test.cu"), []byte(prog), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	bin := filepath.Join(dir, "gomath")
	// The ports are bit-identical only if every operation rounds as Go's
	// does: the host compiler must not contract a*b + c into an FMA.
	if filepath.Base(cc) == "nvcc" {
		args = append(args, "-Xcompiler", "-ffp-contract=off")
	} else {
		args = append(args, "-ffp-contract=off")
	}
	cmd := exec.Command(cc, append(append(args, "-O2", "-I"+include, "-o", bin), "gomath_test.cu")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "compiling the gomath host program with %s:\n%s", cc, out)
	got, err := exec.Command(bin).Output()
	require.NoError(t, err)
	gotLines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	require.Len(t, gotLines, len(want), "number of results")
	bad := 0
	for i, w := range want {
		label, value, _ := strings.Cut(gotLines[i], " = ")
		require.Equal(t, w.label, label, "line %d", i+1)
		if msg := w.check(value); msg != "" {
			bad++
			if bad <= 40 {
				t.Errorf("%s (%s): C++ %s, Go %s: %s", w.label, w.operands, value, w.value, msg)
			}
		}
	}
	require.Zero(t, bad, "%d of %d results differ", bad, len(want))
	t.Logf("%d results agree", len(want))
}

// TestGoMathDevice compiles every helper of gomath.cuh for the device, so
// that the __CUDA_ARCH__ branches (CUDA's intrinsics) at least compile.
func TestGoMathDevice(t *testing.T) {
	nvcc, err := FindNVCC("")
	if err != nil {
		if os.Getenv("GOCCCL_REQUIRE_NVCC") != "" {
			t.Fatalf("nvcc not found, and GOCCCL_REQUIRE_NVCC is set: %v", err)
		}
		t.Skip("nvcc not found")
	}
	var b strings.Builder
	b.WriteString("#include <gocccl/gosem.cuh>\n\ntemplate <typename T>\n__device__ void sink(T v, unsigned char* out) {\n  memcpy(out, &v, sizeof v);\n}\n\n")
	b.WriteString("extern \"C\" __global__ void gomath_all(const double* f, const float* f32, const unsigned long long* u, unsigned char* out) {\n")
	b.WriteString("  namespace go = ::gocccl::go;\n")
	n := 0
	for _, pkg := range []string{"math", "bits"} {
		for _, name := range intrinsics.Names(pkg) {
			fn := intrinsics.Lookup(pkg + "." + name)
			args := make([]string, len(fn.Params))
			for i, p := range fn.Params {
				switch {
				case p.IsFloat() && p.Bits() == 32:
					args[i] = fmt.Sprintf("f32[%d]", i)
				case p.IsFloat():
					args[i] = fmt.Sprintf("f[%d]", i)
				default:
					args[i] = fmt.Sprintf("(%s)u[%d]", cType(p), i)
				}
			}
			fmt.Fprintf(&b, "  sink(%s(%s), out + %d);\n", fn.CName(), strings.Join(args, ", "), 16*n)
			n++
		}
	}
	for _, fn := range []string{"min", "max"} {
		for _, ty := range []string{"double", "float", "int8_t", "uint64_t"} {
			fmt.Fprintf(&b, "  sink(go::%s<%s>((%s)f[0], (%s)f[1]), out + %d);\n", fn, ty, ty, ty, 16*n)
			n++
		}
	}
	b.WriteString("}\n")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "all.cu"), []byte(b.String()), 0o644))
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	args := append(Flags(), "-I"+include, "-cubin", "-arch=sm_75", "-o", "all.cubin", "all.cu")
	cmd := exec.Command(nvcc, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvcc:\n%s\n%s", out, b.String())
}

// mathLine is one expected output line of the gomath host program.
type mathLine struct {
	label    string // "math.Sqrt 3" or "bits.Add64 1 2 0"
	fn       string // "math.Sqrt"
	operands string
	value    string // Go's result, formatted by mathFormat
	tol      uint64
}

// check compares a C++ result with Go's and returns what is wrong, or "".
func (w mathLine) check(got string) string {
	if got == w.value {
		return ""
	}
	gs, ws := strings.Split(got, ","), strings.Split(w.value, ",")
	if len(gs) != len(ws) {
		return "different number of results"
	}
	for i := range ws {
		if msg := w.checkOne(gs[i], ws[i]); msg != "" {
			return msg
		}
	}
	return ""
}

func (w mathLine) checkOne(got, want string) string {
	if got == want {
		return ""
	}
	gb, gf, gok := parseFloatBits(got)
	wb, wf, wok := parseFloatBits(want)
	if !gok || !wok {
		return "differ"
	}
	switch {
	case math.IsNaN(wf) && math.IsNaN(gf):
		if nanPayload[w.fn] {
			return "NaN payloads differ"
		}
		return ""
	case math.IsNaN(wf) || math.IsNaN(gf) || math.IsInf(wf, 0) || wf == 0:
		return "special value differs"
	case w.tol == 0:
		return "not bit-identical"
	case math.Signbit(gf) != math.Signbit(wf):
		return "signs differ"
	}
	d := gb - wb
	if wb > gb {
		d = wb - gb
	}
	if d > w.tol {
		return fmt.Sprintf("%d ulps apart, tolerance %d", d, w.tol)
	}
	return ""
}

// parseFloatBits reads a float printed as "f64:<hex>" or "f32:<hex>".
func parseFloatBits(s string) (bits uint64, f float64, ok bool) {
	switch {
	case strings.HasPrefix(s, "f64:"):
		if _, err := fmt.Sscanf(s[4:], "%x", &bits); err != nil {
			return 0, 0, false
		}
		return bits, math.Float64frombits(bits), true
	case strings.HasPrefix(s, "f32:"):
		if _, err := fmt.Sscanf(s[4:], "%x", &bits); err != nil {
			return 0, 0, false
		}
		return bits, float64(math.Float32frombits(uint32(bits))), true
	}
	return 0, 0, false
}

// mathFormat prints a Go value as the host program does.
func mathFormat(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float64:
		return fmt.Sprintf("f64:%016x", math.Float64bits(v.Float()))
	case reflect.Float32:
		return fmt.Sprintf("f32:%08x", math.Float32bits(v.Interface().(float32)))
	case reflect.Bool:
		return fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(v.Int())
	}
	return fmt.Sprint(v.Uint())
}

// mathTable is a C++ table of input values of one Go type.
type mathTable struct {
	name string
	vals []reflect.Value
}

// f64Edges are float64 inputs for functions of one argument.
func f64Edges() []float64 {
	vs := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3, 0.1, -0.7, 0.7, 0.9999999999999999, 2, 10, 100, 1000,
		1e-300, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308, 1e300, -1e300,
		math.MaxFloat64, -math.MaxFloat64, 4503599627370495.5, -4503599627370495.5, 4503599627370496, 9007199254740993,
		0.49999999999999994, -0.49999999999999994, 700, 709.7, 710, 711, -745, -750, 1023.5, 1024, -1075,
		0.3, 0.625, 21, 21.5, 30, 44.5, -44.5, 1e10, 2e9, 1 << 28, 1<<28 + 1, 1e-9, 1e-20, -1e-20, 5.9, 6, -6.5,
		math.Pi, -math.Pi / 2, math.E, math.Ln2, 1e22, 1e300 * 1e8, 3e-310,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7FF8000000000123), math.Float64frombits(0xFFF8000000000000),
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF0000000000123), // signalling
	}
	vs = append(vs, portEdges()...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		e := r.IntN(80) - 40
		v := (r.Float64()*2 - 1) * math.Pow(2, float64(e))
		vs = append(vs, v)
	}
	for _, scale := range []float64{1, 2, 8, 30, 750, 1100, 1 << 29, 1 << 40} {
		for range 100 {
			vs = append(vs, (r.Float64()*2-1)*scale)
		}
	}
	for range 300 {
		vs = append(vs, math.Float64frombits(r.Uint64()))
	}
	return vs
}

// portEdges are the inputs where the functions ported from Go's source
// change method or lose accuracy: huge arguments and multiples of Pi/2 for
// Sin, Cos and Tan (Cody-Waite below 2**29, Payne-Hanek above), ±1 for
// Asin and Acos, the thresholds of Atan, Exp2, Expm1, Log1p, Cbrt, Erf and
// Erfc, subnormals; each with its neighbors and its negation.
func portEdges() []float64 {
	base := []float64{
		// Sin, Cos, Tan.
		1e10, 1e15, 1e16, 1e20, 1e22, 1e100, 1e200, 1e300, 1e308, 0x1p29, 0x1p30, 0x1p52, 0x1p53, 0x1p63, 0x1p64,
		0x1p100, 0x1p500, 0x1p1000, 0x1p1023, 6.5e8, 1234567890123, 3.0e9, 7.0e18, math.MaxFloat64,
		math.Pi / 4, math.Pi / 2, 3 * math.Pi / 4, math.Pi, 3 * math.Pi / 2, 2 * math.Pi, 5 * math.Pi / 2, 1e-14, 1e-7,
		// Asin, Acos, Atan.
		1, 0.999, 0.999999, 0.7, 0.66, 0.6, 0.25, 2.41421356237309504880, 0.41421356237309503, 1e8, 1e16,
		// Exp2.
		1074, 1073.5, 1022.5, 1023, 1023.9999999999999, 1024, 1075, 0.5, 3.5, 1e-17,
		// Expm1.
		0.34657359027997264, 1.0397207708399179, 38.816242111356935, 709.782712893384, 709.78, 13.5, 14, 20 * math.Ln2,
		56 * math.Ln2, 57 * math.Ln2, 0x1p-54, 0x1p-53, 0x1p-30, 0.25, 2, 10,
		// Log1p.
		0.41421356237309503, 0.2928932188134524, 0x1p-29, 0x1p-28, 0x1p-20, 0x1p53, 0x1p54, 1e-5, 0.5, 0.9999999999999999,
		// Cbrt.
		8, 27, 1e-310, 0x1p-1022, 0x1p-1074, 3e-320, 2.2250738585072009e-308, 0.001, 64, 1e-100,
		// Erf, Erfc.
		0.84375, 1.25, 1 / 0.35, 2.857142857142857, 6, 5.999999999999999, 27.999999999999996, 28, 26.5, 0x1p-28, 0x1p-56,
		2.848094538889218e-306, 1e-306, 0.2, 0.26, 3.5, 4.75,
	}
	// Multiples of Pi/2 and Pi/4, small and large.
	for _, k := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 17, 31, 100, 101, 1000, 1e4, 1e5, 1e6, 1e7, 1e8, 3e8, 6e8, 1e9, 1e10, 1e15} {
		base = append(base, k*math.Pi/2, k*math.Pi/4)
	}
	var vs []float64
	for _, v := range base {
		for _, w := range []float64{v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)),
			math.Nextafter(math.Nextafter(v, 0), 0), math.Nextafter(math.Nextafter(v, math.Inf(1)), math.Inf(1))} {
			vs = append(vs, w, -w)
		}
	}
	return vs
}

// f64Pairs are float64 inputs for each argument of functions of several.
func f64Pairs() []float64 {
	return []float64{
		0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 2.5, 0.1, 7.25, -13.5, 1e-310, -1e-310,
		1e300, -1e300, math.MaxFloat64, 1e-300, 1 << 53, -(1 << 53), 1 << 63, 0.3333, 10.5, -0.75, 1e10,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0xFFF8000000000007),
		// For Atan2: quotients near the thresholds of Atan and multiples of Pi.
		0.66, 2.414213562373095, 1e-300, 5e-324, 0x1p-1022, 1e20, -1e20, -0.999999, 0.7, -5.5, 123456.789,
	}
}

// u64Edges are the unsigned inputs of math/bits.
func u64Edges() []uint64 {
	vs := []uint64{0, 1, 2, 3, 7, 0x80, 0xFF, 0x100, 0x8000, 0xFFFF, 0x10000, 0x80000000, 0xFFFFFFFF, 1 << 32,
		1 << 63, math.MaxUint64, math.MaxUint64 - 1, 0x0123456789ABCDEF, 0xF0F0F0F0F0F0F0F0}
	r := rand.New(rand.NewPCG(3, 4))
	for range 12 {
		vs = append(vs, r.Uint64())
	}
	return vs
}

// inputs returns the table for argument i of fn.
func inputs(fn *intrinsics.Func, i int, tables map[string]*mathTable) *mathTable {
	p := fn.Params[i]
	switch {
	case fn.Name == "math.Inf" || (fn.Name == "math.IsInf" && i == 1):
		return tables["sign"]
	case fn.Name == "math.Ldexp" && i == 1:
		return tables["exp"]
	case strings.HasPrefix(fn.Name, "bits.RotateLeft") && i == 1:
		return tables["rot"]
	case (strings.HasPrefix(fn.Name, "bits.Add") || strings.HasPrefix(fn.Name, "bits.Sub")) && i == 2:
		return tables["carry_"+p.GoName()]
	case p.IsFloat() && p.Bits() == 64 && len(fn.Params) == 1:
		return tables["f64"]
	case p.IsFloat() && p.Bits() == 64:
		return tables["f64pair"]
	}
	return tables[p.GoName()]
}

// gomathProgram returns the host program and its expected output.
func gomathProgram() (string, []mathLine) {
	vals := func(xs any) []reflect.Value {
		v := reflect.ValueOf(xs)
		out := make([]reflect.Value, v.Len())
		for i := range out {
			out[i] = v.Index(i)
		}
		return out
	}
	u64 := u64Edges()
	narrow := func(bits int) []reflect.Value {
		seen := map[uint64]bool{}
		var out []reflect.Value
		for _, u := range u64 {
			x := u & (1<<bits - 1)
			if bits == 64 {
				x = u
			}
			if !seen[x] {
				seen[x] = true
				switch bits {
				case 8:
					out = append(out, reflect.ValueOf(uint8(x)))
				case 16:
					out = append(out, reflect.ValueOf(uint16(x)))
				case 32:
					out = append(out, reflect.ValueOf(uint32(x)))
				default:
					out = append(out, reflect.ValueOf(x))
				}
			}
		}
		return out
	}
	var f32 []float32
	for _, v := range f64Pairs() {
		f32 = append(f32, float32(v))
	}
	f32 = append(f32, 1e-45, -1e-45, math.Float32frombits(0x7FC00123), math.Float32frombits(0xFF800001))
	uints := vals(u64)
	for i := range uints {
		uints[i] = uints[i].Convert(reflect.TypeOf(uint(0)))
	}
	tables := map[string]*mathTable{
		"f64":     {vals: vals(f64Edges())},
		"f64pair": {vals: vals(f64Pairs())},
		"float32": {vals: vals(f32)},
		"uint64":  {vals: narrow(64)},
		"uint":    {vals: uints},
		"uint32":  {vals: narrow(32)},
		"uint16":  {vals: narrow(16)},
		"uint8":   {vals: narrow(8)},
		"sign":    {vals: vals([]int{-2, -1, 0, 1, 5})},
		"exp": {vals: vals([]int{-3000, -1100, -1075, -1074, -1073, -1022, -60, -1, 0, 1, 52, 1023, 1024, 3000,
			math.MaxInt64, math.MinInt64, math.MaxInt64 - 10})},
		"rot":          {vals: vals([]int{-100, -65, -64, -63, -9, -8, -1, 0, 1, 7, 8, 9, 15, 16, 31, 32, 33, 63, 64, 65, 1000, math.MinInt64})},
		"carry_uint32": {vals: vals([]uint32{0, 1, 2, math.MaxUint32})},
		"carry_uint64": {vals: vals([]uint64{0, 1})},
		"carry_uint":   {vals: vals([]uint{0, 1})},
		"int8":         {vals: vals([]int8{0, 1, -1, 127, -128, 5})},
		"int64":        {vals: vals([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, 5})},
		"uint64mm":     {vals: vals([]uint64{0, 1, math.MaxUint64, 1 << 63, 5})},
	}
	var decls, calls strings.Builder
	for name, tab := range tables {
		tab.name = "t_" + name
		ct := map[reflect.Kind]string{
			reflect.Float64: "uint64_t", reflect.Float32: "uint32_t", reflect.Int: "int64_t", reflect.Int8: "int8_t", reflect.Int64: "int64_t",
			reflect.Uint: "uint64_t", reflect.Uint64: "uint64_t", reflect.Uint32: "uint32_t", reflect.Uint16: "uint16_t", reflect.Uint8: "uint8_t",
		}[tab.vals[0].Kind()]
		items := make([]string, len(tab.vals))
		for i, v := range tab.vals {
			switch v.Kind() {
			case reflect.Float64:
				items[i] = fmt.Sprintf("0x%016xULL", math.Float64bits(v.Float()))
			case reflect.Float32:
				items[i] = fmt.Sprintf("0x%08xU", math.Float32bits(v.Interface().(float32)))
			case reflect.Int, reflect.Int8, reflect.Int64:
				items[i] = fmt.Sprintf("%s(%dLL)", ct, v.Int())
				if v.Int() == math.MinInt64 {
					items[i] = "INT64_MIN"
				}
			default:
				items[i] = fmt.Sprintf("%s(%dULL)", ct, v.Uint())
			}
		}
		fmt.Fprintf(&decls, "static const %s %s[] = {%s};\n", ct, tab.name, strings.Join(items, ", "))
	}

	var lines []mathLine
	// call writes the loops over the argument tables and records Go's
	// results in the same order.
	call := func(fn string, cexpr func(args []string) string, argTabs []*mathTable, argKinds []reflect.Kind, goFn reflect.Value) {
		idx := make([]string, len(argTabs))
		args := make([]string, len(argTabs))
		for i, tab := range argTabs {
			idx[i] = fmt.Sprintf("i%d", i)
			fmt.Fprintf(&calls, "  for (size_t i%d = 0; i%d < sizeof %s / sizeof %s[0]; i%d++)\n", i, i, tab.name, tab.name, i)
			load := fmt.Sprintf("opaque(%s[i%d])", tab.name, i)
			switch argKinds[i] {
			case reflect.Float64:
				load = "f64(" + load + ")"
			case reflect.Float32:
				load = "f32(" + load + ")"
			}
			args[i] = load
		}
		fmt.Fprintf(&calls, "  { std::printf(\"%s", fn)
		for range argTabs {
			calls.WriteString(" %zu")
		}
		fmt.Fprintf(&calls, " = \"%s); out(%s); }\n", strings.Join(append([]string{""}, idx...), ", "), cexpr(args))
		// Go's side, in the same nested order.
		var rec func(i int, cur []reflect.Value, pos []int)
		rec = func(i int, cur []reflect.Value, pos []int) {
			if i == len(argTabs) {
				res := goFn.Call(cur)
				vs := make([]string, len(res))
				for j, r := range res {
					vs[j] = mathFormat(r)
				}
				label := fn
				ops := make([]string, len(cur))
				for j, p := range pos {
					label += fmt.Sprintf(" %d", p)
					ops[j] = fmt.Sprint(cur[j])
				}
				lines = append(lines, mathLine{label: label, fn: fn, operands: strings.Join(ops, ", "), value: strings.Join(vs, ","), tol: mathTolerance[fn]})
				return
			}
			for p, v := range argTabs[i].vals {
				rec(i+1, append(cur, v), append(pos, p))
			}
		}
		rec(0, nil, nil)
	}

	for _, pkg := range []string{"math", "bits"} {
		for _, name := range intrinsics.Names(pkg) {
			fn := intrinsics.Lookup(pkg + "." + name)
			tabs := make([]*mathTable, len(fn.Params))
			kinds := make([]reflect.Kind, len(fn.Params))
			for i := range fn.Params {
				tabs[i] = inputs(fn, i, tables)
				kinds[i] = tabs[i].vals[0].Kind()
			}
			call(fn.Name, cfunc(fn.CName()), tabs, kinds, reflect.ValueOf(fn.Go()))
		}
	}
	// The built-ins, through Go functions that call them on run-time values.
	minMax := []struct {
		tab  string
		kind reflect.Kind
		ct   string
		min  any
		max  any
	}{
		{"f64pair", reflect.Float64, "double", func(x, y float64) float64 { return min(x, y) }, func(x, y float64) float64 { return max(x, y) }},
		{"float32", reflect.Float32, "float", func(x, y float32) float32 { return min(x, y) }, func(x, y float32) float32 { return max(x, y) }},
		{"int8", reflect.Int8, "int8_t", func(x, y int8) int8 { return min(x, y) }, func(x, y int8) int8 { return max(x, y) }},
		{"int64", reflect.Int64, "int64_t", func(x, y int64) int64 { return min(x, y) }, func(x, y int64) int64 { return max(x, y) }},
		{"uint64mm", reflect.Uint64, "uint64_t", func(x, y uint64) uint64 { return min(x, y) }, func(x, y uint64) uint64 { return max(x, y) }},
	}
	for _, m := range minMax {
		tab := tables[m.tab]
		call("min", cfunc("go::min<"+m.ct+">"), []*mathTable{tab, tab}, []reflect.Kind{m.kind, m.kind}, reflect.ValueOf(m.min))
		call("max", cfunc("go::max<"+m.ct+">"), []*mathTable{tab, tab}, []reflect.Kind{m.kind, m.kind}, reflect.ValueOf(m.max))
	}
	// Three-argument min and max nest left to right.
	call("min", func(a []string) string {
		return fmt.Sprintf("go::min<double>(go::min<double>(%s, %s), (double)%s)", a[0], a[1], a[2])
	}, []*mathTable{tables["f64pair"], tables["f64pair"], tables["sign"]},
		[]reflect.Kind{reflect.Float64, reflect.Float64, reflect.Int},
		reflect.ValueOf(func(x, y float64, z int) float64 { return min(x, y, float64(z)) }))

	var b bytes.Buffer
	b.WriteString(gomathPrelude)
	b.WriteString(decls.String())
	b.WriteString("\nint main() {\n")
	b.WriteString(calls.String())
	b.WriteString("  return 0;\n}\n")
	return b.String(), lines
}

// cfunc returns a function that prints a call of the C++ function name.
func cfunc(name string) func([]string) string {
	return func(args []string) string { return name + "(" + strings.Join(args, ", ") + ")" }
}

const gomathPrelude = `// Host test of gocccl/gomath.cuh, generated by cmd/gocccl-gen/internal/emit/cuda_gomath_test.go.
#include <gocccl/gosem.cuh>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace go = gocccl::go;

// opaque hides a value from the optimizer.
template <typename T>
__attribute__((noinline)) T opaque(T v) {
  volatile T x = v;
  return x;
}

static double f64(uint64_t u) { return go::math::Float64frombits(u); }
static float f32(uint32_t u) { return go::math::Float32frombits(u); }

static void one(double v) { std::printf("f64:%016llx", (unsigned long long)go::math::Float64bits(v)); }
static void one(float v) { std::printf("f32:%08x", (unsigned)go::math::Float32bits(v)); }
static void one(bool v) { std::printf(v ? "true" : "false"); }
template <typename T>
static void one(T v) {
  if constexpr (std::is_signed<T>::value) {
    std::printf("%lld", (long long)v);
  } else {
    std::printf("%llu", (unsigned long long)v);
  }
}

template <typename T>
static void out(T v) {
  one(v);
  std::printf("\n");
}

template <typename A, typename B>
static void out(go::pair<A, B> v) {
  one(v.r0);
  std::printf(",");
  one(v.r1);
  std::printf("\n");
}

`
