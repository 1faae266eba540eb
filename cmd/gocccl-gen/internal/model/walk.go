package model

// Walk calls f for every expression in s and the statements inside it, in
// source order, outer expressions before their operands. Assignment targets
// are expressions too.
func Walk(s Stmt, f func(Expr)) {
	WalkStmts(s, func(st Stmt) {
		for _, x := range stmtExprs(st) {
			walkExpr(x, f)
		}
	})
}

// WalkStmts calls f for s and every statement inside it, in source order,
// outer statements first.
func WalkStmts(s Stmt, f func(Stmt)) {
	if s == nil || isNilStmt(s) {
		return
	}
	f(s)
	switch s := s.(type) {
	case *Block:
		for _, t := range s.Stmts {
			WalkStmts(t, f)
		}
	case *IfStmt:
		WalkStmts(s.Init, f)
		WalkStmts(s.Then, f)
		WalkStmts(s.Else, f)
	case *ForStmt:
		WalkStmts(s.Init, f)
		WalkStmts(s.Post, f)
		WalkStmts(s.Body, f)
	case *SwitchStmt:
		WalkStmts(s.Init, f)
		for _, c := range s.Clauses {
			for _, t := range c.Body {
				WalkStmts(t, f)
			}
		}
	}
}

// isNilStmt reports whether s is a typed nil pointer.
func isNilStmt(s Stmt) bool {
	switch s := s.(type) {
	case *Block:
		return s == nil
	case *IfStmt:
		return s == nil
	case *ForStmt:
		return s == nil
	case *SwitchStmt:
		return s == nil
	}
	return false
}

// stmtExprs returns the expressions that belong to s itself, not to the
// statements inside it.
func stmtExprs(s Stmt) []Expr {
	switch s := s.(type) {
	case *DeclStmt:
		return []Expr{s.Init}
	case *AssignStmt:
		return append(append([]Expr(nil), s.Targets...), s.Values...)
	case *IfStmt:
		return []Expr{s.Cond}
	case *ReturnStmt:
		return s.Results
	case *ForStmt:
		return []Expr{s.Cond}
	case *SwitchStmt:
		xs := []Expr{s.Tag}
		for _, c := range s.Clauses {
			xs = append(xs, c.List...)
		}
		return xs
	}
	return nil
}

// walkExpr calls f for x and every expression inside it.
func walkExpr(x Expr, f func(Expr)) {
	if x == nil {
		return
	}
	f(x)
	switch x := x.(type) {
	case *Unary:
		walkExpr(x.X, f)
	case *Binary:
		walkExpr(x.X, f)
		walkExpr(x.Y, f)
	case *Convert:
		walkExpr(x.X, f)
	case *Call:
		for _, a := range x.Args {
			walkExpr(a, f)
		}
	case *Selector:
		walkExpr(x.X, f)
	case *Index:
		walkExpr(x.X, f)
		walkExpr(x.Index, f)
	case *Composite:
		for _, e := range x.Elems {
			walkExpr(e, f)
		}
	case *Intrinsic:
		for _, a := range x.Args {
			walkExpr(a, f)
		}
	}
}
