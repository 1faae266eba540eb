package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/iter"
)

// iteratorPath is the import path of the package whose constructors declare
// iterator compositions.
const iteratorPath = "github.com/gocccl/gocccl/iterator"

// declMethod is an Over or Into call on an instance: runtime.Reduce(Add).Over(…).
type declMethod struct {
	call *ast.CallExpr
	name string // "Over" or "Into"
	recv ast.Expr
}

// declMethods finds the Over and Into calls of runtime handles in f,
// keyed by the call they are made on.
func (a *analysis) declMethods(f *ast.File) map[ast.Expr][]declMethod {
	byRecv := make(map[ast.Expr][]declMethod)
	a.inspectOutsideOps(f, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Over" && sel.Sel.Name != "Into") {
			return
		}
		fn, _ := a.info.Uses[sel.Sel].(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
			return
		}
		recv := ast.Unparen(sel.X)
		byRecv[recv] = append(byRecv[recv], declMethod{call: call, name: sel.Sel.Name, recv: recv})
	})
	return byRecv
}

// checkDeclMethods reports Over and Into calls that are not made on a
// constructor call (or a chain of Over and Into on one): gocccl-gen could
// not tell which instance they declare.
func (a *analysis) checkDeclMethods(byRecv map[ast.Expr][]declMethod, used map[*ast.CallExpr]bool) {
	for _, ms := range byRecv {
		for _, m := range ms {
			if !used[m.call] {
				a.errorf(m.call.Pos(), "%s must be called on the runtime constructor's result where the instance is declared, as in runtime.Reduce(Add).%s(…): gocccl-gen cannot follow a handle held in a variable", m.name, m.name)
			}
		}
	}
}

// instanceIters reads the compositions declared by the Over and Into calls
// chained on the constructor call, into in.Inputs and in.Outputs. It
// reports what makes no sense and returns false then.
func (a *analysis) instanceIters(in *model.Instance, call *ast.CallExpr, stateful bool, byRecv map[ast.Expr][]declMethod, used map[*ast.CallExpr]bool) bool {
	ok := true
	alg := in.Algorithm
	var recv ast.Expr = call
	for {
		ms := byRecv[recv]
		if len(ms) == 0 {
			break
		}
		m := ms[0]
		used[m.call] = true
		if stateful && !a.statefulDeclArgs(call, m, alg) {
			return false
		}
		// Into takes no composition for counts (IntoOutputs); each
		// argument keeps its place among all the outputs.
		names, all, output := alg.Inputs(), alg.Inputs(), false
		if m.name == "Into" {
			names, all, output = alg.IntoOutputs(), alg.Outputs(), true
		}
		if len(m.call.Args) != len(names) {
			a.errorf(m.call.Pos(), "runtime.%s reads %d inputs and writes %d outputs through iterators; %s takes one per %s", alg, len(alg.Inputs()), len(alg.IntoOutputs()), m.name, map[bool]string{false: "input", true: "output"}[output])
			return false
		}
		its := make([]*model.Iter, len(all))
		for i, arg := range m.call.Args {
			if a.info.Types[arg].IsNil() {
				continue // a plain buffer
			}
			it := a.iterExpr(arg, output, alg, map[types.Object]bool{})
			if it == nil {
				ok = false
				continue
			}
			if it.Kind != iter.Slice {
				its[slices.Index(all, names[i])] = it // a Slice alone is the plain buffer
			}
		}
		if output {
			if in.Outputs != nil {
				a.errorf(m.call.Pos(), "Into is called twice on one instance")
				ok = false
			}
			in.Outputs = its
		} else {
			if in.Inputs != nil {
				a.errorf(m.call.Pos(), "Over is called twice on one instance")
				ok = false
			}
			in.Inputs = its
		}
		recv = m.call
	}
	if ok && in.HasIters() {
		// Keep one length per list: a plain list when only the other has
		// compositions.
		if in.Inputs == nil {
			in.Inputs = make([]*model.Iter, len(alg.Inputs()))
		}
		if in.Outputs == nil {
			in.Outputs = make([]*model.Iter, len(alg.Outputs()))
		}
	} else if !in.HasIters() {
		in.Inputs, in.Outputs = nil, nil
	}
	return ok
}

