package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// valueSpec translates "var a, b T", "var a, b T = x, y" and "var a, b = x, y"
// into one declaration per name. The new variables are not in scope in the
// initializers, so declaring them one after another keeps Go's meaning.
func (b *builder) valueSpec(vs *ast.ValueSpec) []model.Stmt {
	if len(vs.Values) == 1 && len(vs.Names) > 1 {
		lhs := make([]ast.Expr, len(vs.Names))
		for i, id := range vs.Names {
			lhs[i] = id
		}
		return b.tupleDefine(vs.Pos(), lhs, vs.Values[0], true)
	}
	if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
		b.multiValue(vs.Values[0])
		b.markBad(vs.Names)
		return nil
	}
	var out []model.Stmt
	for i, id := range vs.Names {
		var init model.Expr
		failed := false
		if len(vs.Values) > 0 {
			before := b.count()
			init = b.expr(vs.Values[i])
			failed = init == nil || b.count() > before
		}
		if id.Name == "_" {
			if !failed {
				out = append(out, evaluate(id.Pos(), init)...)
			}
			continue
		}
		pos := id.Pos()
		if vs.Type != nil {
			pos = vs.Type.Pos()
		}
		v := b.declareLocal(b.defVar(id), pos, failed)
		if v == nil || failed || (init != nil && !b.sameType(init, v.Type)) {
			continue
		}
		out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v, Init: init})
	}
	return out
}

// defVar returns the variable that id declares.
func (b *builder) defVar(id *ast.Ident) *types.Var {
	v, _ := b.info.Defs[id].(*types.Var)
	if v == nil {
		b.errorf(id.Pos(), "no type information for variable %s", id.Name)
	}
	return v
}

// markBad records that the variables ids declare were reported, so that
// their uses are not.
func (b *builder) markBad(ids []*ast.Ident) {
	for _, id := range ids {
		if v, ok := b.info.Defs[id].(*types.Var); ok && v != nil {
			b.bad[v] = true
		}
	}
}

// multiValue reports an assignment whose counts of names and values differ.
func (b *builder) multiValue(e ast.Expr) {
	before := b.count()
	b.expr(e)
	if b.count() == before {
		b.errorf(e.Pos(), "assignment mismatch: the number of values differs from the number of variables")
	}
}

// tuple translates the single value of a multiple assignment to n targets:
// a call of an operator (or a math/bits function) with n results.
func (b *builder) tuple(e ast.Expr, n int) model.Expr {
	x := b.expr(e)
	if x == nil {
		return nil
	}
	t := x.Type()
	if t.Kind != model.Tuple || len(t.Elems) != n {
		b.errorf(e.Pos(), "assignment mismatch: %d variables but %s returns %s", n, types.ExprString(e), valueCount(max(len(t.Elems), 1)))
		return nil
	}
	return x
}

// tupleDefine translates "a, b := f(x)" and "var a, b = f(x)" (all names
// new when decl is set): the new variables are declared with their zero
// values, then all targets are assigned the call's results at once.
func (b *builder) tupleDefine(pos token.Pos, lhs []ast.Expr, rhs ast.Expr, decl bool) []model.Stmt {
	x := b.tuple(rhs, len(lhs))
	if x == nil {
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				b.markBad([]*ast.Ident{id})
			}
		}
		return nil
	}
	elems := x.Type().Elems
	var out []model.Stmt
	targets := make([]model.Expr, len(lhs))
	ok := true
	for i, l := range lhs {
		id, isIdent := l.(*ast.Ident)
		switch {
		case !isIdent:
			b.rejectExpr(l)
			ok = false
		case id.Name == "_":
		case decl || b.info.Defs[id] != nil:
			v := b.declareLocal(b.defVar(id), id.Pos(), false)
			if v == nil || !b.sameType(&model.VarRef{Pos: id.Pos(), Var: v}, elems[i]) {
				ok = false
				continue
			}
			out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v})
			targets[i] = &model.VarRef{Pos: id.Pos(), Var: v}
		default:
			lv, _, tok := b.target(id)
			if !tok || lv == nil || !b.sameType(lv, elems[i]) {
				ok = false
				continue
			}
			targets[i] = lv
		}
	}
	if !ok {
		return nil
	}
	return append(out, &model.AssignStmt{Pos: pos, Targets: targets, Values: []model.Expr{x}})
}

// tupleAssign translates "a, b = f(x)".
func (b *builder) tupleAssign(s *ast.AssignStmt) *model.AssignStmt {
	x := b.tuple(s.Rhs[0], len(s.Lhs))
	if x == nil {
		return nil
	}
	elems := x.Type().Elems
	out := &model.AssignStmt{Pos: s.Pos(), Targets: make([]model.Expr, len(s.Lhs)), Values: []model.Expr{x}}
	for i, l := range s.Lhs {
		lv, blank, tok := b.target(l)
		switch {
		case !tok:
			return nil
		case blank:
		case !b.sameType(lv, elems[i]):
			return nil
		default:
			out.Targets[i] = lv
		}
	}
	return out
}

