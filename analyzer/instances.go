package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/model"
)

// runtimePath is the import path of the package whose constructors declare
// algorithm instances.
const runtimePath = "github.com/gocccl/gocccl/runtime"

// constructor returns the algorithm obj declares when it is the runtime
// constructor of a described algorithm (package algo), else nil. It
// compares the package path and name of the function object, so renamed and
// dot imports work.
func constructor(obj types.Object) *algo.Algorithm {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
		return nil
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil
	}
	return algo.Lookup(fn.Name())
}

// findInstances finds every call of a runtime constructor outside operator
// bodies and returns the distinct instances, sorted by key, each at its
// first call. A constructor used other than by calling it is reported:
// gocccl-gen could not tell which operator it gets.
func (a *analysis) findInstances() []*model.Instance {
	byKey := make(map[string]*model.Instance)
	for _, f := range a.files {
		called := make(map[ast.Node]bool) // constructors in call position
		byRecv := a.declMethods(f)
		used := make(map[*ast.CallExpr]bool)
		a.inspectOutsideOps(f, func(n ast.Node) {
			if call, ok := n.(*ast.CallExpr); ok {
				if alg := constructor(calleeObject(a.info, call.Fun)); alg != nil {
					called[calleeName(call.Fun)] = true
					a.addInstance(byKey, call, alg, byRecv, used)
				}
			}
		})
		a.checkDeclMethods(byRecv, used)
		a.inspectOutsideOps(f, func(n ast.Node) {
			var id *ast.Ident
			switch n := n.(type) {
			case *ast.SelectorExpr:
				id = n.Sel
				called[id] = true // checked here, as the selector
			case *ast.Ident:
				id = n
			default:
				return
			}
			if alg := constructor(a.info.Uses[id]); alg != nil && !called[n] {
				a.errorf(n.Pos(), "runtime.%s must be called with a //gocccl:op function: gocccl-gen cannot follow it as a value", alg)
			}
		})
	}
	insts := make([]*model.Instance, 0, len(byKey))
	for _, in := range byKey {
		insts = append(insts, in)
	}
	slices.SortFunc(insts, func(x, y *model.Instance) int { return strings.Compare(x.Key(), y.Key()) })
	return insts
}

// inspectOutsideOps calls visit for every node of f outside the bodies of
// operators, which report what they call themselves.
func (a *analysis) inspectOutsideOps(f *ast.File, visit func(ast.Node)) {
	ast.Inspect(f, func(n ast.Node) bool {
		if fd, ok := n.(*ast.FuncDecl); ok && fd.Name != nil {
			if fn, _ := a.info.Defs[fd.Name].(*types.Func); fn != nil && a.ops[fn] != nil {
				return false
			}
		}
		if n != nil {
			visit(n)
		}
		return true
	})
}

// calleeName returns the identifier or selector a call's function expression
// names, under parentheses and explicit instantiation.
func calleeName(fun ast.Expr) ast.Node {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return ast.Unparen(f.X)
	case *ast.IndexListExpr:
		return ast.Unparen(f.X)
	}
	return fun
}

// addInstance records the instance that call declares, or reports why its
// arguments are not operators gocccl-gen can generate for.
func (a *analysis) addInstance(byKey map[string]*model.Instance, call *ast.CallExpr, alg *algo.Algorithm, byRecv map[ast.Expr][]declMethod, used map[*ast.CallExpr]bool) {
	if len(call.Args) != len(alg.Ops) {
		a.errorf(call.Pos(), "%s", arityMessage(alg))
		return
	}
	in := &model.Instance{Algorithm: alg, Pos: call.Pos(), Pkg: a.pkg.Path()}
	ok := true
	for _, arg := range call.Args {
		op := a.instanceOp(arg, alg)
		if op == nil {
			ok = false // reported here or at the operator
			continue
		}
		in.Ops = append(in.Ops, op)
		if !isASCII(in.OpRef(op, ".")) {
			a.errorf(arg.Pos(), "operator %s has a non-ASCII name: its kernels are C symbols named after it; give it an ASCII name to use it with runtime.%s", in.OpRef(op, "."), alg)
			ok = false
		}
	}
	types, problem := a.typeArgs(call, alg)
	if problem != "" {
		a.errorf(call.Pos(), "runtime.%s: %s", alg, problem)
		return
	}
	if !a.instanceIters(in, call, byRecv, used) {
		ok = false
	}
	if !ok {
		return
	}
	in.Types = types
	for i, op := range in.Ops {
		if !matchesSignature(op, alg.Ops[i], alg, types) {
			a.errorf(call.Args[i].Pos(), "operator %s does not have the signature runtime.%s needs for its %s: %s", op.Name, alg, alg.Ops[i].Role, alg.Ops[i].Signature())
			return
		}
	}
	if alg.Typed() && !isASCII(in.Key()) {
		a.errorf(call.Pos(), "runtime.%s over %s: its kernels are C symbols named after the element types; give them ASCII names", alg, in.Key())
		return
	}
	key := in.Key()
	if old := byKey[key]; old == nil || comparePositions(a.position(in.Pos), a.position(old.Pos)) < 0 {
		byKey[key] = in
	}
}

// arityMessage says what the constructor of alg takes.
func arityMessage(alg *algo.Algorithm) string {
	if len(alg.Ops) == 0 {
		return fmt.Sprintf("runtime.%s takes no arguments: name its element types, as in runtime.%s[%s]()", alg, alg, strings.Join(alg.TypeParams, ", "))
	}
	var want []string
	for _, op := range alg.Ops {
		want = append(want, "a "+op.Role+" "+op.Signature())
	}
	return fmt.Sprintf("runtime.%s takes %d //gocccl:op functions: %s", alg, len(alg.Ops), strings.Join(want, ", "))
}