// iterExpr reads a composition: a call of a package iterator constructor,
// or a package-level variable of this package initialized with one.
func (a *analysis) iterExpr(e ast.Expr, output bool, alg *algo.Algorithm, seen map[types.Object]bool) *model.Iter {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		v, _ := a.info.Uses[id].(*types.Var)
		if v == nil || v.Pkg() != a.pkg || v.Parent() != a.pkg.Scope() {
			a.errorf(e.Pos(), "gocccl-gen cannot follow %s to an iterator composition: declare the composition with package iterator's constructors, inline or in a package-level variable of this package", types.ExprString(e))
			return nil
		}
		if seen[v] {
			a.errorf(e.Pos(), "the composition of %s refers to itself", v.Name())
			return nil
		}
		init := a.packageVarInit(v)
		if init == nil {
			a.errorf(e.Pos(), "%s has no initializer gocccl-gen can read: declare it as var %s = iterator.…(…)", v.Name(), v.Name())
			return nil
		}
		seen[v] = true
		defer delete(seen, v)
		return a.iterExpr(init, output, alg, seen)
	case *ast.CallExpr:
		return a.iterCall(x, output, alg, seen)
	}
	a.errorf(e.Pos(), "gocccl-gen cannot read %s as an iterator composition: use package iterator's constructors, inline or through a package-level variable", types.ExprString(e))
	return nil
}