// assignOps maps the compound assignment tokens to their operators.
var assignOps = map[token.Token]model.BinaryOp{
	token.ADD_ASSIGN: model.Add, token.SUB_ASSIGN: model.Sub,
	token.MUL_ASSIGN: model.Mul, token.QUO_ASSIGN: model.Quo,
	token.REM_ASSIGN: model.Rem, token.AND_ASSIGN: model.And,
	token.OR_ASSIGN: model.Or, token.XOR_ASSIGN: model.Xor,
	token.AND_NOT_ASSIGN: model.AndNot,
	token.SHL_ASSIGN:     model.Shl, token.SHR_ASSIGN: model.Shr,
}

// assignStmt translates ":=", "=" and the compound assignments.
func (b *builder) assignStmt(s *ast.AssignStmt) []model.Stmt {
	switch s.Tok {
	case token.DEFINE:
		return b.define(s)
	case token.ASSIGN:
		return one(b.assign(s))
	}
	if op, ok := assignOps[s.Tok]; ok {
		return one(b.opAssign(s, op))
	}
	b.rejectStmt(s)
	return nil
}

// define translates "a, b := x, y". When every name is new it declares them
// one after another with their initial values. When some names are
// assigned (declared earlier in the same scope), it declares the new ones
// with their zero values and then assigns all of them at once, so that every
// value is computed before any variable changes, as in Go.
func (b *builder) define(s *ast.AssignStmt) []model.Stmt {
	if len(s.Rhs) == 1 && len(s.Lhs) > 1 {
		return b.tupleDefine(s.Pos(), s.Lhs, s.Rhs[0], false)
	}
	if len(s.Lhs) != len(s.Rhs) {
		if len(s.Rhs) == 1 {
			b.multiValue(s.Rhs[0])
		} else {
			b.rejectStmt(s)
		}
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				b.markBad([]*ast.Ident{id})
			}
		}
		return nil
	}
	values := make([]model.Expr, len(s.Rhs))
	failed := make([]bool, len(s.Rhs))
	for i, r := range s.Rhs {
		before := b.count()
		values[i] = b.expr(r)
		failed[i] = values[i] == nil || b.count() > before
	}
	redeclares := false
	for _, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" && b.info.Defs[id] == nil {
			redeclares = true
		}
	}
	var (
		out     []model.Stmt
		targets []model.Expr
		vals    []model.Expr
		ok      = true
	)
	for i, l := range s.Lhs {
		id, isIdent := l.(*ast.Ident)
		switch {
		case !isIdent:
			b.rejectExpr(l)
			ok = false
		case id.Name == "_":
			if !failed[i] {
				out = append(out, evaluate(id.Pos(), values[i])...)
			}
		case b.info.Defs[id] != nil:
			v := b.declareLocal(b.defVar(id), id.Pos(), failed[i])
			switch {
			case v == nil || failed[i] || !b.sameType(values[i], v.Type):
				ok = false
			case redeclares:
				out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v})
				targets, vals = append(targets, &model.VarRef{Pos: id.Pos(), Var: v}), append(vals, values[i])
			default:
				out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v, Init: values[i]})
			}
		default:
			v, _, tok := b.target(id)
			if !tok || v == nil || failed[i] || !b.sameType(values[i], v.Type()) {
				ok = false
				continue
			}
			targets, vals = append(targets, v), append(vals, values[i])
		}
	}
	if !ok {
		return nil
	}
	if len(targets) > 0 {
		out = append(out, &model.AssignStmt{Pos: s.Pos(), Targets: targets, Values: vals})
	}
	return out
}

// assign translates "a, b = x, y". Assignments to _ only check the value.
func (b *builder) assign(s *ast.AssignStmt) *model.AssignStmt {
	if len(s.Rhs) == 1 && len(s.Lhs) > 1 {
		return b.tupleAssign(s)
	}
	if len(s.Lhs) != len(s.Rhs) {
		if len(s.Rhs) == 1 {
			b.multiValue(s.Rhs[0])
		} else {
			b.rejectStmt(s)
		}
		return nil
	}
	out := &model.AssignStmt{Pos: s.Pos()}
	ok := true
	for i, l := range s.Lhs {
		v, blank, tok := b.target(l)
		x := b.expr(s.Rhs[i])
		switch {
		case !tok || x == nil || (!blank && !b.sameType(x, v.Type())):
			ok = false
		case !blank || mayPanic(x):
			// A blank target keeps a value whose evaluation may panic.
			out.Targets = append(out.Targets, v)
			out.Values = append(out.Values, x)
		}
	}
	if !ok || len(out.Targets) == 0 {
		return nil
	}
	return out
}

