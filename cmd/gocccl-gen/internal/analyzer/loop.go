package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// This file translates for and range loops, labels, break and continue.

// branchTarget is an enclosing for or switch statement that break (and, for
// loops, continue) may leave.
type branchTarget struct {
	stmt  model.Stmt
	label string // Go label, "" when unlabeled
	loop  bool
}

// pushTarget makes s the innermost target of break and continue until the
// returned function is called.
func (b *builder) pushTarget(s model.Stmt, label string, loop bool) func() {
	b.targets = append(b.targets, branchTarget{stmt: s, label: label, loop: loop})
	return func() { b.targets = b.targets[:len(b.targets)-1] }
}

// labeledStmt translates "L: for …" and "L: switch …"; other statements
// cannot be labeled in an operator (goto is not allowed, and break and
// continue name only loops and switches).
func (b *builder) labeledStmt(s *ast.LabeledStmt) []model.Stmt {
	label := s.Label.Name
	switch st := s.Stmt.(type) {
	case *ast.ForStmt:
		return one(b.forStmt(st, label))
	case *ast.RangeStmt:
		return one(b.rangeStmt(st, label))
	case *ast.SwitchStmt:
		return one(b.switchStmt(st, label))
	}
	b.errorf(s.Pos(), "label %s is not on a for or switch statement: operators use labels only to break or continue loops and switches (goto is not allowed)", label)
	return nil
}

// branchStmt translates break and continue, with or without a label.
// fallthrough is handled by the switch clause it ends; goto is rejected.
func (b *builder) branchStmt(s *ast.BranchStmt) model.Stmt {
	var kind model.BranchKind
	switch s.Tok {
	case token.BREAK:
		kind = model.Break
	case token.CONTINUE:
		kind = model.Continue
	case token.FALLTHROUGH:
		b.errorf(s.Pos(), "fallthrough must be the last statement of a switch case other than the last")
		return nil
	default:
		b.rejectStmt(s)
		return nil
	}
	label := ""
	if s.Label != nil {
		label = s.Label.Name
	}
	for i := len(b.targets) - 1; i >= 0; i-- {
		t := b.targets[i]
		if label != "" && t.label != label {
			continue
		}
		if kind == model.Continue && !t.loop {
			if label != "" {
				b.errorf(s.Pos(), "invalid continue label %s: it names a switch, not a loop", label)
				return nil
			}
			continue
		}
		return &model.BranchStmt{Pos: s.Pos(), Kind: kind, Label: label, Target: t.stmt}
	}
	if label != "" {
		b.errorf(s.Pos(), "%s label %s is not an enclosing for or switch statement", s.Tok, label)
	} else {
		b.errorf(s.Pos(), "%s is not in a loop or switch", s.Tok)
	}
	return nil
}

// forStmt translates the three-clause, condition-only and infinite forms of
// for. An init statement that lowers to several statements is hoisted into
// a block around the loop, which is its scope in Go too.
func (b *builder) forStmt(s *ast.ForStmt, label string) model.Stmt {
	f := &model.ForStmt{Pos: s.For, Label: label}
	var inits []model.Stmt
	ok := true
	if s.Init != nil {
		before := b.count()
		inits = b.stmt(s.Init)
		ok = b.count() == before
	}
	if s.Cond != nil {
		f.Cond = b.expr(s.Cond)
		ok = ok && f.Cond != nil && b.checkCond(f.Cond)
	}
	if s.Post != nil {
		before := b.count()
		posts := b.stmt(s.Post)
		ok = ok && b.count() == before
		switch len(posts) {
		case 0:
		case 1:
			f.Post = posts[0]
		default:
			f.Post = &model.Block{Pos: s.Post.Pos(), Stmts: posts}
		}
	}
	pop := b.pushTarget(f, label, true)
	f.Body = b.block(s.Body)
	pop()
	if !ok || f.Body == nil {
		return nil
	}
	return withInit(s.For, inits, f, &f.Init)
}

// rangeStmt translates range loops over an integer (Go 1.22) and over an
// array. Both become a counting loop over a hidden index; the iteration
// variables are declared (or assigned) from it at the top of each
// iteration, so the body may change them without changing the iteration.
// The range expression is evaluated once, before the loop; an array is
// copied when its values are used, as Go does.
func (b *builder) rangeStmt(s *ast.RangeStmt, label string) model.Stmt {
	tv, ok := b.info.Types[s.X]
	if !ok {
		b.errorf(s.X.Pos(), "no type information for range expression")
		return nil
	}
	switch u := tv.Type.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return b.rangeInt(s, label, tv)
		}
	case *types.Array:
		return b.rangeArray(s, label)
	case *types.Pointer:
		b.errorf(s.X.Pos(), "range over a pointer to an array is not allowed in operators: operators have no pointers; range over the array")
		return nil
	case *types.Signature:
		b.errorf(s.X.Pos(), "range over a function is not allowed in operators: operators have no function values")
		return nil
	}
	b.errorf(s.X.Pos(), "range over %s is not allowed in operators: range over an integer or an array", types.TypeString(tv.Type, nil))
	return nil
}

