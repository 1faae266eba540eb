package analyzer

import (
	"go/ast"
	"go/token"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// switchStmt translates expression switches, with or without a tag, with an
// init statement, case lists, a default anywhere, and fallthrough.
func (b *builder) switchStmt(s *ast.SwitchStmt, label string) model.Stmt {
	sw := &model.SwitchStmt{Pos: s.Switch, Label: label}
	ok := true
	var inits []model.Stmt
	if s.Init != nil {
		before := b.count()
		inits = b.stmt(s.Init)
		ok = b.count() == before
	}
	var tagType *model.Type
	if s.Tag != nil {
		sw.Tag = b.expr(s.Tag)
		if sw.Tag == nil {
			ok = false
		} else {
			tagType = sw.Tag.Type()
			if tagType.Kind == model.Tuple {
				b.errorf(s.Tag.Pos(), "switch tag must be a single value")
				ok = false
			}
		}
	}
	pop := b.pushTarget(sw, label, false)
	defer pop()
	for _, st := range s.Body.List {
		cc, isCase := st.(*ast.CaseClause)
		if !isCase {
			b.rejectStmt(st)
			ok = false
			continue
		}
		c := &model.CaseClause{Pos: cc.Case, Default: cc.List == nil}
		for _, e := range cc.List {
			var x model.Expr
			if tagType != nil {
				x = b.exprOf(e, tagType)
				if x != nil && !b.sameType(x, tagType) {
					x = nil
				}
			} else {
				x = b.expr(e)
				if x != nil && !b.checkCaseCond(x) {
					x = nil
				}
			}
			if x == nil {
				ok = false
				continue
			}
			c.List = append(c.List, x)
		}
		body := cc.Body
		if n := len(body); n > 0 {
			if br, isBr := body[n-1].(*ast.BranchStmt); isBr && br.Tok == token.FALLTHROUGH {
				c.Fallthrough = true
				body = body[:n-1]
			}
		}
		before := b.count()
		c.Body = b.stmts(body)
		ok = ok && b.count() == before
		sw.Clauses = append(sw.Clauses, c)
	}
	if n := len(sw.Clauses); n > 0 && sw.Clauses[n-1].Fallthrough {
		b.errorf(s.Body.Rbrace, "cannot fallthrough final case in switch")
		ok = false
	}
	if !ok {
		return nil
	}
	return withInit(s.Switch, inits, sw, &sw.Init)
}

// checkCaseCond checks that a case of a tagless switch is a boolean.
func (b *builder) checkCaseCond(x model.Expr) bool {
	if !x.Type().IsBool() {
		b.errorf(x.Position(), "invalid case in switch without a tag: %s is not a bool", x.Type().GoName())
		return false
	}
	return true
}
