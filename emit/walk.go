package emit

import "github.com/gocccl/gocccl/model"

// walkExprs calls f for every expression under s, outermost first.
func walkExprs(s model.Stmt, f func(model.Expr)) {
	var expr func(x model.Expr)
	expr = func(x model.Expr) {
		if x == nil {
			return
		}
		f(x)
		switch x := x.(type) {
		case *model.Unary:
			expr(x.X)
		case *model.Binary:
			expr(x.X)
			expr(x.Y)
		case *model.Convert:
			expr(x.X)
		case *model.Call:
			for _, a := range x.Args {
				expr(a)
			}
		}
	}
	var stmt func(s model.Stmt)
	stmt = func(s model.Stmt) {
		switch s := s.(type) {
		case *model.Block:
			if s == nil {
				return
			}
			for _, t := range s.Stmts {
				stmt(t)
			}
		case *model.DeclStmt:
			expr(s.Init)
		case *model.AssignStmt:
			for _, v := range s.Values {
				expr(v)
			}
		case *model.IfStmt:
			if s.Init != nil {
				stmt(s.Init)
			}
			expr(s.Cond)
			if s.Then != nil {
				stmt(s.Then)
			}
			if s.Else != nil {
				stmt(s.Else)
			}
		case *model.ReturnStmt:
			for _, r := range s.Results {
				expr(r)
			}
		}
	}
	stmt(s)
}
