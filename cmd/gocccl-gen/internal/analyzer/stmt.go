package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
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
	case *ast.ForStmt:
		return one(b.forStmt(s, ""))
	case *ast.RangeStmt:
		return one(b.rangeStmt(s, ""))
	case *ast.SwitchStmt:
		return one(b.switchStmt(s, ""))
	case *ast.LabeledStmt:
		return b.labeledStmt(s)
	case *ast.BranchStmt:
		return one(b.branchStmt(s))
	case *ast.ExprStmt:
		// Only calls can be statements, and calling an operator has no
		// effect but its result and its panics: keep it only for those.
		return evaluate(s.Pos(), b.expr(s.X))
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
	case *model.ForStmt:
		return s == nil
	case *model.SwitchStmt:
		return s == nil
	case *model.BranchStmt:
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
	if cond == nil || !b.checkCond(cond) || then == nil || (s.Else != nil && (els == nil || isNilPtr(els))) {
		return nil
	}
	is := &model.IfStmt{Pos: s.If, Cond: cond, Then: then, Else: els}
	return withInit(s.If, inits, is, &is.Init)
}

// withInit attaches what an init statement lowered to: nothing, a single
// statement as s's own init (*init), or several statements in a block
// around s, which is their scope in Go too.
func withInit(pos token.Pos, inits []model.Stmt, s model.Stmt, init *model.Stmt) model.Stmt {
	switch len(inits) {
	case 0:
		return s
	case 1:
		*init = inits[0]
		return s
	}
	return &model.Block{Pos: pos, Stmts: append(inits, s)}
}

// returnStmt translates "return x, y", "return f(x)" where f returns as many
// values as the operator, and a bare return of named results.
func (b *builder) returnStmt(s *ast.ReturnStmt) *model.ReturnStmt {
	out := &model.ReturnStmt{Pos: s.Return}
	want := b.od.op.Results
	if len(s.Results) == 0 && len(b.od.namedResults) == 0 {
		b.errorf(s.Return, "operator %s must return %s", b.od.op.Name, valueCount(len(want)))
		return nil
	}
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
	if len(s.Results) == 1 && len(want) > 1 {
		x := b.expr(s.Results[0])
		if x == nil || !b.sameType(x, model.TupleOf(want)) {
			return nil
		}
		out.Results = []model.Expr{x}
		return out
	}
	ok := true
	for i, r := range s.Results {
		var x model.Expr
		if i < len(want) {
			x = b.exprOf(r, want[i])
		} else {
			x = b.expr(r)
		}
		if ok && x != nil && i < len(want) {
			ok = b.sameType(x, want[i])
		}
		ok = ok && x != nil
		out.Results = append(out.Results, x)
	}
	if ok && len(s.Results) != len(want) {
		b.errorf(s.Return, "operator %s returns %s, not %d", b.od.op.Name, valueCount(len(want)), len(s.Results))
		ok = false
	}
	if !ok {
		return nil
	}
	return out
}

// valueCount spells n values.
func valueCount(n int) string {
	if n == 1 {
		return "exactly 1 value"
	}
	return fmt.Sprintf("%d values", n)
}
