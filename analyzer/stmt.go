package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/model"
)

// stmts translates a statement list.
func (b *builder) stmts(list []ast.Stmt) []model.Stmt {
	var out []model.Stmt
	for _, s := range list {
		out = append(out, b.stmt(s)...)
	}
	return out
}

// stmt translates one statement into zero or more model statements.
func (b *builder) stmt(s ast.Stmt) []model.Stmt {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return one(b.block(s))
	case *ast.DeclStmt:
		return b.declStmt(s)
	case *ast.AssignStmt:
		return b.assignStmt(s)
	case *ast.IncDecStmt:
		return one(b.incDecStmt(s))
	case *ast.IfStmt:
		return one(b.ifStmt(s))
	case *ast.ReturnStmt:
		return one(b.returnStmt(s))
	case *ast.ExprStmt:
		// Only calls can be statements, and calling an operator has no
		// effect but its result: check the call, drop the statement.
		b.expr(s.X)
		return nil
	case *ast.EmptyStmt:
		return nil
	}
	b.rejectStmt(s)
	return nil
}

// one returns s as a list, or nil when s is nil.
func one(s model.Stmt) []model.Stmt {
	if s == nil || isNilPtr(s) {
		return nil
	}
	return []model.Stmt{s}
}

// isNilPtr reports whether s holds a nil pointer: the methods that translate
// one statement return nil of their own type when they fail.
func isNilPtr(s model.Stmt) bool {
	switch s := s.(type) {
	case *model.Block:
		return s == nil
	case *model.IfStmt:
		return s == nil
	case *model.AssignStmt:
		return s == nil
	case *model.ReturnStmt:
		return s == nil
	case *model.DeclStmt:
		return s == nil
	}
	return false
}

// block translates a nested block.
func (b *builder) block(s *ast.BlockStmt) *model.Block {
	if s == nil {
		return nil
	}
	return &model.Block{Pos: s.Lbrace, Stmts: b.stmts(s.List)}
}

// declStmt translates "var" declarations; local constants need nothing (their
// uses become constants) and local types are rejected.
func (b *builder) declStmt(s *ast.DeclStmt) []model.Stmt {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok {
		b.rejectStmt(s)
		return nil
	}
	switch gd.Tok {
	case token.CONST:
		return nil
	case token.TYPE:
		b.errorf(gd.Pos(), "type declarations are not allowed in operators: declare the type at package level")
		return nil
	case token.VAR:
		var out []model.Stmt
		for _, spec := range gd.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok {
				out = append(out, b.valueSpec(vs)...)
			}
		}
		return out
	}
	b.rejectStmt(s)
	return nil
}