// packageVarInit returns the initializer of a package-level variable.
func (a *analysis) packageVarInit(v *types.Var) ast.Expr {
	for _, f := range a.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if a.info.Defs[name] == v && len(vs.Values) == len(vs.Names) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// iterValueType is the value type of a composition expression: the type
// argument of the iterator type it has (*iterator.In[T], *iterator.SliceLeaf[T], …).
func (a *analysis) iterValueType(e ast.Expr) (*model.Type, string) {
	t := a.info.TypeOf(e)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := t.(*types.Named)
	if named == nil {
		return nil, "not an iterator"
	}
	if named.Obj().Name() == "ShuffleLeaf" {
		return model.Basic(model.Int64), ""
	}
	if named.TypeArgs().Len() < 1 {
		return nil, "not an iterator"
	}
	mt, problem := modelType(named.TypeArgs().At(0))
	if mt != nil && mt.HasView() {
		return nil, "iterator values of type " + mt.GoName() + " hold a runtime.View: an iterator yields plain values; put the view in the operator's state and give the state to Bind"
	}
	return mt, problem
}

// iterCall reads one constructor call of package iterator.
func (a *analysis) iterCall(call *ast.CallExpr, output bool, alg *algo.Algorithm, seen map[types.Object]bool) *model.Iter {
	fn, _ := calleeObject(a.info, call.Fun).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != iteratorPath {
		a.errorf(call.Pos(), "gocccl-gen cannot read %s as an iterator composition: use package iterator's constructors", types.ExprString(call.Fun))
		return nil
	}
	kind := iter.KindNamed(fn.Name())
	if kind == 0 {
		a.errorf(call.Pos(), "iterator.%s does not declare an iterator composition", fn.Name())
		return nil
	}
	if call.Ellipsis.IsValid() {
		a.errorf(call.Pos(), "iterator.%s: list its operands one by one; gocccl-gen cannot read a slice of them", kind)
		return nil
	}
	t, problem := a.iterValueType(call)
	if t == nil {
		a.errorf(call.Pos(), "iterator.%s: value type: %s", kind, problem)
		return nil
	}
	it := &model.Iter{Kind: kind, Type: t, Pos: call.Pos()}
	if kind.Output() && !output {
		a.errorf(call.Pos(), "iterator.%s is an output iterator: it cannot be read", kind)
		return nil
	}
	if !kind.Output() && kind != iter.Slice && output {
		a.errorf(call.Pos(), "iterator.%s is an input iterator: it cannot be written; use an output iterator (Discard, TransformOutput, ReverseOutput, PermutationOutput, ZipOutput)", kind)
		return nil
	}
	operand := func(i int, output bool) *model.Iter {
		if i >= len(call.Args) {
			a.errorf(call.Pos(), "iterator.%s: missing operand", kind)
			return nil
		}
		return a.iterExpr(call.Args[i], output, alg, seen)
	}
	ok := true
	add := func(c *model.Iter) {
		if c == nil {
			ok = false
		}
		it.In = append(it.In, c)
	}
	switch kind {
	case iter.Slice, iter.Counting, iter.Constant, iter.Shuffle, iter.Discard:
	case iter.Transform, iter.TransformOutput:
		add(operand(0, kind == iter.TransformOutput))
		if len(call.Args) > 1 {
			it.Op = a.instanceOp(call.Args[1], alg, false)
		}
		if it.Op == nil {
			ok = false
		}
	case iter.Permutation:
		add(operand(0, false))
		add(operand(1, false))
	case iter.PermutationOutput:
		add(operand(0, true))
		add(operand(1, false))
	case iter.Reverse, iter.ReverseOutput:
		add(operand(0, kind == iter.ReverseOutput))
		if ok && !bounded(it.In[0]) {
			a.errorf(call.Pos(), "iterator.%s of %s: it has no length to reverse; reverse something that reads a Slice or a Shuffle", kind, it.In[0].Kind)
			return nil
		}
	case iter.CacheModified:
		add(operand(0, false))
		if ok && it.In[0].Kind != iter.Slice {
			a.errorf(call.Args[0].Pos(), "iterator.CacheModified loads from a device buffer: its operand must be an iterator.Slice, not a %s", it.In[0].Kind)
			return nil
		}
		if len(call.Args) > 1 {
			tv := a.info.Types[call.Args[1]]
			if tv.Value == nil || tv.Value.Kind() != constant.Int {
				a.errorf(call.Args[1].Pos(), "iterator.CacheModified: the cache mode must be a constant (iterator.Streaming, iterator.L2Only or iterator.Volatile)")
				return nil
			}
			m, _ := constant.Int64Val(tv.Value)
			if m < int64(iter.Streaming) || m > int64(iter.Volatile) {
				a.errorf(call.Args[1].Pos(), "iterator.CacheModified: unknown cache mode %d: use iterator.Streaming, iterator.L2Only or iterator.Volatile", m)
				return nil
			}
			it.Mode = iter.CacheMode(m)
		}
	case iter.Zip, iter.ZipOutput:
		for i := range call.Args {
			add(operand(i, kind == iter.ZipOutput))
		}
		if !ok {
			return nil
		}
		if problem := zipProblem(t, it.In); problem != "" {
			a.errorf(call.Pos(), "iterator.%s[%s]: %s", kind, t.GoName(), problem)
			return nil
		}
	}
	if !ok {
		return nil
	}
	return it
}

// bounded is iter.Node.Bounded for the model.
func bounded(it *model.Iter) bool {
	switch it.Kind {
	case iter.Slice, iter.Shuffle:
		return true
	case iter.Counting, iter.Constant, iter.Discard:
		return false
	case iter.Permutation, iter.PermutationOutput:
		return bounded(it.In[1])
	case iter.Zip, iter.ZipOutput:
		for _, c := range it.In {
			if bounded(c) {
				return true
			}
		}
		return false
	}
	return len(it.In) > 0 && bounded(it.In[0])
}

// zipProblem says why z does not hold one field per zipped operand.
func zipProblem(z *model.Type, ins []*model.Iter) string {
	if len(ins) < 2 {
		return "zip two or more iterators"
	}
	if z.Kind != model.Struct {
		return z.GoName() + " must be a struct with one field per iterator"
	}
	if len(z.Fields) != len(ins) {
		return z.GoName() + " has " + itoa(int64(len(z.Fields))) + " fields for " + itoa(int64(len(ins))) + " iterators: give it one field per iterator"
	}
	var bad []string
	for i, f := range z.Fields {
		if !f.Type.Identical(ins[i].Type) {
			bad = append(bad, "field "+f.Name+" is "+f.Type.GoName()+" but iterator "+itoa(int64(i+1))+" reads "+ins[i].Type.GoName())
		}
	}
	return strings.Join(bad, "; ")
}

// statefulDeclArgs checks an Over or Into call on a stateful constructor's
// result (runtime.ReduceWith(S.Op).Over(…)), whose arguments Go types only
// as compositions of any value type: each must be what the method of that
// name of the plain algorithm's handle takes, so that the element types
// match the operator's. It reports what does not and returns false then.
func (a *analysis) statefulDeclArgs(ctor *ast.CallExpr, m declMethod, alg *algo.Algorithm) bool {
	decl := types.ExprString(ctor) + "." + m.name
	if m.call.Ellipsis.IsValid() {
		a.errorf(m.call.Pos(), "%s: list the compositions one by one; gocccl-gen cannot read a slice of them", decl)
		return false
	}
	h := statefulHandle(a.info.TypeOf(ctor))
	if h == nil {
		a.errorf(m.call.Pos(), "%s: cannot tell the handle type of runtime.%s%s", decl, alg, algo.StatefulSuffix)
		return false
	}
	var fn *types.Func
	if sel := types.NewMethodSet(h).Lookup(nil, m.name); sel != nil {
		fn, _ = sel.Obj().(*types.Func)
	}
	if fn == nil {
		what := map[string]string{"Over": "reads no input", "Into": "writes no output"}[m.name]
		a.errorf(m.call.Pos(), "%s: runtime.%s %s through iterator compositions; run it over Slices", decl, alg, what)
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Variadic() {
		return true
	}
	if n := sig.Params().Len(); n != len(m.call.Args) {
		names := make([]string, n)
		for i := range names {
			names[i] = sig.Params().At(i).Name()
		}
		plural := "s"
		if n == 1 {
			plural = ""
		}
		a.errorf(m.call.Pos(), "%s takes %d composition%s (%s), as runtime.%s's %s does, not %d; nil is a plain buffer", decl, n, plural, strings.Join(names, ", "), alg, m.name, len(m.call.Args))
		return false
	}
	ok := true
	for i, arg := range m.call.Args {
		p := sig.Params().At(i)
		if t := a.info.TypeOf(arg); t == nil || types.AssignableTo(t, p.Type()) {
			continue
		}
		want := types.TypeString(p.Type(), types.RelativeTo(a.pkg))
		if named, _ := p.Type().(*types.Named); named != nil && named.TypeArgs().Len() == 1 {
			want = types.TypeString(named.TypeArgs().At(0), types.RelativeTo(a.pkg))
		}
		got, verb := "?", "reads"
		if m.name == "Into" {
			verb = "accepts"
		}
		if t, _ := a.iterValueType(arg); t != nil {
			got = t.GoName()
		}
		a.errorf(arg.Pos(), "%s: %s %s %s but its %s %s is %s: declare a composition of %s", decl, types.ExprString(arg), verb, got,
			map[string]string{"Over": "input", "Into": "output"}[m.name], p.Name(), want, want)
		ok = false
	}
	return ok
}

// statefulHandle returns H of a *runtime.Stateful[S, H], or nil.
func statefulHandle(t types.Type) types.Type {
	p, _ := t.(*types.Pointer)
	if p == nil {
		return nil
	}
	named, _ := p.Elem().(*types.Named)
	if named == nil || named.Obj().Name() != "Stateful" || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != runtimePath || named.TypeArgs().Len() != 2 {
		return nil
	}
	return named.TypeArgs().At(1)
}
