package model

import (
	"github.com/gocccl/gocccl/internal/algo"
	"go/constant"
	"go/token"
	"testing"
)

func TestFormat(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/p/ops.go", -1, 200)
	f.SetLinesForContent([]byte("line1\nline2\nline3\nline4\nline5\n" + string(make([]byte, 170))))
	pos := func(off int) token.Pos { return f.Pos(off) }

	celsius := &Type{Kind: Float64, Name: "Celsius", Pkg: "example.com/p"}
	other := &Type{Kind: Int32, Name: "Level", Pkg: "example.com/q"}
	a := &Var{Name: "a", Type: Basic(Float32), Pos: pos(6)}
	b := &Var{Name: "b", Type: Basic(Float32), Pos: pos(8)}
	x := &Var{Name: "x_1", Type: Basic(Float32), Pos: pos(12)}
	add := &Op{Name: "Add", Pos: pos(1), Params: []*Var{a, b}, Results: []*Type{Basic(Float32)}, FastMath: true}
	add.Body = &Block{Pos: pos(10), Stmts: []Stmt{
		&DeclStmt{Pos: pos(12), Var: x, Init: &Binary{Pos: pos(13), Op: Add, X: &VarRef{Pos: pos(12), Var: a}, Y: &Const{Pos: pos(14), Value: constant.MakeFloat64(0.1), T: Basic(Float32)}, T: Basic(Float32)}},
		&AssignStmt{Pos: pos(18), Targets: []Expr{&VarRef{Pos: pos(18), Var: x}}, Values: []Expr{&Unary{Pos: pos(19), Op: Neg, X: &VarRef{Pos: pos(20), Var: x}}}},
		&IfStmt{Pos: pos(24), Cond: &Binary{Pos: pos(25), Op: Lss, X: &VarRef{Pos: pos(24), Var: a}, Y: &VarRef{Pos: pos(26), Var: b}, T: Basic(Bool)},
			Then: &Block{Pos: pos(27), Stmts: []Stmt{&ReturnStmt{Pos: pos(28), Results: []Expr{&Call{Pos: pos(29), Op: nil}}}}},
			Else: &Block{Pos: pos(30)}},
		&ReturnStmt{Pos: pos(31), Results: []Expr{&Convert{Pos: pos(32), X: &Const{Pos: pos(33), Value: constant.MakeInt64(7), T: other}, T: Basic(Float32)}}},
		nil,
	}}
	conv := &Op{Name: "ToF", Pos: pos(40), Params: []*Var{{Name: "c", Type: celsius, Pos: pos(41)}}, Results: []*Type{Basic(Float64)}}
	p := &Package{
		Path: "example.com/p", Name: "p", Dir: "/src/p", Fset: fset,
		Ops:       []*Op{add, conv},
		Instances: []*Instance{{Algorithm: algo.Reduce, Ops: []*Op{add}, Types: []*Type{Basic(Float32)}, Pos: pos(50)}},
	}
	want := `package p example.com/p

op Add fastmath @ ops.go:1:2
  param a float32 @ 2:1
  param b float32 @ 2:3
  results float32
  block @ 2:5
    decl x_1 float32 @ 3:1 (var @ 3:1)
      binary + float32 @ 3:2
        var a float32 @ 3:1
        const 0.1 float32 @ 3:3
    assign x_1 @ 4:1
      unary - float32 @ 4:2
        var x_1 float32 @ 4:3
    if @ 5:1
      cond
        binary < bool @ 5:2
          var a float32 @ 5:1
          var b float32 @ 5:3
      then
        block @ 5:4
          return @ 5:5
            call <nil> <nil type> @ 5:6
      else
        block @ 6:1
    return @ 6:2
      convert float32 @ 6:3
        const 7 example.com/q.Level(int32) @ 6:4
    <nil stmt>

op ToF @ ops.go:6:11
  param c Celsius(float64) @ 6:12
  results float64
  body <nil>

instance Reduce(Add) [float32] @ ops.go:6:21
`
	if got := Format(p); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
}
