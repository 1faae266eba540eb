package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// rejectStmt reports a statement outside the subset, at its first token, with
// what to do instead. Statements inside it are not checked: one diagnostic
// per construct. Loops, switches, labels, break, continue and fallthrough
// are translated elsewhere (loop.go, switch.go) and never get here.
func (b *builder) rejectStmt(s ast.Stmt) {
	if s == nil {
		return
	}
	pos, msg := s.Pos(), "this statement is not supported in operators"
	switch s := s.(type) {
	case *ast.TypeSwitchStmt:
		msg = "type switches are not allowed in operators: operators have no interfaces; write one //gocccl:op function per concrete type"
	case *ast.SelectStmt:
		msg = "select statements are not allowed in operators: operators have no channels; pass values as parameters and return results"
	case *ast.GoStmt:
		msg = "go statements are not allowed in operators: an operator runs on one GPU thread; call the function directly (the algorithm already runs operators in parallel)"
	case *ast.DeferStmt:
		msg = "defer is not allowed in operators: do the work before each return instead"
	case *ast.BranchStmt:
		msg = s.Tok.String() + " is not allowed here"
		if s.Tok == token.GOTO {
			msg = "goto is not allowed in operators: use if/else, or a for loop with break or continue"
		}
	case *ast.SendStmt:
		msg = "channel sends are not allowed in operators: return the value instead"
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
	case *ast.IndexExpr, *ast.IndexListExpr:
		msg = b.indexProblem(e)
	case *ast.SliceExpr:
		msg = "slicing is not allowed in operators: operators have no slices; use a fixed-size array and index its elements"
	case *ast.StarExpr:
		msg = "pointers are not allowed in operators: pass and return values"
	case *ast.TypeAssertExpr:
		msg = "type assertions are not allowed in operators: operators have no interfaces; use concrete numeric types"
	case *ast.BasicLit:
		msg = "literal " + e.Value + " is not allowed here"
	case *ast.BadExpr:
		msg = "invalid expression"
	case *ast.ArrayType, *ast.StructType, *ast.FuncType, *ast.InterfaceType, *ast.MapType, *ast.ChanType, *ast.Ellipsis:
		msg = "type expressions are not allowed here"
	}
	b.errorf(e.Pos(), "%s", msg)
}

// indexProblem explains why the index expression e (x[i], or an
// instantiation f[T]) cannot be used: operators index only arrays.
func (b *builder) indexProblem(e ast.Expr) string {
	if _, ok := calleeObject(b.info, e).(*types.Func); ok {
		return "function values are not allowed in operators: call //gocccl:op functions by name"
	}
	var x ast.Expr
	switch e := e.(type) {
	case *ast.IndexExpr:
		x = e.X
	case *ast.IndexListExpr:
		x = e.X
	}
	if tv, ok := b.info.Types[x]; ok && tv.Type != nil {
		switch u := tv.Type.Underlying().(type) {
		case *types.Map:
			return "maps are not allowed in operators: use a switch, or a fixed-size array indexed by a small integer"
		case *types.Slice:
			return "indexing a slice is not allowed in operators: operators have no slices; use a fixed-size array"
		case *types.Pointer:
			return "pointers are not allowed in operators: pass and return arrays by value"
		case *types.Basic:
			if u.Info()&types.IsString != 0 {
				return "indexing a string is not allowed in operators: operators have no strings; use a fixed-size array of bytes"
			}
		case *types.TypeParam, *types.Interface:
			return typeProblem(u)
		}
	}
	return "indexing is not allowed here: operators index only fixed-size arrays"
}

// builtinProblem explains why a built-in function cannot be called, and
// what to do instead. min and max are intrinsics, never reported here.
func builtinProblem(obj *types.Builtin) string {
	name := obj.Name()
	if obj.Pkg() != nil && obj.Pkg().Path() == "unsafe" {
		return "unsafe." + name + " is not allowed in operators: operators have no pointers; pass and return values (unsafe.Sizeof, Alignof and Offsetof are constants and allowed)"
	}
	switch name {
	case "len", "cap":
		return "built-in " + name + " is not allowed in operators: operators have no slices, strings or maps; use a fixed-size array, whose " + name + " is a constant"
	case "panic":
		return "panic is not allowed in operators: operators cannot fail; return a value instead"
	case "recover":
		return "recover is not allowed in operators: operators cannot panic, so there is nothing to recover; remove the call"
	case "print", "println":
		return name + " is not allowed in operators: operators cannot print; return the value and print it on the host"
	case "new":
		return "new is not allowed in operators: operators cannot allocate memory; declare a local variable instead"
	case "make":
		return "make is not allowed in operators: operators cannot allocate memory; declare a fixed-size array variable instead"
	case "append":
		return "append is not allowed in operators: operators cannot allocate memory; use a fixed-size array and a count"
	case "copy":
		return "copy is not allowed in operators: operators have no slices; assign arrays directly (a = b copies every element)"
	case "clear":
		return "clear is not allowed in operators: operators have no slices or maps; assign the zero value instead"
	case "delete":
		return "delete is not allowed in operators: operators have no maps; use a switch, or a fixed-size array indexed by a small integer"
	case "close":
		return "close is not allowed in operators: operators have no channels; pass values as parameters and return results"
	}
	return "built-in " + name + " is not allowed in operators"
}

// typeErrorAdvice adds what to do instead to the type checker's messages
// about rules of the subset that Go itself enforces: Load reports type
// errors as they are, and these are the ones an operator's author meets.
func typeErrorAdvice(msg string) string {
	if strings.Contains(msg, "negative shift count") {
		return msg + ": shift counts must not be negative; shift the other way (x >> n for x << -n)"
	}
	return msg
}
