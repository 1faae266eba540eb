package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// findOps finds the //gocccl:op functions of every file, in source order,
// applies their options, and reports directives that are malformed or not
// in the doc comment of a top-level function.
func (a *analysis) findOps() {
	for _, f := range a.files {
		valid := make(map[*ast.Comment]directive)
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if d, ok := a.parseDirective(c); ok {
					valid[c] = d
				}
			}
		}
		used := make(map[*ast.Comment]bool)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || fd.Name == nil || fd.Type == nil {
				continue
			}
			var found []directive
			for _, c := range fd.Doc.List {
				if d, ok := valid[c]; ok {
					found = append(found, d)
					used[c] = true
				}
			}
			if len(found) == 0 {
				continue
			}
			for _, d := range found[1:] {
				a.errorf(d.comment.Pos(), "duplicate %s directive", opDirective)
			}
			a.addOp(fd, found[0])
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if _, ok := valid[c]; ok && !used[c] {
					a.errorf(c.Pos(), "%s must be in the doc comment of a top-level function, directly above its func line", opDirective)
				}
			}
		}
	}
}

// addOp records the //gocccl:op function fd.
func (a *analysis) addOp(fd *ast.FuncDecl, d directive) {
	fn, _ := a.info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		a.errorf(fd.Name.Pos(), "no type information for %s", fd.Name.Name)
		return
	}
	name := fd.Name.Name
	if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
		name = recvTypeName(sig.Recv().Type()) + "." + name
	}
	od := &opDecl{decl: fd, fn: fn, op: &model.Op{Name: name, Pkg: a.pkg.Path(), PkgName: a.pkg.Name(), Pos: fd.Name.Pos()}}
	a.applyOptions(d, od)
	a.ops[fn] = od
	a.opList = append(a.opList, od)
}

// checkSignature checks that od is a plain function with parameters and one
// result of supported types, and fills in the op's parameters and result.
func (a *analysis) checkSignature(od *opDecl) {
	fd, name := od.decl, od.op.Name
	sig, _ := od.fn.Type().(*types.Signature)
	if sig == nil {
		a.errorf(fd.Name.Pos(), "no type information for %s", name)
		return
	}
	before := a.count()
	if fd.Recv != nil {
		a.checkReceiver(od, sig)
	}
	if fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
		// Its parameter types would only repeat the problem.
		a.errorf(fd.Type.TypeParams.Pos(), "generic function %s cannot be an operator: write one //gocccl:op function per type", name)
		return
	}
	if fd.Body == nil {
		a.errorf(fd.Name.Pos(), "operator %s has no body", name)
	}
	a.checkParams(od, sig)
	a.checkResults(od, sig)
	od.ok = a.count() == before
}

// recvTypeName is the name of a receiver's type, without its pointer.
func recvTypeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return types.TypeString(t, nil)
}

// checkReceiver checks the receiver of a method operator, its per-call
// state, and declares it as the first parameter: a value receiver of a
// named type of the subset (a struct of scalars, typically), which the
// kernels take by value.
func (a *analysis) checkReceiver(od *opDecl, sig *types.Signature) {
	fd := od.decl
	recv := sig.Recv()
	field := fd.Recv.List[0]
	if ptr, ok := recv.Type().(*types.Pointer); ok {
		a.errorf(field.Type.Pos(), "method %s has a pointer receiver: an operator's receiver is its per-call state, read-only and passed by value; write func (%s %s) %s(…)",
			od.op.Name, recvName(recv), types.TypeString(ptr.Elem(), types.RelativeTo(a.pkg)), fd.Name.Name)
		return
	}
	if n, ok := recv.Type().(*types.Named); ok && n.TypeArgs().Len() > 0 {
		a.errorf(field.Type.Pos(), "method %s of a generic type cannot be an operator: its state type must be a plain named type", od.op.Name)
		return
	}
	t, problem := modelType(recv.Type())
	if t == nil {
		a.errorf(field.Type.Pos(), "the receiver of method %s is its per-call state: %s", od.op.Name, problem)
		return
	}
	if t.Size() == 0 || t.Size() > maxStateBytes {
		a.errorf(field.Type.Pos(), "the state %s of method %s has %d bytes: a state is a kernel argument of 1 to %d bytes", t.GoName(), od.op.Name, t.Size(), maxStateBytes)
		return
	}
	name := recv.Name()
	if name == "" || name == "_" {
		name = "_r"
	}
	pos := field.Type.Pos()
	if len(field.Names) > 0 {
		pos = field.Names[0].Pos()
	}
	od.op.State = t
	od.params = append(od.params, recv)
	od.op.Params = append(od.op.Params, &model.Var{Name: name, Type: t, Pos: pos})
}

