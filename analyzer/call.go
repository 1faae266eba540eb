package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/gocccl/gocccl/model"
)

// call translates a call expression: a conversion T(x), or a call of another
// //gocccl:op function of the package. Everything else that can be called
// (built-ins, other functions, methods, function values) is reported.
func (b *builder) call(e *ast.CallExpr) model.Expr {
	fun := ast.Unparen(e.Fun)
	if tv, ok := b.info.Types[fun]; ok && tv.IsType() {
		return b.conversion(e, tv.Type)
	}
	switch obj := calleeObject(b.info, fun).(type) {
	case *types.Builtin:
		if obj.Name() == "min" || obj.Name() == "max" {
			return b.intrinsic(e, obj)
		}
		b.errorf(e.Pos(), "%s", builtinProblem(obj))
		return nil
	case *types.Func:
		return b.funcCall(e, obj)
	}
	if lit, ok := fun.(*ast.FuncLit); ok {
		b.errorf(lit.Pos(), "closures are not allowed in operators: declare a separate //gocccl:op function")
		return nil
	}
	b.errorf(e.Pos(), "calls through function values are not allowed in operators: call a //gocccl:op function by name")
	return nil
}

// calleeObject returns the object a call's function expression names: a
// function or built-in by identifier or qualified identifier, a method, or
// an explicitly instantiated generic function. It returns nil for other
// expressions.
func calleeObject(info *types.Info, fun ast.Expr) types.Object {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		return info.Uses[f.Sel]
	}
	return nil
}

// funcCall translates a call of the function fn.
func (b *builder) funcCall(e *ast.CallExpr, fn *types.Func) model.Expr {
	sig, _ := fn.Type().(*types.Signature)
	switch {
	case sig != nil && sig.Recv() != nil:
		b.errorf(e.Pos(), "calls to method %s are not allowed: operators may call only other //gocccl:op functions", fn.Name())
		return nil
	case fn.Pkg() != b.pkg:
		if fn.Pkg() != nil && (fn.Pkg().Path() == "math" || fn.Pkg().Path() == "math/bits") {
			return b.intrinsic(e, fn)
		}
		b.errorf(e.Pos(), "calls to %s are not allowed: operators may call only other //gocccl:op functions of the same package", qualifiedName(fn))
		return nil
	}
	callee := b.ops[fn]
	if callee == nil {
		b.errorf(e.Pos(), "%s is not a //gocccl:op function: mark it with //gocccl:op to call it from an operator", fn.Name())
		return nil
	}
	call := &model.Call{Pos: e.Pos(), Op: callee.op}
	ok := callee.ok
	for i, arg := range e.Args {
		x := b.expr(arg)
		if ok && x != nil && i < len(callee.op.Params) {
			ok = b.sameType(x, callee.op.Params[i].Type)
		}
		ok = ok && x != nil
		call.Args = append(call.Args, x)
	}
	if ok && len(e.Args) != len(callee.op.Params) {
		b.errorf(e.Pos(), "%s takes %d arguments, not %d", fn.Name(), len(callee.op.Params), len(e.Args))
		ok = false
	}
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		ok = false
	}
	b.od.calls = append(b.od.calls, opCall{callee: callee, pos: e.Pos()})
	if !ok {
		return nil // reported here or at the callee's signature
	}
	return call
}

// qualifiedName returns "pkg.Name" for a function of another package.
func qualifiedName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// conversion translates T(x) between supported types. Conversions of
// constants never get here: they are constants themselves.
func (b *builder) conversion(e *ast.CallExpr, to types.Type) model.Expr {
	t, problem := modelType(to)
	if t == nil {
		b.errorf(e.Pos(), "%s", problem)
		return nil
	}
	if len(e.Args) != 1 {
		b.errorf(e.Pos(), "conversion to %s takes exactly one value", t.GoName())
		return nil
	}
	x := b.expr(e.Args[0])
	if x == nil {
		return nil
	}
	if x.Type().IsComposite() || t.IsComposite() {
		return b.compositeConversion(e.Pos(), x, t)
	}
	if !b.checkConvert(e.Pos(), x, t) {
		return nil
	}
	return &model.Convert{Pos: e.Pos(), X: x, T: t}
}
