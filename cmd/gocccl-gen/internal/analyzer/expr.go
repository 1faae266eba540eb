package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
)

// expr translates an expression. Whatever go/types evaluated to a constant
// becomes one model.Const, however it is spelt.
func (b *builder) expr(e ast.Expr) model.Expr {
	if e == nil {
		return nil
	}
	if tv, ok := b.info.Types[e]; ok && tv.Value != nil {
		return b.constant(e, tv, nil)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return b.expr(e.X)
	case *ast.Ident:
		return b.ident(e)
	case *ast.UnaryExpr:
		return b.unary(e)
	case *ast.BinaryExpr:
		return b.binary(e)
	case *ast.CallExpr:
		return b.call(e)
	case *ast.SelectorExpr:
		return b.selectorExpr(e)
	case *ast.IndexExpr:
		return b.indexExpr(e)
	case *ast.CompositeLit:
		return b.compositeLit(e)
	}
	b.rejectExpr(e)
	return nil
}

// ident translates a use of a parameter or local variable.
func (b *builder) ident(id *ast.Ident) model.Expr {
	switch obj := b.info.Uses[id].(type) {
	case *types.Var:
		if v := b.vars[obj]; v != nil {
			return &model.VarRef{Pos: id.Pos(), Var: v}
		}
		if b.bad[obj] {
			return nil
		}
		if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
			b.errorf(id.Pos(), "package-level variable %s is not allowed in operators: %s", id.Name, b.captureHint(id.Name))
			return nil
		}
		b.errorf(id.Pos(), "variable %s cannot be used here", id.Name)
	case *types.Func:
		b.errorf(id.Pos(), "function values are not allowed in operators: call %s instead", id.Name)
	case *types.Nil:
		b.errorf(id.Pos(), "nil is not allowed in operators: operators have no pointers, slices, maps or interfaces")
	case *types.Builtin:
		b.errorf(id.Pos(), "built-in function %s must be called", id.Name)
	case *types.TypeName:
		b.errorf(id.Pos(), "type %s is not an expression", id.Name)
	default:
		b.errorf(id.Pos(), "cannot use %s in an operator", id.Name)
	}
	return nil
}

// captureHint says what to write instead of reading the package-level
// variable name in the operator being translated: per-call state, as a
// field of the receiver of a method operator.
func (b *builder) captureHint(name string) string {
	op := b.od.op
	if op.State != nil {
		return fmt.Sprintf("operators cannot capture variables: add %s to the state struct %s and read it through the receiver, or declare a constant", name, op.State.GoName())
	}
	sig := "(…) …"
	if s, ok := b.od.fn.Type().(*types.Signature); ok {
		sig = strings.TrimPrefix(types.TypeString(s, types.RelativeTo(b.pkg)), "func")
	}
	return fmt.Sprintf("operators cannot capture variables: put %s in a state struct and write a method: //gocccl:op func (s S) %s%s { … s.%s … }, declared with runtime.<Algorithm>%s(S.%s) and run with .Bind(S{…}).Run(…); or declare a constant",
		name, op.Name, sig, name, algo.StatefulSuffix, op.Name)
}

// selector reports a selector expression that is not a constant: a
// package-level variable or function of another package, a field, a method.
func (b *builder) selector(e *ast.SelectorExpr) {
	name := types.ExprString(e)
	switch obj := b.info.Uses[e.Sel].(type) {
	case *types.Var:
		if obj.IsField() {
			b.errorf(e.Pos(), "cannot select field %s here", name)
			return
		}
		b.errorf(e.Pos(), "package-level variable %s is not allowed in operators: %s", name, b.captureHint(e.Sel.Name))
	case *types.Func:
		if sig, _ := obj.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
			b.errorf(e.Pos(), "method values are not allowed in operators: operators may call only other //gocccl:op functions")
			return
		}
		b.errorf(e.Pos(), "function values are not allowed in operators: call %s instead", name)
	default:
		b.errorf(e.Pos(), "%s cannot be used in an operator", name)
	}
}

