package model

import (
	"go/constant"
	"go/token"
)

// Stmt is a statement of an operator body.
type Stmt interface {
	Position() token.Pos
	stmt()
}

// Expr is a typed expression of an operator body.
type Expr interface {
	Position() token.Pos
	Type() *Type
	expr()
}

// Block is a sequence of statements with its own scope.
type Block struct {
	Pos   token.Pos
	Stmts []Stmt
}

// DeclStmt declares a local variable: "var x T = init", "x := init".
// A nil Init means Go's zero value.
type DeclStmt struct {
	Pos  token.Pos
	Var  *Var
	Init Expr
}

// AssignStmt assigns Values to Targets as Go's tuple assignment does: every
// value is evaluated before any target is written. Compound forms ("x += y",
// "x++") are lowered to plain assignments by the analyzer.
type AssignStmt struct {
	Pos     token.Pos
	Targets []*Var
	Values  []Expr
}

// IfStmt is "if Init; Cond { Then } else Else". Init may be nil; Else is nil,
// a *Block or an *IfStmt.
type IfStmt struct {
	Pos  token.Pos
	Init Stmt
	Cond Expr
	Then *Block
	Else Stmt
}

// ReturnStmt returns the operator's results.
type ReturnStmt struct {
	Pos     token.Pos
	Results []Expr
}

func (s *Block) Position() token.Pos      { return s.Pos }
func (s *DeclStmt) Position() token.Pos   { return s.Pos }
func (s *AssignStmt) Position() token.Pos { return s.Pos }
func (s *IfStmt) Position() token.Pos     { return s.Pos }
func (s *ReturnStmt) Position() token.Pos { return s.Pos }

func (*Block) stmt()      {}
func (*DeclStmt) stmt()   {}
func (*AssignStmt) stmt() {}
func (*IfStmt) stmt()     {}
func (*ReturnStmt) stmt() {}

// VarRef reads a parameter or local variable.
type VarRef struct {
	Pos token.Pos
	Var *Var
}

// Const is a constant of type T; Value is exact (untyped constants have
// already been converted to their final type by the analyzer).
type Const struct {
	Pos   token.Pos
	Value constant.Value
	T     *Type
}

// UnaryOp is a unary operator.
type UnaryOp int

// Unary operators, with Go's meaning.
const (
	Neg    UnaryOp = iota + 1 // -x
	Not                       // !x
	BitNot                    // ^x
)

// Unary is a unary operation; its type is X's type.
type Unary struct {
	Pos token.Pos
	Op  UnaryOp
	X   Expr
}

// BinaryOp is a binary operator.
type BinaryOp int

// Binary operators, with Go's meaning (not C's: see the emitter).
const (
	Add    BinaryOp = iota + 1 // +
	Sub                        // -
	Mul                        // *
	Quo                        // /
	Rem                        // %
	And                        // &
	Or                         // |
	Xor                        // ^
	AndNot                     // &^
	Shl                        // <<
	Shr                        // >>
	LAnd                       // &&
	LOr                        // ||
	Eql                        // ==
	Neq                        // !=
	Lss                        // <
	Leq                        // <=
	Gtr                        // >
	Geq                        // >=
)

var binaryOpNames = [...]string{
	Add: "+", Sub: "-", Mul: "*", Quo: "/", Rem: "%",
	And: "&", Or: "|", Xor: "^", AndNot: "&^", Shl: "<<", Shr: ">>",
	LAnd: "&&", LOr: "||",
	Eql: "==", Neq: "!=", Lss: "<", Leq: "<=", Gtr: ">", Geq: ">=",
}

// String returns the operator's Go token.
func (op BinaryOp) String() string {
	if op <= 0 || int(op) >= len(binaryOpNames) {
		return "?"
	}
	return binaryOpNames[op]
}

// IsComparison reports whether op yields a bool from two operands of one type.
func (op BinaryOp) IsComparison() bool { return op >= Eql && op <= Geq }

// Binary is a binary operation. T is the result type: bool for comparisons
// and logical operators, X's type otherwise (for shifts, X's type; Y may be
// any integer type).
type Binary struct {
	Pos  token.Pos
	Op   BinaryOp
	X, Y Expr
	T    *Type
}

// Convert is the conversion T(X).
type Convert struct {
	Pos token.Pos
	X   Expr
	T   *Type
}

// Call calls another operator with a single result.
type Call struct {
	Pos  token.Pos
	Op   *Op
	Args []Expr
}

func (e *VarRef) Position() token.Pos  { return e.Pos }
func (e *Const) Position() token.Pos   { return e.Pos }
func (e *Unary) Position() token.Pos   { return e.Pos }
func (e *Binary) Position() token.Pos  { return e.Pos }
func (e *Convert) Position() token.Pos { return e.Pos }
func (e *Call) Position() token.Pos    { return e.Pos }

func (e *VarRef) Type() *Type  { return e.Var.Type }
func (e *Const) Type() *Type   { return e.T }
func (e *Unary) Type() *Type   { return e.X.Type() }
func (e *Binary) Type() *Type  { return e.T }
func (e *Convert) Type() *Type { return e.T }
func (e *Call) Type() *Type    { return e.Op.Results[0] }

func (*VarRef) expr()  {}
func (*Const) expr()   {}
func (*Unary) expr()   {}
func (*Binary) expr()  {}
func (*Convert) expr() {}
func (*Call) expr()    {}
