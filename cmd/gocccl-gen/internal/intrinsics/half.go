package intrinsics

import (
	"go/constant"
	"math"
	"sort"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/half"
)

// HalfFunc is a function or method of package half that operators may
// call. Methods take their receiver as the first parameter.
type HalfFunc struct {
	// Name is "half.FromFloat32" for a function, "half.Float16.Add" for a
	// method.
	Name string
	// Params and Result are the types of Go's signature (the receiver
	// first).
	Params []*model.Type
	Result *model.Type

	fold func(args []constant.Value) (constant.Value, bool)
}

// HalfType returns the model type of half.Float16 (kind Float16) or
// half.BFloat16 (kind BFloat16).
func HalfType(k model.Kind) *model.Type {
	name := "Float16"
	if k == model.BFloat16 {
		name = "BFloat16"
	}
	return &model.Type{Kind: k, Name: name, Pkg: model.HalfPkg}
}

// CName returns the qualified name of the function's helper in gohalf.cuh:
// "::gocccl::go::half::FromFloat32", "::gocccl::go::half::Float16_Add".
func (f *HalfFunc) CName() string {
	return "::gocccl::go::half::" + strings.ReplaceAll(strings.TrimPrefix(f.Name, "half."), ".", "_")
}

// Fold computes a call with constant arguments with package half itself;
// it reports false when the result cannot be a model constant (a float32
// NaN, ±Inf or -0).
func (f *HalfFunc) Fold(args []constant.Value) (constant.Value, bool) {
	if len(args) != len(f.Params) {
		return nil, false
	}
	return f.fold(args)
}

// LookupHalf returns the supported function or method of package half named
// name ("half.FromFloat32", "half.Float16.Add"), or nil.
func LookupHalf(name string) *HalfFunc { return halfFuncs[name] }

// HalfNames returns the supported names of package half, sorted.
func HalfNames() []string {
	var out []string
	for n := range halfFuncs {
		out = append(out, strings.TrimPrefix(n, "half."))
	}
	sort.Strings(out)
	return out
}

