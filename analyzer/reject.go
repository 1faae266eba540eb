package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rejectStmt reports a statement outside the subset, at its first token, with
// what to do instead. Statements inside it are not checked: one diagnostic
// per construct.
func (b *builder) rejectStmt(s ast.Stmt) {
	if s == nil {
		return
	}
	pos, msg := s.Pos(), "this statement is not supported in operators"
	switch s := s.(type) {
	case *ast.ForStmt:
		msg = "for loops are not supported in operators yet"
	case *ast.RangeStmt:
		msg = "range loops are not supported in operators yet"
	case *ast.SwitchStmt:
		msg = "switch statements are not supported in operators yet: use if/else"
	case *ast.TypeSwitchStmt:
		msg = "type switches are not allowed in operators: operators have no interfaces"
	case *ast.SelectStmt:
		msg = "select statements are not allowed in operators: operators have no channels"
	case *ast.GoStmt:
		msg = "go statements are not allowed in operators: an operator runs on one GPU thread"
	case *ast.DeferStmt:
		msg = "defer is not allowed in operators"
	case *ast.LabeledStmt:
		msg = "labels are not allowed in operators"
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			msg = "goto is not allowed in operators"
		default:
			msg = s.Tok.String() + " is not allowed in operators: operators have no loops or switches yet"
		}
	case *ast.SendStmt:
		msg = "channel sends are not allowed in operators"
	case *ast.AssignStmt:
		msg = "this assignment is not supported in operators"
	case *ast.BadStmt:
		msg = "invalid statement"
	}
	b.errorf(pos, "%s", msg)
}

// rejectExpr reports an expression outside the subset at its position.
func (b *builder) rejectExpr(e ast.Expr) {
	if e == nil {
		return
	}
	msg := "this expression is not supported in operators"
	switch e := e.(type) {
	case *ast.FuncLit:
		msg = "closures are not allowed in operators: declare a separate //gocccl:op function"
	case *ast.CompositeLit:
		msg = "composite literals are not supported in operators yet: use separate values"
	case *ast.IndexExpr, *ast.IndexListExpr:
		msg = "indexing is not allowed in operators: operators work on single values"
		if _, ok := calleeObject(b.info, e).(*types.Func); ok {
			msg = "function values are not allowed in operators: call //gocccl:op functions by name"
		}
	case *ast.SliceExpr:
		msg = "slicing is not allowed in operators: operators work on single values"
	case *ast.StarExpr:
		msg = "pointers are not allowed in operators: pass and return values"
	case *ast.TypeAssertExpr:
		msg = "type assertions are not allowed in operators: operators have no interfaces"
	case *ast.BasicLit:
		msg = "literal " + e.Value + " is not allowed here"
	case *ast.BadExpr:
		msg = "invalid expression"
	case *ast.ArrayType, *ast.StructType, *ast.FuncType, *ast.InterfaceType, *ast.MapType, *ast.ChanType, *ast.Ellipsis:
		msg = "type expressions are not allowed here"
	}
	b.errorf(e.Pos(), "%s", msg)
}