// typeArgs returns the element types of the instance call declares: the
// type arguments of the generic constructor, explicit or inferred.
func (a *analysis) typeArgs(call *ast.CallExpr, alg *algo.Algorithm) ([]*model.Type, string) {
	var id *ast.Ident
	switch f := calleeName(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	inst, found := a.info.Instances[id]
	if id == nil || !found || inst.TypeArgs == nil || inst.TypeArgs.Len() != len(alg.TypeParams) {
		return nil, fmt.Sprintf("cannot tell its element types %s", strings.Join(alg.TypeParams, ", "))
	}
	ts := make([]*model.Type, inst.TypeArgs.Len())
	for i := range ts {
		t, problem := modelType(inst.TypeArgs.At(i))
		if t == nil {
			return nil, fmt.Sprintf("element type %s = %s: %s", alg.TypeParams[i], types.TypeString(inst.TypeArgs.At(i), types.RelativeTo(a.pkg)), problem)
		}
		ts[i] = t
	}
	return ts, ""
}

// matchesSignature reports whether op has the signature want of alg when
// its type parameters are types.
func matchesSignature(op *model.Op, want algo.Operator, alg *algo.Algorithm, types []*model.Type) bool {
	params, results := op.Signature()
	if len(params) != len(want.Params) || len(results) != len(want.Results) {
		return false
	}
	resolve := func(name string) *model.Type {
		if i := alg.TypeIndex(name); i >= 0 {
			return types[i]
		}
		return predeclared[name]
	}
	for i, p := range params {
		if t := resolve(want.Params[i]); t == nil || p == nil || !t.Identical(p) {
			return false
		}
	}
	for i, r := range results {
		if t := resolve(want.Results[i]); t == nil || r == nil || !t.Identical(r) {
			return false
		}
	}
	return true
}

// predeclared are the Go types an algorithm's operator signatures may name
// besides its type parameters.
var predeclared = map[string]*model.Type{
	"bool":   model.Basic(model.Bool),
	"int":    model.Basic(model.Int),
	"int32":  model.Basic(model.Int32),
	"int64":  model.Basic(model.Int64),
	"uint32": model.Basic(model.Uint32),
	"uint64": model.Basic(model.Uint64),
}

// instanceOp resolves the argument of a constructor call to a //gocccl:op
// function of this package or another, or reports what it is instead (nil).
// An operator whose signature was reported is nil too.
func (a *analysis) instanceOp(arg ast.Expr, alg *algo.Algorithm) *model.Op {
	arg = ast.Unparen(arg)
	var obj types.Object
	switch e := arg.(type) {
	case *ast.Ident:
		obj = a.info.Uses[e]
	case *ast.SelectorExpr:
		obj = a.info.Uses[e.Sel]
	case *ast.FuncLit:
		a.errorf(arg.Pos(), "closures cannot be operators: operators must be named //gocccl:op functions; declare one and pass it to runtime.%s", alg)
		return nil
	case *ast.IndexExpr, *ast.IndexListExpr:
		a.errorf(arg.Pos(), "generic functions cannot be operators: operators must be named //gocccl:op functions, one per type")
		return nil
	default:
		a.errorf(arg.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", alg)
		return nil
	}
	switch obj := obj.(type) {
	case *types.Func:
		if sig, _ := obj.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
			a.errorf(arg.Pos(), "method values cannot be operators: operators must be named //gocccl:op functions")
			return nil
		}
		if obj.Pkg() != a.pkg {
			if obj.Pkg() == nil || isStandard(obj.Pkg().Path()) {
				a.errorf(arg.Pos(), "%s is not a //gocccl:op function: wrap it in one of your own, e.g. %s", qualifiedName(obj), wrapperHint(obj, a.pkg))
				return nil
			}
			return a.importOp(arg.Pos(), obj.Pkg().Path(), obj.Pkg().Name(), obj.Name())
		}
		od := a.ops[obj]
		if od == nil {
			a.errorf(arg.Pos(), "%s is not a //gocccl:op function: mark it with //gocccl:op to use it with runtime.%s", obj.Name(), alg)
			return nil
		}
		if !od.ok {
			return nil
		}
		return od.op
	case *types.Var:
		a.errorf(arg.Pos(), "%s is a variable: operators must be named //gocccl:op functions, not function values", obj.Name())
	default:
		a.errorf(arg.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", alg)
	}
	return nil
}

// wrapperHint writes the operator that wraps a standard library function
// fn: "//gocccl:op func Max(x, y float64) float64 { return math.Max(x, y) }".
func wrapperHint(fn *types.Func, pkg *types.Package) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() != 1 {
		return "//gocccl:op func F(…) … { return " + qualifiedName(fn) + "(…) }"
	}
	qual := types.RelativeTo(pkg)
	var params, args []string
	for i := range sig.Params().Len() {
		name := sig.Params().At(i).Name()
		if name == "" || name == "_" {
			name = fmt.Sprintf("a%d", i)
		}
		params = append(params, name+" "+types.TypeString(sig.Params().At(i).Type(), qual))
		args = append(args, name)
	}
	name := strings.ToUpper(fn.Name()[:1]) + fn.Name()[1:]
	return fmt.Sprintf("//gocccl:op func %s(%s) %s { return %s(%s) }", name, strings.Join(params, ", "),
		types.TypeString(sig.Results().At(0).Type(), qual), qualifiedName(fn), strings.Join(args, ", "))
}

// isASCII reports whether s has only ASCII characters.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
