package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
)

// runtimePath is the import path of the package whose constructors declare
// algorithm instances.
const runtimePath = "github.com/gocccl/gocccl/runtime"

// constructor returns the algorithm obj declares when it is the runtime
// constructor of a described algorithm (package algo), else nil, and
// whether it is the algorithm's stateful constructor (runtime.ReduceWith).
// It compares the package path and name of the function object, so renamed
// and dot imports work.
func constructor(obj types.Object) (*algo.Algorithm, bool) {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
		return nil, false
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil, false
	}
	return algo.LookupConstructor(fn.Name())
}

// constructorName is the name of alg's constructor: runtime.Reduce, or
// runtime.ReduceWith for the stateful one.
func constructorName(alg *algo.Algorithm, stateful bool) string {
	if stateful {
		return alg.Name + algo.StatefulSuffix
	}
	return alg.Name
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
				if alg, stateful := constructor(calleeObject(a.info, call.Fun)); alg != nil {
					called[calleeName(call.Fun)] = true
					a.addInstance(byKey, call, alg, stateful, byRecv, used)
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
			if alg, stateful := constructor(a.info.Uses[id]); alg != nil && !called[n] {
				a.errorf(n.Pos(), "runtime.%s must be called with a //gocccl:op function: gocccl-gen cannot follow it as a value", constructorName(alg, stateful))
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
func (a *analysis) addInstance(byKey map[string]*model.Instance, call *ast.CallExpr, alg *algo.Algorithm, stateful bool, byRecv map[ast.Expr][]declMethod, used map[*ast.CallExpr]bool) {
	if len(call.Args) != len(alg.Ops) {
		a.errorf(call.Pos(), "%s", arityMessage(alg))
		return
	}
	in := &model.Instance{Algorithm: alg, Pos: call.Pos(), Pkg: a.pkg.Path()}
	ok := true
	for _, arg := range call.Args {
		op := a.instanceOp(arg, alg, stateful)
		if op == nil {
			ok = false // reported here or at the operator
			continue
		}
		in.Ops = append(in.Ops, op)
		if !isASCII(in.OpRef(op, ".")) {
			a.errorf(arg.Pos(), "operator %s has a non-ASCII name: its kernels are C symbols named after it; give it an ASCII name to use it with runtime.%s", in.OpRef(op, "."), constructorName(alg, stateful))
			ok = false
		}
	}
	if ok && stateful {
		ok = a.instanceState(call, in)
	}
	types, problem := a.typeArgs(call, alg, stateful)
	if problem != "" {
		a.errorf(call.Pos(), "runtime.%s: %s", constructorName(alg, stateful), problem)
		return
	}
	if !a.instanceIters(in, call, stateful, byRecv, used) {
		ok = false
	}
	if !ok {
		return
	}
	in.Types = types
	for i, op := range in.Ops {
		if !matchesSignature(op, alg.Ops[i], alg, types) {
			if msg := stateAsParam(op, alg, stateful, in.State); msg != "" {
				a.errorf(call.Args[i].Pos(), "%s", msg)
				return
			}
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
// The type arguments of a stateful constructor are the state's type, then
// the algorithm's.
func (a *analysis) typeArgs(call *ast.CallExpr, alg *algo.Algorithm, stateful bool) ([]*model.Type, string) {
	var id *ast.Ident
	switch f := calleeName(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	skip := 0
	if stateful {
		skip = 1
	}
	inst, found := a.info.Instances[id]
	if id == nil || !found || inst.TypeArgs == nil || inst.TypeArgs.Len() != skip+len(alg.TypeParams) {
		return nil, fmt.Sprintf("cannot tell its element types %s", strings.Join(alg.TypeParams, ", "))
	}
	ts := make([]*model.Type, len(alg.TypeParams))
	for i := range ts {
		arg := inst.TypeArgs.At(skip + i)
		t, problem := modelType(arg)
		if t == nil {
			return nil, fmt.Sprintf("element type %s = %s: %s", alg.TypeParams[i], types.TypeString(arg, types.RelativeTo(a.pkg)), problem)
		}
		if t.HasView() {
			return nil, fmt.Sprintf("element type %s = %s holds a runtime.View: buffer elements are plain values; a view belongs in the operator's state (runtime.%s%s(S.Op), state given to Bind)",
				alg.TypeParams[i], types.TypeString(arg, types.RelativeTo(a.pkg)), alg.Name, algo.StatefulSuffix)
		}
		if t.HasHalf() && orderedElement(alg, i) {
			return nil, fmt.Sprintf("element type %s = %s: half.Float16 and half.BFloat16 are not radix-sort keys or histogram samples on the GPU "+
				"(Go's type checker accepts them as uint16, whose order is not theirs): sort or bin their Float32() values, or sort with a comparison operator (MergeSortKeys)",
				alg.TypeParams[i], types.TypeString(arg, types.RelativeTo(a.pkg)))
		}
		ts[i] = t
	}
	return ts, ""
}

// orderedElement reports whether type parameter i of alg is a radix-sort key
// or a histogram sample: an element whose order the algorithm's kernels take
// from its type.
func orderedElement(alg *algo.Algorithm, i int) bool {
	switch alg.Name {
	case "RadixSortKeys", "RadixSortPairs", "SegmentedSortKeys", "SegmentedSortPairs":
		return alg.TypeParams[i] == "K"
	case "HistogramEven", "HistogramRange":
		return true
	}
	return false
}

// instanceState sets the state of an instance declared with a stateful
// constructor: the receiver type its method operators share. It reports
// (and returns false) when no operator is a method or two disagree.
func (a *analysis) instanceState(call *ast.CallExpr, in *model.Instance) bool {
	for i, op := range in.Ops {
		if op.State == nil {
			continue
		}
		if in.State != nil && !in.State.Identical(op.State) {
			a.errorf(call.Args[i].Pos(), "the operators of runtime.%s%s are methods of %s and %s: the methods of one instance share one state type",
				in.Algorithm, algo.StatefulSuffix, in.State.GoName(), op.State.GoName())
			return false
		}
		in.State = op.State
	}
	if in.State == nil {
		a.errorf(call.Pos(), "runtime.%s%s takes a method of the state type, as in runtime.%s%s(S.Op) with //gocccl:op func (s S) Op(…); for an operator without state use runtime.%s",
			in.Algorithm, algo.StatefulSuffix, in.Algorithm, algo.StatefulSuffix, in.Algorithm)
		return false
	}
	return true
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
// function of this package or another, or to a //gocccl:op method of this
// package for a stateful constructor (stateful), or reports what it is
// instead (nil). An operator whose signature was reported is nil too.
func (a *analysis) instanceOp(arg ast.Expr, alg *algo.Algorithm, stateful bool) *model.Op {
	arg = ast.Unparen(arg)
	ctor := constructorName(alg, stateful)
	var obj types.Object
	switch e := arg.(type) {
	case *ast.Ident:
		obj = a.info.Uses[e]
	case *ast.SelectorExpr:
		obj = a.info.Uses[e.Sel]
		if sel := a.info.Selections[e]; sel != nil {
			return a.methodOp(e, sel, alg, stateful)
		}
	case *ast.FuncLit:
		if captured := a.capturedVars(e); len(captured) > 0 {
			a.errorf(arg.Pos(), "%s", captureMessage(captured, alg, a.funcLitSignature(e)))
			return nil
		}
		a.errorf(arg.Pos(), "closures cannot be operators: operators must be named //gocccl:op functions; declare one and pass it to runtime.%s", ctor)
		return nil
	case *ast.IndexExpr, *ast.IndexListExpr:
		a.errorf(arg.Pos(), "generic functions cannot be operators: operators must be named //gocccl:op functions, one per type")
		return nil
	default:
		a.errorf(arg.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", ctor)
		return nil
	}
	switch obj := obj.(type) {
	case *types.Func:
		if obj.Pkg() != a.pkg {
			if obj.Pkg() == nil || isStandard(obj.Pkg().Path()) {
				a.errorf(arg.Pos(), "%s is not a //gocccl:op function: wrap it in one of your own, e.g. %s", qualifiedName(obj), wrapperHint(obj, a.pkg))
				return nil
			}
			return a.importOp(arg.Pos(), obj.Pkg().Path(), obj.Pkg().Name(), obj.Name())
		}
		od := a.ops[obj]
		if od == nil {
			a.errorf(arg.Pos(), "%s is not a //gocccl:op function: mark it with //gocccl:op to use it with runtime.%s", obj.Name(), ctor)
			return nil
		}
		if !od.ok {
			return nil
		}
		return od.op
	case *types.Var:
		a.errorf(arg.Pos(), "%s is a variable: operators must be named //gocccl:op functions, not function values; an operator with per-call state is a method of the state, given to runtime.%s%s(S.Op), with the state given to Bind", obj.Name(), alg, algo.StatefulSuffix)
	default:
		a.errorf(arg.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", ctor)
	}
	return nil
}

// methodOp resolves a method expression or method value given to a
// constructor: a method expression S.Op of a //gocccl:op method is the
// operator of a stateful constructor; everything else is reported.
func (a *analysis) methodOp(e *ast.SelectorExpr, sel *types.Selection, alg *algo.Algorithm, stateful bool) *model.Op {
	fn, _ := sel.Obj().(*types.Func)
	recv := types.TypeString(sel.Recv(), types.RelativeTo(a.pkg))
	with := alg.Name + algo.StatefulSuffix
	switch {
	case fn == nil:
		a.errorf(e.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", constructorName(alg, stateful))
		return nil
	case sel.Kind() == types.MethodVal:
		a.errorf(e.Pos(), "method value %s binds its receiver once, where the instance is declared: declare runtime.%s(%s.%s) and give the receiver to each call, as in .Bind(state).Run(…)",
			types.ExprString(e), with, strings.TrimPrefix(recv, "*"), fn.Name())
		return nil
	case sel.Kind() != types.MethodExpr:
		a.errorf(e.Pos(), "the argument of runtime.%s must name a //gocccl:op function: operators must be named //gocccl:op functions", constructorName(alg, stateful))
		return nil
	case !stateful:
		a.errorf(e.Pos(), "method %s.%s is an operator with per-call state: declare runtime.%s(%s.%s) and give the state to Bind", recv, fn.Name(), with, recv, fn.Name())
		return nil
	case fn.Pkg() != a.pkg:
		a.errorf(e.Pos(), "method %s.%s is declared in package %s: an operator with state must be a method of the package that declares the instance", recv, fn.Name(), fn.Pkg().Name())
		return nil
	}
	od := a.ops[fn]
	if od == nil {
		a.errorf(e.Pos(), "%s.%s is not a //gocccl:op method: mark it with //gocccl:op to use it with runtime.%s", recv, fn.Name(), with)
		return nil
	}
	if !od.ok {
		return nil
	}
	return od.op
}

// capturedVars returns the names of the variables a function literal uses
// that are declared outside it (locals of the enclosing function or
// package-level variables), in order of first use.
func (a *analysis) capturedVars(lit *ast.FuncLit) []string {
	var names []string
	seen := map[types.Object]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := a.info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v] || (v.Pos() >= lit.Pos() && v.Pos() < lit.End()) {
			return true
		}
		seen[v] = true
		names = append(names, v.Name())
		return true
	})
	return names
}

// funcLitSignature prints a function literal's parameters and results for a
// message: "(a, b float32) float32".
func (a *analysis) funcLitSignature(lit *ast.FuncLit) string {
	tv, ok := a.info.Types[lit]
	sig, _ := tv.Type.(*types.Signature)
	if !ok || sig == nil {
		return "(…) …"
	}
	s := types.TypeString(sig, types.RelativeTo(a.pkg))
	return strings.TrimPrefix(s, "func")
}

// captureMessage says how to write an operator that a closure capturing
// the variables names would be: a method of a state struct that holds them.
func captureMessage(names []string, alg *algo.Algorithm, sig string) string {
	fields := make([]string, len(names))
	for i, n := range names {
		fields[i] = n + ": " + n
	}
	return fmt.Sprintf("operators cannot capture variables: put %s in a state struct and write a method: //gocccl:op func (s S) Op%s, reading s.%s; declare runtime.%s%s(S.Op) and run it with .Bind(S{%s}).Run(…)",
		strings.Join(names, ", "), sig, names[0], alg, algo.StatefulSuffix, strings.Join(fields, ", "))
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

// stateAsParam explains an operator of a stateful constructor that takes the
// instance's state as its first parameter instead of as its receiver (Go's
// types accept a plain func(S, …) where the constructor asks for S.Op): the
// method to write instead. It returns "" for any other mismatch.
func stateAsParam(op *model.Op, alg *algo.Algorithm, stateful bool, state *model.Type) string {
	if !stateful || op.State != nil || state == nil || len(op.Params) == 0 || !op.Params[0].Type.Identical(state) {
		return ""
	}
	recv := op.Params[0].Name
	if strings.HasPrefix(recv, "_") {
		recv = "s"
	}
	params := make([]string, 0, len(op.Params)-1)
	for _, p := range op.Params[1:] {
		params = append(params, p.Name+" "+p.Type.GoName())
	}
	results := make([]string, len(op.Results))
	for i, r := range op.Results {
		results[i] = r.GoName()
	}
	res := strings.Join(results, ", ")
	if len(results) > 1 {
		res = "(" + res + ")"
	}
	return fmt.Sprintf("operator %s of runtime.%s%s is not a method of the state %s: it takes the state as its first parameter; write //gocccl:op func (%s %s) %s(%s) %s and pass %s.%s",
		op.Name, alg.Name, algo.StatefulSuffix, state.GoName(), recv, state.GoName(), op.Name, strings.Join(params, ", "), res, state.GoName(), op.Name)
}
