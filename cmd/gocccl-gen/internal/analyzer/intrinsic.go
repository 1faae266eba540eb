package analyzer

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// intrinsic translates a call of the built-ins min and max, or of a function
// of package math or math/bits, into a model.Intrinsic. A call of a math or
// math/bits function whose arguments are all constants is folded: Go's own
// function computes it here, so the GPU uses exactly Go's value (unless the
// value is NaN, ±Inf or -0, which a model.Const cannot hold).
func (b *builder) intrinsic(e *ast.CallExpr, obj types.Object) model.Expr {
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		return nil
	}
	switch obj := obj.(type) {
	case *types.Builtin:
		if obj.Name() == "complex" || obj.Name() == "real" || obj.Name() == "imag" {
			return b.complexBuiltin(e, obj.Name())
		}
		return b.minMax(e, obj.Name())
	case *types.Func:
		if obj.Pkg() == nil {
			break
		}
		name := obj.Pkg().Name() + "." + obj.Name()
		fn := intrinsics.Lookup(name)
		if fn == nil {
			b.errorf(e.Pos(), "%s", intrinsics.Advice(name))
			return nil
		}
		return b.mathCall(e, fn)
	}
	b.errorf(e.Pos(), "%s cannot be called in operators", obj.Name())
	return nil
}

// mathCall translates a call of a supported function of math or math/bits.
func (b *builder) mathCall(e *ast.CallExpr, fn *intrinsics.Func) model.Expr {
	if len(e.Args) != len(fn.Params) {
		b.errorf(e.Pos(), "%s takes %d arguments, not %d", fn.Name, len(fn.Params), len(e.Args))
		return nil
	}
	args, ok := b.intrinsicArgs(e.Args, fn.Params)
	if !ok {
		return nil
	}
	if c := fold(fn, args); c != nil {
		c.Pos = e.Pos()
		return c
	}
	return &model.Intrinsic{Pos: e.Pos(), Func: fn.Name, Args: args, T: fn.Result()}
}

// fold evaluates a call with constant arguments with Go's function, or
// returns nil.
func fold(fn *intrinsics.Func, args []model.Expr) *model.Const {
	vals := make([]constant.Value, len(args))
	for i, a := range args {
		c, ok := a.(*model.Const)
		if !ok {
			return nil
		}
		vals[i] = c.Value
	}
	v, ok := fn.Fold(vals)
	if !ok {
		return nil
	}
	return &model.Const{Value: v, T: fn.Result()}
}

// minMax translates min(x, y, …) and max(x, y, …) of integers or floats.
// go/types folded the calls whose arguments are all constants; the others
// have the type go/types recorded, which every argument shares (untyped
// constant arguments take it). min(x) is x.
func (b *builder) minMax(e *ast.CallExpr, name string) model.Expr {
	tv, ok := b.info.Types[e]
	if !ok || len(e.Args) == 0 {
		b.errorf(e.Pos(), "not enough arguments for %s", name)
		return nil
	}
	t, problem := modelType(tv.Type)
	if t == nil {
		b.errorf(e.Pos(), "%s", problem)
		return nil
	}
	if !t.IsNumeric() {
		b.errorf(e.Pos(), "built-in %s of %s is not supported in operators: use integers or floats", name, t.GoName())
		return nil
	}
	params := make([]*model.Type, len(e.Args))
	for i := range params {
		params[i] = t
	}
	args, ok := b.intrinsicArgs(e.Args, params)
	if !ok {
		return nil
	}
	if len(args) == 1 {
		return args[0]
	}
	return &model.Intrinsic{Pos: e.Pos(), Func: name, Args: args, T: t}
}

// intrinsicArgs translates the arguments of an intrinsic, each to its
// parameter type, and reports whether all of them translated.
func (b *builder) intrinsicArgs(list []ast.Expr, params []*model.Type) ([]model.Expr, bool) {
	args := make([]model.Expr, len(list))
	ok := true
	for i, a := range list {
		x := b.exprOf(a, params[i])
		if x == nil || !b.sameType(x, params[i]) {
			ok = false
		}
		args[i] = x
	}
	return args, ok
}

// complexBuiltin translates the built-ins complex, real and imag. go/types
// folded the calls whose arguments are all constants; the others have the
// type go/types recorded: complex64 or complex128 for complex (whose
// arguments share the matching float type), float32 or float64 for real and
// imag.
func (b *builder) complexBuiltin(e *ast.CallExpr, name string) model.Expr {
	tv, ok := b.info.Types[e]
	want := 1
	if name == "complex" {
		want = 2
	}
	if !ok || len(e.Args) != want {
		b.errorf(e.Pos(), "built-in %s takes %d arguments", name, want)
		return nil
	}
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		return nil
	}
	t, problem := modelType(tv.Type)
	if t == nil {
		b.errorf(e.Pos(), "%s", problem)
		return nil
	}
	var params []*model.Type
	switch {
	case name == "complex" && t.IsComplex():
		params = []*model.Type{t.PartType(), t.PartType()}
	case name != "complex" && t.IsFloat():
		c := model.Basic(model.Complex128)
		if t.Kind == model.Float32 {
			c = model.Basic(model.Complex64)
		}
		if at, ok := b.info.Types[e.Args[0]]; ok {
			if m, _ := modelType(at.Type); m != nil && m.IsComplex() && !isUntyped(at.Type) {
				c = m // a named complex type
			}
		}
		params = []*model.Type{c}
	default:
		b.errorf(e.Pos(), "built-in %s of type %s is not supported in operators", name, t.GoName())
		return nil
	}
	args, ok := b.intrinsicArgs(e.Args, params)
	if !ok {
		return nil
	}
	return &model.Intrinsic{Pos: e.Pos(), Func: name, Args: args, T: t}
}
