package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
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
		switch obj.Name() {
		case "min", "max":
			return b.intrinsic(e, obj)
		case "complex", "real", "imag":
			return b.complexBuiltin(e, obj.Name())
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
	case sig != nil && sig.Recv() != nil && isViewMethod(fn):
		return b.viewCall(e, fn)
	case fn.Pkg() != nil && fn.Pkg().Path() == model.HalfPkg:
		return b.halfCall(e, fn)
	case sig != nil && sig.Recv() != nil:
		b.errorf(e.Pos(), "calls to method %s are not allowed: operators may call only other //gocccl:op functions", fn.Name())
		return nil
	case fn.Origin() != fn || (sig != nil && sig.TypeParams().Len() > 0):
		b.errorf(e.Pos(), "calls to generic function %s are not allowed: operators cannot be generic; write one //gocccl:op function per type and call it", fn.Name())
		return nil
	case fn.Pkg() != b.pkg:
		if fn.Pkg() != nil && (fn.Pkg().Path() == "math" || fn.Pkg().Path() == "math/bits" || fn.Pkg().Path() == "math/cmplx") {
			return b.intrinsic(e, fn)
		}
		if fn.Pkg() == nil || isStandard(fn.Pkg().Path()) {
			b.errorf(e.Pos(), "calls to %s are not allowed: operators may call only //gocccl:op functions, min, max, complex, real, imag, and the supported functions of math, math/bits and math/cmplx", qualifiedName(fn))
			return nil
		}
		op := b.importOp(e.Pos(), fn.Pkg().Path(), fn.Pkg().Name(), fn.Name())
		if op == nil {
			return nil
		}
		return b.opCall(e, op, true)
	}
	callee := b.ops[fn]
	if callee == nil {
		b.errorf(e.Pos(), "%s is not a //gocccl:op function: mark it with //gocccl:op to call it from an operator", fn.Name())
		return nil
	}
	b.od.calls = append(b.od.calls, opCall{callee: callee, pos: e.Pos()})
	return b.opCall(e, callee.op, callee.ok)
}

// isStandard reports whether path is a standard library package: its first
// element has no dot.
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// opCall translates the arguments of a call of op; ok is false when op's
// signature was reported already. The arguments are one value per
// parameter, or a single call whose results are the parameters.
func (b *builder) opCall(e *ast.CallExpr, op *model.Op, ok bool) model.Expr {
	call := &model.Call{Pos: e.Pos(), Op: op}
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		ok = false
	}
	if len(e.Args) == 1 && len(op.Params) > 1 {
		x := b.expr(e.Args[0])
		params, _ := op.Signature()
		if x == nil || !ok || !b.sameType(x, model.TupleOf(params)) {
			return nil
		}
		call.Args = []model.Expr{x}
		return call
	}
	for i, arg := range e.Args {
		var x model.Expr
		if i < len(op.Params) {
			x = b.exprOf(arg, op.Params[i].Type)
		} else {
			x = b.expr(arg)
		}
		if ok && x != nil && i < len(op.Params) {
			ok = b.sameType(x, op.Params[i].Type)
		}
		ok = ok && x != nil
		call.Args = append(call.Args, x)
	}
	if ok && len(e.Args) != len(op.Params) {
		b.errorf(e.Pos(), "%s takes %d arguments, not %d", op.Name, len(op.Params), len(e.Args))
		ok = false
	}
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
	if x.Type().HasView() || t.HasView() {
		b.errorf(e.Pos(), "conversions of views are not allowed in operators: a runtime.View is read as it is, with At and Len")
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

// isViewMethod reports whether fn is a method of runtime.View.
func isViewMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
		return false
	}
	n, _ := types.Unalias(recv.Type()).(*types.Named)
	return n != nil && n.Obj().Name() == "View"
}

// viewCall translates v.At(i) and v.Len() of a runtime.View v, which the
// emitter maps onto gocccl::go::view_at and view_len: At panics (traps)
// when i is out of range, as Go's At does.
func (b *builder) viewCall(e *ast.CallExpr, fn *types.Func) model.Expr {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok {
		b.errorf(e.Pos(), "call View.%s as a method of a view: v.%s(…)", fn.Name(), fn.Name())
		return nil
	}
	v := b.expr(sel.X)
	if v == nil {
		return nil
	}
	vt := v.Type()
	if vt == nil || vt.Kind != model.View {
		b.errorf(sel.X.Pos(), "%s is not a runtime.View", types.ExprString(sel.X))
		return nil
	}
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		return nil
	}
	intT := model.Basic(model.Int)
	switch fn.Name() {
	case "At":
		if len(e.Args) != 1 {
			b.errorf(e.Pos(), "View.At takes 1 argument, not %d", len(e.Args))
			return nil
		}
		args, ok := b.intrinsicArgs(e.Args, []*model.Type{intT})
		if !ok {
			return nil
		}
		return &model.Intrinsic{Pos: e.Pos(), Func: "View.At", Args: []model.Expr{v, args[0]}, T: vt.Elem}
	case "Len":
		if len(e.Args) != 0 {
			b.errorf(e.Pos(), "View.Len takes no arguments")
			return nil
		}
		return &model.Intrinsic{Pos: e.Pos(), Func: "View.Len", Args: []model.Expr{v}, T: intT}
	}
	b.errorf(e.Pos(), "method View.%s is not allowed in operators: read a view with At and Len", fn.Name())
	return nil
}
