package analyzer

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/model"
)

// runtimePath is the import path of the package whose constructors declare
// algorithm instances.
const runtimePath = "github.com/gocccl/gocccl/runtime"

// constructors maps the runtime constructors to the algorithms they declare.
var constructors = map[string]model.Algorithm{
	"Reduce":          model.Reduce,
	"UnaryTransform":  model.UnaryTransform,
	"BinaryTransform": model.BinaryTransform,
}

// constructor returns the algorithm obj declares when it is one of the
// runtime constructors, else InvalidAlgorithm. It compares the package path
// and name of the function object, so renamed and dot imports work.
func constructor(obj types.Object) model.Algorithm {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
		return model.InvalidAlgorithm
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return model.InvalidAlgorithm
	}
	return constructors[fn.Name()]
}

// findInstances finds every call of a runtime constructor outside operator
// bodies and returns the distinct instances, sorted by key, each at its
// first call. A constructor used other than by calling it is reported:
// gocccl-gen could not tell which operator it gets.
func (a *analysis) findInstances() []*model.Instance {
	byKey := make(map[string]*model.Instance)
	for _, f := range a.files {
		called := make(map[ast.Node]bool) // constructors in call position
		a.inspectOutsideOps(f, func(n ast.Node) {
			if call, ok := n.(*ast.CallExpr); ok {
				if alg := constructor(calleeObject(a.info, call.Fun)); alg != model.InvalidAlgorithm {
					called[calleeName(call.Fun)] = true
					a.addInstance(byKey, call, alg)
				}
			}
		})
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
			if alg := constructor(a.info.Uses[id]); alg != model.InvalidAlgorithm && !called[n] {
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
// argument is not an operator gocccl-gen can generate for.
func (a *analysis) addInstance(byKey map[string]*model.Instance, call *ast.CallExpr, alg model.Algorithm) {
	if len(call.Args) != 1 {
		a.errorf(call.Pos(), "runtime.%s takes exactly one //gocccl:op function", alg)
		return
	}
	op := a.instanceOp(call.Args[0], alg)
	if op == nil {
		return // reported here or at the operator
	}
	in := &model.Instance{Algorithm: alg, Ops: []*model.Op{op}, Pos: call.Pos(), Pkg: a.pkg.Path()}
	if !isASCII(in.Symbol()) {
		name := op.Name
		if op.Pkg != a.pkg.Path() {
			name = op.PkgName + "." + op.Name
		}
		a.errorf(call.Args[0].Pos(), "operator %s has a non-ASCII name: its kernels are C symbols named after it; give it an ASCII name to use it with runtime.%s", name, alg)
		return
	}
	elems, ok := instanceTypes(op, alg)
	if !ok {
		a.errorf(call.Args[0].Pos(), "operator %s does not have the signature runtime.%s needs", op.Name, alg)
		return
	}
	in.Types = elems
	key := in.Key()
	if old := byKey[key]; old == nil || comparePositions(a.position(in.Pos), a.position(old.Pos)) < 0 {
		byKey[key] = in
	}
}

// instanceOp resolves the argument of a constructor call to a //gocccl:op
// function of this package or another, or reports what it is instead (nil).
// An operator whose signature was reported is nil too.
func (a *analysis) instanceOp(arg ast.Expr, alg model.Algorithm) *model.Op {
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
				a.errorf(arg.Pos(), "%s is not a //gocccl:op function: operators must be named //gocccl:op functions", qualifiedName(obj))
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

// instanceTypes returns the element types of alg over op: Reduce [T];
// UnaryTransform [In, Out]; BinaryTransform [A, B, Out].
func instanceTypes(op *model.Op, alg model.Algorithm) ([]*model.Type, bool) {
	params, results := op.Signature()
	if len(results) != 1 {
		return nil, false
	}
	switch alg {
	case model.Reduce:
		if len(params) == 2 && params[0].Identical(results[0]) && params[1].Identical(results[0]) {
			return []*model.Type{results[0]}, true
		}
	case model.UnaryTransform:
		if len(params) == 1 {
			return []*model.Type{params[0], results[0]}, true
		}
	case model.BinaryTransform:
		if len(params) == 2 {
			return []*model.Type{params[0], params[1], results[0]}, true
		}
	}
	return nil, false
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
