package analyzer

import (
	"go/token"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// The checks in this file hold for every package that compiles; they guard
// the model's invariants (the emitter relies on them) when Analyze is given
// code that does not type-check, as a fuzzer does. Each returns false after
// reporting.

// sameType checks that e has type t.
func (b *builder) sameType(e model.Expr, t *model.Type) bool {
	if e == nil || t == nil || e.Type() == nil {
		return false
	}
	if !e.Type().AssignableTo(t) {
		b.errorf(e.Position(), "mismatched types %s and %s", e.Type().GoName(), t.GoName())
		return false
	}
	return true
}

// operandClass is what a binary operator needs of its operands.
type operandClass int

const (
	anyOperand operandClass = iota // == and !=: any type
	boolOperand
	numericOperand
	integerOperand
	orderedOperand // <, <=, >, >=: numeric
)

var binaryClasses = map[model.BinaryOp]operandClass{
	model.Add: numericOperand, model.Sub: numericOperand,
	model.Mul: numericOperand, model.Quo: numericOperand,
	model.Rem: integerOperand, model.And: integerOperand,
	model.Or: integerOperand, model.Xor: integerOperand,
	model.AndNot: integerOperand, model.Shl: integerOperand,
	model.Shr: integerOperand, model.LAnd: boolOperand, model.LOr: boolOperand,
	model.Eql: anyOperand, model.Neq: anyOperand,
	model.Lss: orderedOperand, model.Leq: orderedOperand,
	model.Gtr: orderedOperand, model.Geq: orderedOperand,
}

func (c operandClass) accepts(t *model.Type) bool {
	switch c {
	case boolOperand:
		return t.IsBool()
	case numericOperand:
		return t.IsNumeric() || t.IsComplex()
	case orderedOperand:
		return t.IsNumeric()
	case integerOperand:
		return t.IsInteger()
	}
	return true
}

// checkBinary checks the operand and result types of a binary operation.
func (b *builder) checkBinary(pos token.Pos, op model.BinaryOp, x, y model.Expr, t *model.Type) bool {
	class := binaryClasses[op]
	if x.Type().IsHalf() && class != anyOperand {
		b.errorf(pos, "%s", halfOpProblem(op, x.Type()))
		return false
	}
	if !class.accepts(x.Type()) || !class.accepts(y.Type()) {
		b.errorf(pos, "invalid operation: operator %s not defined on %s", op, x.Type().GoName())
		return false
	}
	if op != model.Shl && op != model.Shr && !b.sameType(y, x.Type()) {
		return false
	}
	switch {
	case op.IsComparison() || op == model.LAnd || op == model.LOr:
		if !t.IsBool() {
			b.errorf(pos, "invalid operation: %s yields a boolean, not %s", op, t.GoName())
			return false
		}
	case !t.Identical(x.Type()):
		b.errorf(pos, "mismatched types %s and %s", x.Type().GoName(), t.GoName())
		return false
	}
	return true
}

// checkUnary checks the operand of a unary operation.
func (b *builder) checkUnary(pos token.Pos, op model.UnaryOp, x model.Expr) bool {
	t := x.Type()
	ok := map[model.UnaryOp]bool{model.Neg: t.IsNumeric() || t.IsComplex(), model.Not: t.IsBool(), model.BitNot: t.IsInteger()}[op]
	if !ok && t.IsHalf() && op == model.Neg {
		b.errorf(pos, "operator - on half.%s is not allowed in operators: Go negates the bit pattern as a uint16; call its method Neg, x.Neg()", t.Name)
		return false
	}
	if !ok {
		b.errorf(pos, "invalid operation: unary operator not defined on %s", t.GoName())
	}
	return ok
}

// checkConvert checks that x converts to t: numeric to numeric, complex to
// complex, or bool to bool.
func (b *builder) checkConvert(pos token.Pos, x model.Expr, t *model.Type) bool {
	from := x.Type()
	if (from.IsNumeric() && t.IsNumeric()) || (from.IsBool() && t.IsBool()) || (from.IsComplex() && t.IsComplex()) {
		return true
	}
	if from.IsHalf() || t.IsHalf() {
		// A half value converts to and from its bit pattern, uint16, and
		// to its own kind; Go would convert other numbers as integers.
		if from.Kind == t.Kind || (from.IsHalf() && t.Kind == model.Uint16) || (t.IsHalf() && from.Kind == model.Uint16) {
			return true
		}
		b.errorf(pos, "cannot convert %s to %s in an operator: a half value converts only to and from uint16, its bit pattern "+
			"(Go would convert other numbers as integers); use half.FromFloat32, half.BFloat16FromFloat32 and the method Float32", from.GoName(), t.GoName())
		return false
	}
	b.errorf(pos, "cannot convert %s to %s", from.GoName(), t.GoName())
	return false
}

// checkCond checks that an if condition is a boolean.
func (b *builder) checkCond(cond model.Expr) bool {
	if !cond.Type().IsBool() {
		b.errorf(cond.Position(), "non-boolean condition in if statement")
		return false
	}
	return true
}