// unaryOps maps the unary tokens of the subset to their operators; unary +
// is dropped.
var unaryOps = map[token.Token]model.UnaryOp{
	token.SUB: model.Neg,
	token.NOT: model.Not,
	token.XOR: model.BitNot,
}

// unary translates -x, +x, !x and ^x.
func (b *builder) unary(e *ast.UnaryExpr) model.Expr {
	switch e.Op {
	case token.ADD:
		return b.expr(e.X)
	case token.AND:
		b.errorf(e.OpPos, "taking addresses is not allowed in operators: operators have no pointers; pass and return values")
		return nil
	case token.ARROW:
		b.errorf(e.OpPos, "channel receives are not allowed in operators: pass the value as a parameter")
		return nil
	}
	op, ok := unaryOps[e.Op]
	if !ok {
		b.errorf(e.OpPos, "unary %s is not supported in operators", e.Op)
		return nil
	}
	x := b.expr(e.X)
	if x == nil || !b.checkUnary(e.OpPos, op, x) {
		return nil
	}
	return &model.Unary{Pos: e.OpPos, Op: op, X: x}
}

// binaryOps maps the binary tokens of the subset to their operators.
var binaryOps = map[token.Token]model.BinaryOp{
	token.ADD: model.Add, token.SUB: model.Sub, token.MUL: model.Mul,
	token.QUO: model.Quo, token.REM: model.Rem,
	token.AND: model.And, token.OR: model.Or, token.XOR: model.Xor,
	token.AND_NOT: model.AndNot, token.SHL: model.Shl, token.SHR: model.Shr,
	token.LAND: model.LAnd, token.LOR: model.LOr,
	token.EQL: model.Eql, token.NEQ: model.Neq,
	token.LSS: model.Lss, token.LEQ: model.Leq,
	token.GTR: model.Gtr, token.GEQ: model.Geq,
}

// binary translates a binary operation. Its type is the one go/types
// recorded: bool (or the named bool the context gives) for comparisons and
// logical operators, X's type otherwise.
func (b *builder) binary(e *ast.BinaryExpr) model.Expr {
	op, ok := binaryOps[e.Op]
	if !ok {
		b.errorf(e.OpPos, "operator %s is not supported in operators", e.Op)
		return nil
	}
	x := b.expr(e.X)
	var y model.Expr
	if op == model.Shl || op == model.Shr {
		y = b.shiftCount(e.Y)
	} else {
		y = b.expr(e.Y)
	}
	if x == nil || y == nil {
		return nil
	}
	t := x.Type()
	if tv, ok := b.info.Types[e]; ok {
		var problem string
		if t, problem = modelType(tv.Type); t == nil {
			b.errorf(e.OpPos, "%s", problem)
			return nil
		}
		if b.untypedInt != nil && isUntyped(tv.Type) && t.IsInteger() {
			t = b.untypedInt
		}
	}
	if !b.checkBinary(e.OpPos, op, x, y, t) {
		return nil
	}
	return &model.Binary{Pos: e.OpPos, Op: op, X: x, Y: y, T: t}
}

// shiftCount translates the count of a shift. An untyped constant count
// (x << 3) has no type of its own in Go; it becomes a uint. So does an
// untyped non-constant count such as (1 << s) % 7: go/types leaves it
// untyped, and gc computes it, and the untyped constants in it, as uint.
func (b *builder) shiftCount(e ast.Expr) model.Expr {
	tv, ok := b.info.Types[e]
	if ok && tv.Value != nil {
		return b.constant(e, tv, model.Basic(model.Uint))
	}
	if ok && isUntyped(tv.Type) {
		saved := b.untypedInt
		b.untypedInt = model.Basic(model.Uint)
		defer func() { b.untypedInt = saved }()
	}
	return b.expr(e)
}