// maxStateBytes bounds a state's size: kernel arguments take 4 KiB in all
// on the toolchains we support, and the kernels' own take some of it.
const maxStateBytes = 2048

// recvName is the receiver's name for a message, "s" when it has none.
func recvName(v *types.Var) string {
	if v.Name() == "" || v.Name() == "_" {
		return "s"
	}
	return v.Name()
}

// checkParams checks and declares the parameters. Unnamed and blank
// parameters are named _0, _1, … by their index.
func (a *analysis) checkParams(od *opDecl, sig *types.Signature) {
	params := sig.Params()
	i := 0
	for _, field := range od.decl.Type.Params.List {
		n := max(len(field.Names), 1)
		if ell, ok := field.Type.(*ast.Ellipsis); ok {
			a.errorf(ell.Pos(), "variadic operators are not supported: use a fixed number of parameters")
			i += n
			continue
		}
		problem := ""
		for k := 0; k < n && i < params.Len(); k, i = k+1, i+1 {
			v := params.At(i)
			t, p := modelType(v.Type())
			if t == nil {
				problem = p
				continue
			}
			if p := viewProblem(t, "parameter "+v.Name()); p != "" {
				problem = p
				continue
			}
			name := v.Name()
			if name == "" || name == "_" {
				name = fmt.Sprintf("_%d", i)
			}
			od.params = append(od.params, v)
			od.op.Params = append(od.op.Params, &model.Var{Name: name, Type: t, Pos: paramPos(field, k)})
		}
		if problem != "" {
			a.errorf(field.Type.Pos(), "%s", problem)
		}
	}
}

// paramPos returns the position of the k-th name of field, or of its type
// when it has no names.
func paramPos(field *ast.Field, k int) token.Pos {
	if k < len(field.Names) {
		return field.Names[k].Pos()
	}
	return field.Type.Pos()
}

// checkResults checks that the operator has at least one result and that
// every result is of a supported type. Named results become local
// variables.
func (a *analysis) checkResults(od *opDecl, sig *types.Signature) {
	fd, name := od.decl, od.op.Name
	results := sig.Results()
	if results.Len() == 0 {
		a.errorf(fd.Name.Pos(), "operator %s has no result: an operator returns at least one value", name)
		return
	}
	var ts []*model.Type
	var named []*types.Var
	i := 0
	for _, field := range fd.Type.Results.List {
		n := max(len(field.Names), 1)
		for k := 0; k < n && i < results.Len(); k, i = k+1, i+1 {
			r := results.At(i)
			t, problem := modelType(r.Type())
			if t == nil {
				a.errorf(field.Type.Pos(), "%s", problem)
				return
			}
			if t.HasView() {
				a.errorf(field.Type.Pos(), "a result of type %s holds a runtime.View: an operator returns values; return the elements it reads with At", t.GoName())
				return
			}
			ts = append(ts, t)
			if r.Name() != "" {
				named = append(named, r)
			}
		}
	}
	if len(ts) != results.Len() {
		a.errorf(fd.Type.Results.Pos(), "no type information for the results of %s", name)
		return
	}
	od.op.Results = ts
	od.namedResults = named
}
