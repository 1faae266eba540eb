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

// AssignStmt assigns Values to Targets as Go's tuple assignment does: the
// index operands of the targets and every value are evaluated before any
// target is written. Compound forms ("x += y", "x++") are lowered to plain
// assignments by the analyzer.
//
// A target is a VarRef, or a Selector or Index whose innermost operand is
// a VarRef; nil is the blank identifier. Values has one element per target,
// or is a single call of an operator with one result per target.
type AssignStmt struct {
	Pos     token.Pos
	Targets []Expr
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

// ReturnStmt returns the operator's results: one expression per result,
// or a single call of an operator with the same result types.
type ReturnStmt struct {
	Pos     token.Pos
	Results []Expr
}

// ForStmt is "for Init; Cond; Post { Body }". Init and Post may be nil; a
// nil Cond loops until a break or return. Range loops are lowered to this
// form by the analyzer. Label is the Go label of a labeled loop.
type ForStmt struct {
	Pos   token.Pos
	Label string
	Init  Stmt
	Cond  Expr
	Post  Stmt
	Body  *Block
}

// SwitchStmt is an expression switch: "switch Init; Tag { Clauses }". A nil
// Tag is a tagless switch (each case expression is a bool). The clauses are
// in source order; at most one is the default.
type SwitchStmt struct {
	Pos     token.Pos
	Label   string
	Init    Stmt
	Tag     Expr
	Clauses []*CaseClause
}

// CaseClause is one "case List:" (or "default:" when Default is set) of a
// switch. Fallthrough is set when its last statement is "fallthrough".
type CaseClause struct {
	Pos         token.Pos
	Default     bool
	List        []Expr
	Body        []Stmt
	Fallthrough bool
}

// BranchKind is the kind of a BranchStmt.
type BranchKind int

// The branch statements.
const (
	Break BranchKind = iota + 1
	Continue
)

// BranchStmt is break or continue. Target is the *ForStmt or *SwitchStmt
// it leaves or continues (a continue always targets a loop); Label is the Go
// label when the statement names one.
type BranchStmt struct {
	Pos    token.Pos
	Kind   BranchKind
	Label  string
	Target Stmt
}

func (s *Block) Position() token.Pos      { return s.Pos }
func (s *DeclStmt) Position() token.Pos   { return s.Pos }
func (s *AssignStmt) Position() token.Pos { return s.Pos }
func (s *IfStmt) Position() token.Pos     { return s.Pos }
func (s *ReturnStmt) Position() token.Pos { return s.Pos }
func (s *ForStmt) Position() token.Pos    { return s.Pos }
func (s *SwitchStmt) Position() token.Pos { return s.Pos }
func (s *BranchStmt) Position() token.Pos { return s.Pos }

func (*Block) stmt()      {}
func (*DeclStmt) stmt()   {}
func (*AssignStmt) stmt() {}
func (*IfStmt) stmt()     {}
func (*ReturnStmt) stmt() {}
func (*ForStmt) stmt()    {}
func (*SwitchStmt) stmt() {}
func (*BranchStmt) stmt() {}

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

// Call calls another operator, of this package or another. A call of an
// operator with several results has a Tuple type; it appears only as the
// single value of an assignment or return. Args has one element per
// parameter, or is a single call whose results are the arguments.
type Call struct {
	Pos  token.Pos
	Op   *Op
	Args []Expr
}

// Selector reads field Field (an index into X's Fields) of the struct X.
type Selector struct {
	Pos   token.Pos
	X     Expr
	Field int
}

// Index reads element Index of the array X. Go panics on an index out of
// range; see docs/OPERATORS.md for what the GPU does.
type Index struct {
	Pos   token.Pos
	X     Expr
	Index Expr
}

// Composite is a struct or array value: "T{…}". Elems has one element per
// field or array element, in order; a nil element is that field's zero
// value.
type Composite struct {
	Pos   token.Pos
	T     *Type
	Elems []Expr
}

// Intrinsic calls a function the emitter maps onto CUDA: the built-ins min
// and max, and the supported functions of math and math/bits. Func is the
// Go name as written with its package name: "min", "math.Sqrt",
// "bits.OnesCount32". T is the result type (a tuple for bits.Add64 and the
// like).
type Intrinsic struct {
	Pos  token.Pos
	Func string
	Args []Expr
	T    *Type
}

func (e *VarRef) Position() token.Pos    { return e.Pos }
func (e *Const) Position() token.Pos     { return e.Pos }
func (e *Unary) Position() token.Pos     { return e.Pos }
func (e *Binary) Position() token.Pos    { return e.Pos }
func (e *Convert) Position() token.Pos   { return e.Pos }
func (e *Call) Position() token.Pos      { return e.Pos }
func (e *Selector) Position() token.Pos  { return e.Pos }
func (e *Index) Position() token.Pos     { return e.Pos }
func (e *Composite) Position() token.Pos { return e.Pos }
func (e *Intrinsic) Position() token.Pos { return e.Pos }

func (e *VarRef) Type() *Type  { return e.Var.Type }
func (e *Const) Type() *Type   { return e.T }
func (e *Unary) Type() *Type   { return e.X.Type() }
func (e *Binary) Type() *Type  { return e.T }
func (e *Convert) Type() *Type { return e.T }
func (e *Call) Type() *Type {
	if len(e.Op.Results) == 1 {
		return e.Op.Results[0]
	}
	return TupleOf(e.Op.Results)
}
func (e *Selector) Type() *Type  { return e.X.Type().Fields[e.Field].Type }
func (e *Index) Type() *Type     { return e.X.Type().Elem }
func (e *Composite) Type() *Type { return e.T }
func (e *Intrinsic) Type() *Type { return e.T }

func (*VarRef) expr()    {}
func (*Const) expr()     {}
func (*Unary) expr()     {}
func (*Binary) expr()    {}
func (*Convert) expr()   {}
func (*Call) expr()      {}
func (*Selector) expr()  {}
func (*Index) expr()     {}
func (*Composite) expr() {}
func (*Intrinsic) expr() {}