// rangeInt translates "for i := range n".
func (b *builder) rangeInt(s *ast.RangeStmt, label string, tv types.TypeAndValue) model.Stmt {
	if s.Value != nil {
		b.errorf(s.Value.Pos(), "range over an integer yields one value")
		return nil
	}
	// The type of the count: the key's when the count is an untyped
	// constant, as go/types decides.
	var t *model.Type
	if s.Key != nil {
		if kt, ok := b.info.Types[s.Key]; ok {
			t, _ = modelType(kt.Type)
		} else if id, isID := s.Key.(*ast.Ident); isID && b.info.Defs[id] != nil {
			t, _ = modelType(b.info.Defs[id].Type())
		}
	}
	var n model.Expr
	if tv.Value != nil {
		n = b.constant(s.X, tv, t)
	} else {
		n = b.expr(s.X)
	}
	if n == nil {
		return nil
	}
	t = n.Type()
	zero, _ := convertConst(constant.MakeInt64(0), t)
	return b.countingLoop(s, label, n, &model.Const{Pos: s.X.Pos(), Value: zero, T: t}, nil)
}

// rangeArray translates "for i, v := range a".
func (b *builder) rangeArray(s *ast.RangeStmt, label string) model.Stmt {
	arr := b.expr(s.X)
	if arr == nil {
		return nil
	}
	if arr.Type().Kind != model.Array {
		b.errorf(s.X.Pos(), "range over %s: want an array", arr.Type().GoName())
		return nil
	}
	intT := model.Basic(model.Int)
	n := &model.Const{Pos: s.X.Pos(), Value: constant.MakeInt64(arr.Type().Len), T: intT}
	zero := &model.Const{Pos: s.X.Pos(), Value: constant.MakeInt64(0), T: intT}
	if s.Value == nil || isBlank(s.Value) {
		return b.countingLoop(s, label, n, zero, nil)
	}
	return b.countingLoop(s, label, n, zero, arr)
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// countingLoop builds
//
//	{ n := count; [a := arr;] for k := zero; k < n; k++ { key := k; [value := a[k];] body } }
//
// for a range statement; arr is nil when the values are not used.
func (b *builder) countingLoop(s *ast.RangeStmt, label string, count, zero, arr model.Expr) model.Stmt {
	pos := s.For
	t := count.Type()
	outer := &model.Block{Pos: pos}
	var n model.Expr = count
	if _, isConst := count.(*model.Const); !isConst {
		nv := b.hidden("n", t, pos)
		outer.Stmts = append(outer.Stmts, &model.DeclStmt{Pos: pos, Var: nv, Init: count})
		n = &model.VarRef{Pos: pos, Var: nv}
	}
	var a model.Expr
	if arr != nil {
		av := b.hidden("a", arr.Type(), pos)
		outer.Stmts = append(outer.Stmts, &model.DeclStmt{Pos: pos, Var: av, Init: arr})
		a = &model.VarRef{Pos: pos, Var: av}
	}
	k := b.hidden("i", t, pos)
	kref := &model.VarRef{Pos: pos, Var: k}
	one, _ := convertConst(constant.MakeInt64(1), t)
	f := &model.ForStmt{
		Pos:   pos,
		Label: label,
		Init:  &model.DeclStmt{Pos: pos, Var: k, Init: zero},
		Cond:  &model.Binary{Pos: pos, Op: model.Lss, X: kref, Y: n, T: model.Basic(model.Bool)},
		Post: &model.AssignStmt{Pos: pos, Targets: []model.Expr{kref}, Values: []model.Expr{
			&model.Binary{Pos: pos, Op: model.Add, X: kref, Y: &model.Const{Pos: pos, Value: one, T: t}, T: t},
		}},
	}
	body := &model.Block{Pos: s.Body.Lbrace}
	ok := true
	// The assignment form "for k, a[k] = range …" assigns both at once, as
	// the tuple assignment "k, a[k] = i, v" does: a[k] is indexed with the
	// old k.
	assign := &model.AssignStmt{Pos: s.For}
	bind := func(e ast.Expr, val model.Expr) {
		if e == nil || isBlank(e) {
			return
		}
		if s.Tok == token.DEFINE {
			id, _ := e.(*ast.Ident)
			if id == nil {
				b.rejectExpr(e)
				ok = false
				return
			}
			v := b.declareLocal(b.defVar(id), id.Pos(), false)
			if v == nil || !b.sameType(val, v.Type) {
				ok = false
				return
			}
			body.Stmts = append(body.Stmts, &model.DeclStmt{Pos: id.Pos(), Var: v, Init: val})
			return
		}
		lv, blank, tok := b.target(e)
		if !tok || blank || lv == nil || !b.sameType(val, lv.Type()) {
			ok = ok && tok && (blank || lv != nil)
			return
		}
		assign.Targets = append(assign.Targets, lv)
		assign.Values = append(assign.Values, val)
	}
	bind(s.Key, kref)
	if a != nil {
		bind(s.Value, &model.Index{Pos: pos, X: a, Index: kref})
	}
	if len(assign.Targets) > 0 {
		body.Stmts = append(body.Stmts, assign)
	}
	pop := b.pushTarget(f, label, true)
	inner := b.block(s.Body)
	pop()
	if !ok || inner == nil {
		return nil
	}
	// The namer gives every variable of the operator its own name, so the
	// body's statements can share the block of the iteration variables.
	body.Stmts = append(body.Stmts, inner.Stmts...)
	f.Body = body
	if len(outer.Stmts) == 0 {
		return f
	}
	outer.Stmts = append(outer.Stmts, f)
	return outer
}

// hidden declares a variable the translation introduces; the namer keeps
// its name apart from the operator's own variables.
func (b *builder) hidden(name string, t *model.Type, pos token.Pos) *model.Var {
	return &model.Var{Name: b.names.name("range_" + name), Type: t, Pos: pos}
}