var halfFuncs = func() map[string]*HalfFunc {
	f16, bf16 := HalfType(model.Float16), HalfType(model.BFloat16)
	f32, boolT := model.Basic(model.Float32), model.Basic(model.Bool)
	out := map[string]*HalfFunc{}
	add := func(name string, result *model.Type, fold func([]constant.Value) (constant.Value, bool), params ...*model.Type) {
		out[name] = &HalfFunc{Name: name, Params: params, Result: result, fold: fold}
	}
	bits := func(v constant.Value) uint16 {
		u, _ := constant.Uint64Val(constant.ToInt(v))
		return uint16(u)
	}
	f32val := func(v constant.Value) float32 {
		x, _ := constant.Float32Val(constant.ToFloat(v))
		return x
	}
	mkBits := func(b uint16) (constant.Value, bool) { return constant.MakeUint64(uint64(b)), true }
	mkF32 := func(x float32) (constant.Value, bool) {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || (x == 0 && math.Signbit(float64(x))) {
			return nil, false
		}
		return constant.MakeFloat64(float64(x)), true
	}
	mkBool := func(b bool) (constant.Value, bool) { return constant.MakeBool(b), true }

	add("half.FromFloat32", f16, func(a []constant.Value) (constant.Value, bool) {
		return mkBits(uint16(half.FromFloat32(f32val(a[0]))))
	}, f32)
	add("half.BFloat16FromFloat32", bf16, func(a []constant.Value) (constant.Value, bool) {
		return mkBits(uint16(half.BFloat16FromFloat32(f32val(a[0]))))
	}, f32)

	type ops struct {
		typ     *model.Type
		float32 func(uint16) float32
		bin     map[string]func(x, y uint16) uint16
		un      map[string]func(uint16) uint16
		cmp     map[string]func(x, y uint16) bool
		isNaN   func(uint16) bool
	}
	for _, o := range []ops{
		{
			typ:     f16,
			float32: func(b uint16) float32 { return half.Float16(b).Float32() },
			bin: map[string]func(x, y uint16) uint16{
				"Add": func(x, y uint16) uint16 { return uint16(half.Float16(x).Add(half.Float16(y))) },
				"Sub": func(x, y uint16) uint16 { return uint16(half.Float16(x).Sub(half.Float16(y))) },
				"Mul": func(x, y uint16) uint16 { return uint16(half.Float16(x).Mul(half.Float16(y))) },
				"Div": func(x, y uint16) uint16 { return uint16(half.Float16(x).Div(half.Float16(y))) },
			},
			un: map[string]func(uint16) uint16{
				"Neg": func(x uint16) uint16 { return uint16(half.Float16(x).Neg()) },
				"Abs": func(x uint16) uint16 { return uint16(half.Float16(x).Abs()) },
			},
			cmp: map[string]func(x, y uint16) bool{
				"Eq": func(x, y uint16) bool { return half.Float16(x).Eq(half.Float16(y)) },
				"Lt": func(x, y uint16) bool { return half.Float16(x).Lt(half.Float16(y)) },
				"Le": func(x, y uint16) bool { return half.Float16(x).Le(half.Float16(y)) },
			},
			isNaN: func(x uint16) bool { return half.Float16(x).IsNaN() },
		},
		{
			typ:     bf16,
			float32: func(b uint16) float32 { return half.BFloat16(b).Float32() },
			bin: map[string]func(x, y uint16) uint16{
				"Add": func(x, y uint16) uint16 { return uint16(half.BFloat16(x).Add(half.BFloat16(y))) },
				"Sub": func(x, y uint16) uint16 { return uint16(half.BFloat16(x).Sub(half.BFloat16(y))) },
				"Mul": func(x, y uint16) uint16 { return uint16(half.BFloat16(x).Mul(half.BFloat16(y))) },
				"Div": func(x, y uint16) uint16 { return uint16(half.BFloat16(x).Div(half.BFloat16(y))) },
			},
			un: map[string]func(uint16) uint16{
				"Neg": func(x uint16) uint16 { return uint16(half.BFloat16(x).Neg()) },
				"Abs": func(x uint16) uint16 { return uint16(half.BFloat16(x).Abs()) },
			},
			cmp: map[string]func(x, y uint16) bool{
				"Eq": func(x, y uint16) bool { return half.BFloat16(x).Eq(half.BFloat16(y)) },
				"Lt": func(x, y uint16) bool { return half.BFloat16(x).Lt(half.BFloat16(y)) },
				"Le": func(x, y uint16) bool { return half.BFloat16(x).Le(half.BFloat16(y)) },
			},
			isNaN: func(x uint16) bool { return half.BFloat16(x).IsNaN() },
		},
	} {
		p := "half." + o.typ.Name + "."
		add(p+"Float32", f32, func(a []constant.Value) (constant.Value, bool) { return mkF32(o.float32(bits(a[0]))) }, o.typ)
		add(p+"Bits", model.Basic(model.Uint16), func(a []constant.Value) (constant.Value, bool) { return mkBits(bits(a[0])) }, o.typ)
		add(p+"IsNaN", boolT, func(a []constant.Value) (constant.Value, bool) { return mkBool(o.isNaN(bits(a[0]))) }, o.typ)
		for n, fn := range o.bin {
			add(p+n, o.typ, func(a []constant.Value) (constant.Value, bool) { return mkBits(fn(bits(a[0]), bits(a[1]))) }, o.typ, o.typ)
		}
		for n, fn := range o.un {
			add(p+n, o.typ, func(a []constant.Value) (constant.Value, bool) { return mkBits(fn(bits(a[0]))) }, o.typ)
		}
		for n, fn := range o.cmp {
			add(p+n, boolT, func(a []constant.Value) (constant.Value, bool) { return mkBool(fn(bits(a[0]), bits(a[1]))) }, o.typ, o.typ)
		}
	}
	return out
}()