// valueSpec translates "var a, b T", "var a, b T = x, y" and "var a, b = x, y"
// into one declaration per name. The new variables are not in scope in the
// initializers, so declaring them one after another keeps Go's meaning.
func (b *builder) valueSpec(vs *ast.ValueSpec) []model.Stmt {
	if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
		b.multiValue(vs.Values[0])
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
			continue
		}
		pos := id.Pos()
		if vs.Type != nil {
			pos = vs.Type.Pos()
		}
		v := b.declareLocal(b.defVar(id), pos, failed)
		if v == nil || failed {
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

// multiValue reports a multiple-value expression (e is its only value).
func (b *builder) multiValue(e ast.Expr) {
	before := b.count()
	b.expr(e)
	if b.count() == before {
		b.errorf(e.Pos(), "multiple-value expressions are not allowed in operators: operators return exactly one value for now")
	}
}

// assignOps maps the compound assignment tokens to their operators.
var assignOps = map[token.Token]model.BinaryOp{
	token.ADD_ASSIGN: model.Add, token.SUB_ASSIGN: model.Sub,
	token.MUL_ASSIGN: model.Mul, token.QUO_ASSIGN: model.Quo,
	token.REM_ASSIGN: model.Rem, token.AND_ASSIGN: model.And,
	token.OR_ASSIGN: model.Or, token.XOR_ASSIGN: model.Xor,
	token.AND_NOT_ASSIGN: model.AndNot,
	token.SHL_ASSIGN: model.Shl, token.SHR_ASSIGN: model.Shr,
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
	if len(s.Lhs) != len(s.Rhs) {
		if len(s.Rhs) == 1 {
			b.multiValue(s.Rhs[0])
		} else {
			b.rejectStmt(s)
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
		targets []*model.Var
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
		case b.info.Defs[id] != nil:
			v := b.declareLocal(b.defVar(id), id.Pos(), failed[i])
			switch {
			case v == nil || failed[i]:
				ok = false
			case redeclares:
				out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v})
				targets, vals = append(targets, v), append(vals, values[i])
			default:
				out = append(out, &model.DeclStmt{Pos: id.Pos(), Var: v, Init: values[i]})
			}
		default:
			v, _, tok := b.target(id)
			if !tok || v == nil || failed[i] {
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
		case !tok || x == nil:
			ok = false
		case !blank:
			out.Targets = append(out.Targets, v)
			out.Values = append(out.Values, x)
		}
	}
	if !ok || len(out.Targets) == 0 {
		return nil
	}
	return out
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
	x := &model.VarRef{Pos: s.Lhs[0].Pos(), Var: v}
	return &model.AssignStmt{
		Pos:     s.Pos(),
		Targets: []*model.Var{v},
		Values:  []model.Expr{&model.Binary{Pos: s.TokPos, Op: op, X: x, Y: y, T: v.Type}},
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
	val, exact := convertConst(constant.MakeInt64(1), v.Type)
	if !exact {
		b.errorf(s.TokPos, "cannot apply %s to a value of type %s", s.Tok, v.Type.GoName())
		return nil
	}
	x := &model.VarRef{Pos: s.X.Pos(), Var: v}
	one := &model.Const{Pos: s.TokPos, Value: val, T: v.Type}
	return &model.AssignStmt{
		Pos:     s.Pos(),
		Targets: []*model.Var{v},
		Values:  []model.Expr{&model.Binary{Pos: s.TokPos, Op: op, X: x, Y: one, T: v.Type}},
	}
}

// target resolves the left-hand side of an assignment: a parameter or local
// variable, or the blank identifier. ok is false when it was reported.
func (b *builder) target(e ast.Expr) (v *model.Var, blank, ok bool) {
	e = ast.Unparen(e)
	id, isIdent := e.(*ast.Ident)
	if !isIdent {
		before := b.count()
		b.expr(e)
		if b.count() == before {
			b.errorf(e.Pos(), "operators may assign only to their parameters and local variables")
		}
		return nil, false, false
	}
	if id.Name == "_" {
		return nil, true, true
	}
	obj, _ := b.info.Uses[id].(*types.Var)
	if v := b.vars[obj]; v != nil {
		return v, false, true
	}
	if obj == nil || !b.bad[obj] {
		b.ident(id) // reports what id is instead
	}
	return nil, false, false
}

// ifStmt translates if/else-if/else chains. An init statement that lowers to
// several statements is hoisted into a block around the if.
func (b *builder) ifStmt(s *ast.IfStmt) model.Stmt {
	var inits []model.Stmt
	if s.Init != nil {
		inits = b.stmt(s.Init)
	}
	cond := b.expr(s.Cond)
	then := b.block(s.Body)
	var els model.Stmt
	switch e := s.Else.(type) {
	case nil:
	case *ast.BlockStmt:
		els = b.block(e)
	case *ast.IfStmt:
		els = b.ifStmt(e)
	default:
		b.rejectStmt(e)
	}
	if cond == nil || then == nil || (s.Else != nil && (els == nil || isNilPtr(els))) {
		return nil
	}
	is := &model.IfStmt{Pos: s.If, Cond: cond, Then: then, Else: els}
	switch len(inits) {
	case 0:
		return is
	case 1:
		is.Init = inits[0]
		return is
	}
	return &model.Block{Pos: s.If, Stmts: append(inits, is)}
}

// returnStmt translates "return x", and a bare return of a named result.
func (b *builder) returnStmt(s *ast.ReturnStmt) *model.ReturnStmt {
	out := &model.ReturnStmt{Pos: s.Return}
	if len(s.Results) == 0 {
		for _, r := range b.od.namedResults {
			v := b.vars[r]
			if v == nil {
				return nil
			}
			out.Results = append(out.Results, &model.VarRef{Pos: s.Return, Var: v})
		}
		return out
	}
	ok := true
	for _, r := range s.Results {
		x := b.expr(r)
		ok = ok && x != nil
		out.Results = append(out.Results, x)
	}
	if !ok {
		return nil
	}
	return out
}