// evaluate returns a statement that evaluates x for nothing but its
// panics (an array index out of range, in x or in an operator it calls), or
// none when x cannot panic: "_ = a[i]" must trap as Go panics.
func evaluate(pos token.Pos, x model.Expr) []model.Stmt {
	if x == nil || !mayPanic(x) {
		return nil
	}
	return []model.Stmt{&model.AssignStmt{Pos: pos, Targets: []model.Expr{nil}, Values: []model.Expr{x}}}
}

// mayPanic reports whether evaluating x may panic in Go: it indexes an
// array with a non-constant index, or calls an operator.
func mayPanic(x model.Expr) bool {
	found := false
	model.Walk(&model.ReturnStmt{Results: []model.Expr{x}}, func(e model.Expr) {
		switch e := e.(type) {
		case *model.Index:
			if _, isConst := e.Index.(*model.Const); !isConst {
				found = true
			}
		case *model.Call:
			found = true
		}
	})
	return found
}

// opAssign lowers "x op= y" to "x = x op y".
func (b *builder) opAssign(s *ast.AssignStmt, op model.BinaryOp) *model.AssignStmt {
	if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		b.rejectStmt(s)
		return nil
	}
	v, _, ok := b.target(s.Lhs[0])
	var y model.Expr
	if op == model.Shl || op == model.Shr {
		y = b.shiftCount(s.Rhs[0])
	} else {
		y = b.expr(s.Rhs[0])
	}
	if !ok || v == nil || y == nil {
		return nil
	}
	if !b.checkBinary(s.TokPos, op, v, y, v.Type()) {
		return nil
	}
	return &model.AssignStmt{
		Pos:     s.Pos(),
		Targets: []model.Expr{v},
		Values:  []model.Expr{&model.Binary{Pos: s.TokPos, Op: op, X: v, Y: y, T: v.Type()}},
	}
}

// incDecStmt lowers "x++" and "x--" to "x = x + 1" and "x = x - 1".
func (b *builder) incDecStmt(s *ast.IncDecStmt) *model.AssignStmt {
	v, _, ok := b.target(s.X)
	if !ok || v == nil {
		return nil
	}
	op := model.Add
	if s.Tok == token.DEC {
		op = model.Sub
	}
	t := v.Type()
	if !t.IsNumeric() && !t.IsComplex() {
		b.errorf(s.TokPos, "cannot apply %s to a value of type %s", s.Tok, t.GoName())
		return nil
	}
	val, exact := convertConst(constant.MakeInt64(1), t)
	if !exact {
		b.errorf(s.TokPos, "cannot apply %s to a value of type %s", s.Tok, t.GoName())
		return nil
	}
	one := &model.Const{Pos: s.TokPos, Value: val, T: t}
	return &model.AssignStmt{
		Pos:     s.Pos(),
		Targets: []model.Expr{v},
		Values:  []model.Expr{&model.Binary{Pos: s.TokPos, Op: op, X: v, Y: one, T: t}},
	}
}

// target translates the target of an assignment (see lvalue) and rejects
// a target that is or holds a runtime.View: views are read-only, bound by
// Bind for the call.
func (b *builder) target(e ast.Expr) (lv model.Expr, blank, ok bool) {
	lv, blank, ok = b.lvalue(e)
	if ok && lv != nil {
		if t := lv.Type(); t != nil && t.HasView() {
			b.errorf(e.Pos(), "cannot assign to %s of type %s: views are read-only, bound by Bind for the call; read elements with At into a local variable", types.ExprString(e), t.GoName())
			return nil, false, false
		}
	}
	return lv, blank, ok
}

// lvalue resolves the left-hand side of an assignment: a parameter or local
// variable, a field or element of one (p.X, a[i], p.A[i].Y), or the blank
// identifier. ok is false when it was reported.
func (b *builder) lvalue(e ast.Expr) (lv model.Expr, blank, ok bool) {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "_" {
			return nil, true, true
		}
		obj, _ := b.info.Uses[x].(*types.Var)
		if v := b.vars[obj]; v != nil {
			return &model.VarRef{Pos: x.Pos(), Var: v}, false, true
		}
		if obj == nil || !b.bad[obj] {
			b.ident(x) // reports what x is instead
		}
		return nil, false, false
	case *ast.SelectorExpr:
		if sel, isField := b.info.Selections[x]; isField && sel.Kind() == types.FieldVal {
			base, _, ok := b.lvalue(x.X)
			if !ok || base == nil {
				return nil, false, false
			}
			f := b.fieldOf(x, base)
			return f, false, f != nil
		}
	case *ast.IndexExpr:
		if tv, isValue := b.info.Types[x.X]; isValue && isArray(tv.Type) {
			base, _, ok := b.lvalue(x.X)
			if !ok || base == nil {
				return nil, false, false
			}
			ix := b.indexOf(x, base)
			return ix, false, ix != nil
		}
	}
	before := b.count()
	b.expr(e)
	if b.count() == before {
		b.errorf(e.Pos(), "operators may assign only to their parameters and local variables, and to fields and elements of them")
	}
	return nil, false, false
}
