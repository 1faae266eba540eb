// Package intrinsics lists the functions of packages math and math/bits
// that operators may call, with their Go signatures and implementations,
// for the analyzer (which checks calls and folds constant ones) and the
// emitter (which maps each to its helper in kernels/include/gocccl/gomath.cuh).
//
// The built-ins min and max are intrinsics too, but generic: they have no
// entry here.
package intrinsics

import (
	"go/constant"
	"math"
	"math/bits"
	"math/cmplx"
	"reflect"
	"sort"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// Func is a supported function of math or math/bits.
type Func struct {
	// Name is the Go name qualified by its package name: "math.Sqrt",
	// "bits.OnesCount32".
	Name string
	// Params and Results are the types of Go's signature.
	Params, Results []*model.Type

	impl reflect.Value // the Go function, for constant folding
}

// goCalled: an operator calls math.Floor, Ceil, Trunc, RoundToEven and FMA
// directly, and gc compiles such a call to one instruction (ROUNDSD, or
// VFMADD231SD on CPUs with FMA) whose NaN results differ from those of the
// Go code a function value runs (ROUNDSD quiets a signalling NaN; the
// hardware FMA returns z's NaN for 0 * Inf + NaN). The table holds direct
// calls, so that tests compare with what operators compute.

// funcs are the supported functions, by Name. The emitter calls each as
// ::gocccl::go::<pkg>::<name> (see CName); gomath.cuh documents how close
// each comes to Go's results.
var funcs = index(map[string]any{
	"math.Abs":             math.Abs,
	"math.Acos":            math.Acos,
	"math.Acosh":           math.Acosh,
	"math.Asin":            math.Asin,
	"math.Asinh":           math.Asinh,
	"math.Atan":            math.Atan,
	"math.Atan2":           math.Atan2,
	"math.Atanh":           math.Atanh,
	"math.Cbrt":            math.Cbrt,
	"math.Ceil":            func(x float64) float64 { return math.Ceil(x) }, // direct: see goCalled
	"math.Copysign":        math.Copysign,
	"math.Cos":             math.Cos,
	"math.Cosh":            math.Cosh,
	"math.Dim":             math.Dim,
	"math.Erf":             math.Erf,
	"math.Erfc":            math.Erfc,
	"math.Exp":             math.Exp,
	"math.Exp2":            math.Exp2,
	"math.Expm1":           math.Expm1,
	"math.FMA":             func(x, y, z float64) float64 { return math.FMA(x, y, z) }, // direct: see goCalled
	"math.Float32bits":     math.Float32bits,
	"math.Float32frombits": math.Float32frombits,
	"math.Float64bits":     math.Float64bits,
	"math.Float64frombits": math.Float64frombits,
	"math.Floor":           func(x float64) float64 { return math.Floor(x) }, // direct: see goCalled
	"math.Frexp":           math.Frexp,
	"math.Hypot":           math.Hypot,
	"math.Inf":             math.Inf,
	"math.IsInf":           math.IsInf,
	"math.IsNaN":           math.IsNaN,
	"math.Ldexp":           math.Ldexp,
	"math.Log":             math.Log,
	"math.Log10":           math.Log10,
	"math.Log1p":           math.Log1p,
	"math.Log2":            math.Log2,
	"math.Max":             math.Max,
	"math.Min":             math.Min,
	"math.Mod":             math.Mod,
	"math.Modf":            math.Modf,
	"math.NaN":             math.NaN,
	"math.Pow":             math.Pow,
	"math.Remainder":       math.Remainder,
	"math.Round":           math.Round,
	"math.RoundToEven":     func(x float64) float64 { return math.RoundToEven(x) }, // direct: see goCalled
	"math.Signbit":         math.Signbit,
	"math.Sin":             math.Sin,
	"math.Sinh":            math.Sinh,
	"math.Sqrt":            math.Sqrt,
	"math.Tan":             math.Tan,
	"math.Tanh":            math.Tanh,
	"math.Trunc":           func(x float64) float64 { return math.Trunc(x) }, // direct: see goCalled

	"cmplx.Abs":            cmplx.Abs,
	"cmplx.Conj":           cmplx.Conj,
	"cmplx.Cos":            cmplx.Cos,
	"cmplx.Cosh":           cmplx.Cosh,
	"cmplx.Exp":            cmplx.Exp,
	"cmplx.Inf":            cmplx.Inf,
	"cmplx.IsInf":          cmplx.IsInf,
	"cmplx.IsNaN":          cmplx.IsNaN,
	"cmplx.Log":            cmplx.Log,
	"cmplx.NaN":            cmplx.NaN,
	"cmplx.Phase":          cmplx.Phase,
	"cmplx.Polar":          cmplx.Polar,
	"cmplx.Pow":            cmplx.Pow,
	"cmplx.Rect":           cmplx.Rect,
	"cmplx.Sin":            cmplx.Sin,
	"cmplx.Sinh":           cmplx.Sinh,
	"cmplx.Sqrt":           cmplx.Sqrt,
	"bits.Add":             bits.Add,
	"bits.Add32":           bits.Add32,
	"bits.Add64":           bits.Add64,
	"bits.LeadingZeros":    bits.LeadingZeros,
	"bits.LeadingZeros8":   bits.LeadingZeros8,
	"bits.LeadingZeros16":  bits.LeadingZeros16,
	"bits.LeadingZeros32":  bits.LeadingZeros32,
	"bits.LeadingZeros64":  bits.LeadingZeros64,
	"bits.Len":             bits.Len,
	"bits.Len8":            bits.Len8,
	"bits.Len16":           bits.Len16,
	"bits.Len32":           bits.Len32,
	"bits.Len64":           bits.Len64,
	"bits.Mul":             bits.Mul,
	"bits.Mul32":           bits.Mul32,
	"bits.Mul64":           bits.Mul64,
	"bits.OnesCount":       bits.OnesCount,
	"bits.OnesCount8":      bits.OnesCount8,
	"bits.OnesCount16":     bits.OnesCount16,
	"bits.OnesCount32":     bits.OnesCount32,
	"bits.OnesCount64":     bits.OnesCount64,
	"bits.Reverse":         bits.Reverse,
	"bits.Reverse8":        bits.Reverse8,
	"bits.Reverse16":       bits.Reverse16,
	"bits.Reverse32":       bits.Reverse32,
	"bits.Reverse64":       bits.Reverse64,
	"bits.ReverseBytes":    bits.ReverseBytes,
	"bits.ReverseBytes16":  bits.ReverseBytes16,
	"bits.ReverseBytes32":  bits.ReverseBytes32,
	"bits.ReverseBytes64":  bits.ReverseBytes64,
	"bits.RotateLeft":      bits.RotateLeft,
	"bits.RotateLeft8":     bits.RotateLeft8,
	"bits.RotateLeft16":    bits.RotateLeft16,
	"bits.RotateLeft32":    bits.RotateLeft32,
	"bits.RotateLeft64":    bits.RotateLeft64,
	"bits.Sub":             bits.Sub,
	"bits.Sub32":           bits.Sub32,
	"bits.Sub64":           bits.Sub64,
	"bits.TrailingZeros":   bits.TrailingZeros,
	"bits.TrailingZeros8":  bits.TrailingZeros8,
	"bits.TrailingZeros16": bits.TrailingZeros16,
	"bits.TrailingZeros32": bits.TrailingZeros32,
	"bits.TrailingZeros64": bits.TrailingZeros64,
})

// index builds the table from the Go functions: their signatures give the
// parameter and result types.
func index(m map[string]any) map[string]*Func {
	out := make(map[string]*Func, len(m))
	for name, f := range m {
		v := reflect.ValueOf(f)
		t := v.Type()
		fn := &Func{Name: name, impl: v}
		for i := range t.NumIn() {
			fn.Params = append(fn.Params, kindType(t.In(i)))
		}
		for i := range t.NumOut() {
			fn.Results = append(fn.Results, kindType(t.Out(i)))
		}
		out[name] = fn
	}
	return out
}

// kinds maps the reflect kinds of the table's signatures to model kinds.
var kinds = map[reflect.Kind]model.Kind{
	reflect.Bool: model.Bool, reflect.Int: model.Int,
	reflect.Uint: model.Uint, reflect.Uint8: model.Uint8, reflect.Uint16: model.Uint16,
	reflect.Uint32: model.Uint32, reflect.Uint64: model.Uint64,
	reflect.Float32: model.Float32, reflect.Float64: model.Float64,
	reflect.Complex128: model.Complex128,
}

func kindType(t reflect.Type) *model.Type {
	k, ok := kinds[t.Kind()]
	if !ok {
		panic("intrinsics: unsupported type " + t.String())
	}
	return model.Basic(k)
}

// Lookup returns the supported function named name ("math.Sqrt"), or nil.
func Lookup(name string) *Func { return funcs[name] }

// Names returns the names of the supported functions of package pkg
// ("math" or "bits"), without the package, sorted.
func Names(pkg string) []string {
	var out []string
	for name := range funcs {
		if p, n, _ := strings.Cut(name, "."); p == pkg {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Result returns the type of a call: the single result, or the tuple of
// the results.
func (f *Func) Result() *model.Type {
	if len(f.Results) == 1 {
		return f.Results[0]
	}
	return model.TupleOf(f.Results)
}

// CName returns the qualified name of the function's C++ helper in
// gomath.cuh: "::gocccl::go::math::Sqrt".
func (f *Func) CName() string {
	pkg, name, _ := strings.Cut(f.Name, ".")
	return "::gocccl::go::" + pkg + "::" + name
}

// Fold calls the Go function on constant arguments of the parameter types
// (as model.Const holds them) and returns its single result as a constant.
// It reports false when the function has several results or the result
// cannot be a model constant: NaN, ±Inf or -0.
func (f *Func) Fold(args []constant.Value) (constant.Value, bool) {
	if len(f.Results) != 1 || len(args) != len(f.Params) {
		return nil, false
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		v, ok := goValue(a, f.impl.Type().In(i))
		if !ok {
			return nil, false
		}
		in[i] = v
	}
	return constValue(f.impl.Call(in)[0])
}

// goValue converts a constant to a Go value of type t.
func goValue(c constant.Value, t reflect.Type) (reflect.Value, bool) {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		if c.Kind() != constant.Bool {
			return v, false
		}
		v.SetBool(constant.BoolVal(c))
	case reflect.Int:
		i, exact := constant.Int64Val(constant.ToInt(c))
		if !exact {
			return v, false
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u, exact := constant.Uint64Val(constant.ToInt(c))
		if !exact || v.OverflowUint(u) {
			return v, false
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		x, _ := constant.Float64Val(constant.ToFloat(c))
		v.SetFloat(x)
	default:
		return v, false
	}
	return v, true
}

// constValue converts a Go result to a constant a model.Const can hold.
func constValue(v reflect.Value) (constant.Value, bool) {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool()), true
	case reflect.Int:
		return constant.MakeInt64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return constant.MakeUint64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) || (x == 0 && math.Signbit(x)) {
			return nil, false
		}
		return constant.MakeFloat64(x), true
	}
	return nil, false
}

// Advice explains why name, a function of math or math/bits that is not in
// the table, cannot be called, and what to do instead.
func Advice(name string) string {
	pkg, fn, _ := strings.Cut(name, ".")
	switch {
	case pkg == "bits" && (strings.HasPrefix(fn, "Div") || strings.HasPrefix(fn, "Rem")):
		return name + " is not supported in operators: it panics on a zero divisor (and Div on overflow), which a GPU cannot; divide with / and % on uint64 values"
	case name == "math.Sincos":
		return "math.Sincos is not supported in operators: call math.Sin and math.Cos"
	case name == "math.Pow10":
		return "math.Pow10 is not supported in operators: use a constant, or math.Pow(10, x)"
	case name == "math.Logb" || name == "math.Ilogb":
		return name + " is not supported in operators: use math.Frexp (its exponent is Logb(x)+1)"
	case name == "math.Nextafter" || name == "math.Nextafter32":
		return name + " is not supported in operators: step the bits with math.Float64bits and math.Float64frombits"
	}
	path := map[string]string{"bits": "math/bits", "cmplx": "math/cmplx"}[pkg]
	if path == "" {
		path = pkg
	}
	return name + " is not supported in operators: the supported functions of " + path + " are " +
		strings.Join(Names(pkg), ", ") + " (docs/OPERATORS.md)"
}

// Go returns the Go function itself, for tests that compare the helpers with
// it.
func (f *Func) Go() any { return f.impl.Interface() }
