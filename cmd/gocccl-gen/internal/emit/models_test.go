package emit

import (
	"github.com/gocccl/gocccl/internal/algo"
	"go/constant"
	"go/token"
	"math"
	"math/big"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// Hand-built models, as the analyzer would produce them.

// src gives positions in a fake Go file of a test package.
type src struct {
	fset *token.FileSet
	file *token.File
}

func newSrc(name string) *src {
	fset := token.NewFileSet()
	content := strings.Repeat(strings.Repeat(" ", 79)+"\n", 200)
	f := fset.AddFile("/home/someone/go/src/example/"+name, -1, len(content))
	f.SetLinesForContent([]byte(content))
	return &src{fset: fset, file: f}
}

// at returns the position of line:col.
func (s *src) at(line, col int) token.Pos { return s.file.LineStart(line) + token.Pos(col-1) }

var (
	tBool    = model.Basic(model.Bool)
	tInt8    = model.Basic(model.Int8)
	tInt16   = model.Basic(model.Int16)
	tInt32   = model.Basic(model.Int32)
	tInt64   = model.Basic(model.Int64)
	tInt     = model.Basic(model.Int)
	tUint8   = model.Basic(model.Uint8)
	tUint16  = model.Basic(model.Uint16)
	tUint32  = model.Basic(model.Uint32)
	tUint64  = model.Basic(model.Uint64)
	tUint    = model.Basic(model.Uint)
	tFloat32 = model.Basic(model.Float32)
	tFloat64 = model.Basic(model.Float64)
)

func newVar(name string, t *model.Type, pos token.Pos) *model.Var {
	return &model.Var{Name: name, Type: t, Pos: pos}
}
func ref(v *model.Var) *model.VarRef { return &model.VarRef{Var: v, Pos: v.Pos} }
func bin(op model.BinaryOp, x, y model.Expr) *model.Binary {
	t := x.Type()
	if op.IsComparison() || op == model.LAnd || op == model.LOr {
		t = tBool
	}
	return &model.Binary{Op: op, X: x, Y: y, T: t, Pos: x.Position()}
}
func un(op model.UnaryOp, x model.Expr) *model.Unary {
	return &model.Unary{Op: op, X: x, Pos: x.Position()}
}
func conv(t *model.Type, x model.Expr) *model.Convert {
	return &model.Convert{T: t, X: x, Pos: x.Position()}
}
func cInt(v int64, t *model.Type) *model.Const {
	return &model.Const{Value: constant.MakeInt64(v), T: t}
}
func cUint(v uint64, t *model.Type) *model.Const {
	return &model.Const{Value: constant.MakeUint64(v), T: t}
}
func cFloat(v float64, t *model.Type) *model.Const {
	return &model.Const{Value: constant.MakeFloat64(v), T: t}
}
func cExact(s string, t *model.Type) *model.Const { // an exact rational, e.g. "1/10"
	r, _ := new(big.Rat).SetString(s)
	return &model.Const{Value: constant.Make(r), T: t}
}
func ret(x model.Expr) *model.ReturnStmt {
	return &model.ReturnStmt{Results: []model.Expr{x}, Pos: x.Position()}
}
func block(ss ...model.Stmt) *model.Block { return &model.Block{Stmts: ss} }
func decl(v *model.Var, x model.Expr) *model.DeclStmt {
	return &model.DeclStmt{Var: v, Init: x, Pos: v.Pos}
}

// binaryOp builds "func name(a, b T) T { return a op b }".
func binaryOp(s *src, line int, name string, t *model.Type, op model.BinaryOp) *model.Op {
	a, b := newVar("a", t, s.at(line, 10)), newVar("b", t, s.at(line, 13))
	return &model.Op{Name: name, Pos: s.at(line, 1), Params: []*model.Var{a, b}, Results: []*model.Type{t},
		Body: block(&model.ReturnStmt{Pos: s.at(line+1, 2), Results: []model.Expr{bin(op, ref(a), ref(b))}})}
}

// reducePkg: sums over float32 and int32, and a max with if/else.
func reducePkg() *model.Package {
	s := newSrc("sum.go")
	add := binaryOp(s, 12, "Add", tFloat32, model.Add)
	addi := binaryOp(s, 17, "AddI", tInt32, model.Add)
	a, b := newVar("a", tInt64, s.at(22, 10)), newVar("b", tInt64, s.at(22, 13))
	maxOp := &model.Op{Name: "Max", Pos: s.at(22, 1), Params: []*model.Var{a, b}, Results: []*model.Type{tInt64},
		Body: block(&model.IfStmt{Pos: s.at(23, 2), Cond: bin(model.Gtr, ref(a), ref(b)),
			Then: block(&model.ReturnStmt{Pos: s.at(24, 3), Results: []model.Expr{ref(a)}}),
			Else: block(&model.ReturnStmt{Pos: s.at(26, 3), Results: []model.Expr{ref(b)}})})}
	return &model.Package{
		Path: "example.com/demo/sum", Name: "sum", Dir: "", Fset: s.fset,
		Ops: []*model.Op{add, addi, maxOp},
		Instances: []*model.Instance{ // sorted by Key
			{Algorithm: algo.Reduce, Ops: []*model.Op{add}, Types: []*model.Type{tFloat32}, Pos: s.at(40, 8)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{addi}, Types: []*model.Type{tInt32}, Pos: s.at(41, 8)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{maxOp}, Types: []*model.Type{tInt64}, Pos: s.at(42, 8)},
		},
	}
}

// transformPkg: a unary transform int8 → float64 and a binary transform
// over a named type.
func transformPkg() *model.Package {
	s := newSrc("scale.go")
	x := newVar("x", tInt8, s.at(10, 15))
	toF := &model.Op{Name: "Scale", Pos: s.at(10, 1), Params: []*model.Var{x}, Results: []*model.Type{tFloat64},
		Body: block(ret(bin(model.Mul, conv(tFloat64, ref(x)), cExact("1/10", tFloat64))))}
	celsius := &model.Type{Kind: model.Float32, Name: "Celsius", Pkg: "example.com/demo/scale"}
	t, d := newVar("t", celsius, s.at(15, 12)), newVar("d", tInt16, s.at(15, 23))
	warm := &model.Op{Name: "Warm", Pos: s.at(15, 1), Params: []*model.Var{t, d}, Results: []*model.Type{celsius},
		Body: block(ret(bin(model.Add, ref(t), conv(celsius, ref(d)))))}
	return &model.Package{
		Path: "example.com/demo/scale", Name: "scale", Fset: s.fset,
		Ops: []*model.Op{toF, warm, precedenceOp(s, celsius)},
		Instances: []*model.Instance{
			{Algorithm: algo.BinaryTransform, Ops: []*model.Op{warm}, Types: []*model.Type{celsius, tInt16, celsius}, Pos: s.at(30, 9)},
			{Algorithm: algo.UnaryTransform, Ops: []*model.Op{toF}, Types: []*model.Type{tInt8, tFloat64}, Pos: s.at(31, 9)},
		},
	}
}

// precedenceOp builds an operator (no instance uses it) whose conversions
// are no operation in C++ and group compound operands:
//
//	func Prec(a, b float32, p, q bool) Celsius {
//		x := float32(a+b) * 2
//		y := -float32(a - b)
//		if !bool(p || q) && !bool(a < b) {
//			return Celsius(float32(a)+float32(b)) * 3
//		}
//		return Celsius(x + y)
//	}
func precedenceOp(s *src, celsius *model.Type) *model.Op {
	a, b := newVar("a", tFloat32, s.at(20, 11)), newVar("b", tFloat32, s.at(20, 14))
	p, q := newVar("p", tBool, s.at(20, 25)), newVar("q", tBool, s.at(20, 28))
	x, y := newVar("x", tFloat32, s.at(21, 2)), newVar("y", tFloat32, s.at(22, 2))
	sum := conv(celsius, bin(model.Add, conv(tFloat32, ref(a)), conv(tFloat32, ref(b))))
	return &model.Op{Name: "Prec", Pos: s.at(20, 1), Params: []*model.Var{a, b, p, q}, Results: []*model.Type{celsius},
		Body: block(
			decl(x, bin(model.Mul, conv(tFloat32, bin(model.Add, ref(a), ref(b))), cInt(2, tFloat32))),
			decl(y, un(model.Neg, conv(tFloat32, bin(model.Sub, ref(a), ref(b))))),
			&model.IfStmt{Pos: s.at(23, 2),
				Cond: bin(model.LAnd, un(model.Not, conv(tBool, bin(model.LOr, ref(p), ref(q)))),
					un(model.Not, conv(tBool, bin(model.Lss, ref(a), ref(b))))),
				Then: block(&model.ReturnStmt{Pos: s.at(24, 3), Results: []model.Expr{bin(model.Mul, sum, cInt(3, celsius))}})},
			&model.ReturnStmt{Pos: s.at(26, 2), Results: []model.Expr{conv(celsius, bin(model.Add, ref(x), ref(y)))}},
		)}
}

// semanticsPkg exercises the translation: an operator calling another one
// defined later, if/else chains with init statements, conversions, shifts,
// division, constants at their limits, named types, tuple assignment.
func semanticsPkg() *model.Package {
	s := newSrc("ops.go")
	// func Mix(a, b int64) int64 {
	//   q, r := a/b, a%b            (lowered to declarations + tuple assign)
	//   q, r = r, q
	//   if d := a - b; d < 0 { return Clamp(d) } else if d == 0 { return math.MinInt64 } else { return -d }
	// }
	a, b := newVar("a", tInt64, s.at(5, 10)), newVar("b", tInt64, s.at(5, 13))
	q, r := newVar("q", tInt64, s.at(6, 2)), newVar("r", tInt64, s.at(6, 5))
	d := newVar("d", tInt64, s.at(8, 5))
	mix := &model.Op{Name: "Mix", Pos: s.at(5, 1), Params: []*model.Var{a, b}, Results: []*model.Type{tInt64}}
	clampX := newVar("x", tInt64, s.at(20, 12))
	clamp := &model.Op{Name: "Clamp", Pos: s.at(20, 1), Params: []*model.Var{clampX}, Results: []*model.Type{tInt64}}
	mix.Body = block(
		decl(q, bin(model.Quo, ref(a), ref(b))),
		decl(r, bin(model.Rem, ref(a), ref(b))),
		&model.AssignStmt{Pos: s.at(7, 2), Targets: lvals(q, r), Values: []model.Expr{ref(r), ref(q)}},
		&model.IfStmt{Pos: s.at(8, 2), Init: decl(d, bin(model.Sub, ref(a), ref(q))),
			Cond: bin(model.Lss, ref(d), cInt(0, tInt64)),
			Then: block(&model.ReturnStmt{Pos: s.at(9, 3), Results: []model.Expr{&model.Call{Pos: s.at(9, 10), Op: clamp, Args: []model.Expr{ref(d)}}}}),
			Else: &model.IfStmt{Pos: s.at(10, 9), Cond: bin(model.Eql, ref(d), cInt(0, tInt64)),
				Then: block(&model.ReturnStmt{Pos: s.at(11, 3), Results: []model.Expr{cInt(math.MinInt64, tInt64)}}),
				Else: block(&model.ReturnStmt{Pos: s.at(13, 3), Results: []model.Expr{un(model.Neg, ref(d))}})}},
	)
	// func Clamp(x int64) int64 { var y int64; y = x >> 63; return (x ^ y) - y &^ 1 }
	y := newVar("y", tInt64, s.at(21, 6))
	clamp.Body = block(
		decl(y, nil),
		&model.AssignStmt{Pos: s.at(22, 2), Targets: lvals(y), Values: []model.Expr{bin(model.Shr, ref(clampX), cUint(63, tUint))}},
		ret(bin(model.Sub, bin(model.Xor, ref(clampX), ref(y)), bin(model.AndNot, ref(y), cInt(1, tInt64)))),
	)
	// func Bits(v uint16, n int8) uint32 {
	//   w := uint32(v) << n | uint32(v) >> (32 - n)
	//   return w * 0xFFFFFFFF + ^uint32(n) & uint32(math.MaxUint16)
	// }
	v, n := newVar("v", tUint16, s.at(30, 11)), newVar("n", tInt8, s.at(30, 21))
	w := newVar("w", tUint32, s.at(31, 2))
	bits := &model.Op{Name: "Bits", Pos: s.at(30, 1), Params: []*model.Var{v, n}, Results: []*model.Type{tUint32},
		Body: block(
			decl(w, bin(model.Or, bin(model.Shl, conv(tUint32, ref(v)), ref(n)),
				bin(model.Shr, conv(tUint32, ref(v)), bin(model.Sub, cInt(32, tInt8), ref(n))))),
			ret(bin(model.Add, bin(model.Mul, ref(w), cUint(math.MaxUint32, tUint32)),
				bin(model.And, un(model.BitNot, conv(tUint32, ref(n))), cUint(math.MaxUint16, tUint32)))),
		)}
	// func Floats(f float32, g float64) float64 {
	//   h := float64(f)*math.MaxFloat64 - g/0x1p-1074 + float64(float32(g)) + 1e300
	//   if !(h != h) && h > -1.5 { h = -h } else { h = h * math.SmallestNonzeroFloat32 }
	//   return h + float64(int32(h)) + float64(uint64(f)) + float64(int8(g))
	// }
	f, g := newVar("f", tFloat32, s.at(40, 13)), newVar("g", tFloat64, s.at(40, 24))
	h := newVar("h", tFloat64, s.at(41, 2))
	floats := &model.Op{Name: "Floats", Pos: s.at(40, 1), Params: []*model.Var{f, g}, Results: []*model.Type{tFloat64},
		Body: block(
			decl(h, bin(model.Add, bin(model.Add, bin(model.Sub,
				bin(model.Mul, conv(tFloat64, ref(f)), cFloat(math.MaxFloat64, tFloat64)),
				bin(model.Quo, ref(g), cFloat(math.SmallestNonzeroFloat64, tFloat64))),
				conv(tFloat64, conv(tFloat32, ref(g)))), cFloat(1e300, tFloat64))),
			&model.IfStmt{Pos: s.at(42, 2),
				Cond: bin(model.LAnd, un(model.Not, bin(model.Neq, ref(h), ref(h))), bin(model.Gtr, ref(h), cFloat(-1.5, tFloat64))),
				Then: block(&model.AssignStmt{Pos: s.at(42, 40), Targets: lvals(h), Values: []model.Expr{un(model.Neg, ref(h))}}),
				Else: block(&model.AssignStmt{Pos: s.at(42, 60), Targets: lvals(h),
					Values: []model.Expr{bin(model.Mul, ref(h), cFloat(math.SmallestNonzeroFloat32, tFloat64))}})},
			ret(bin(model.Add, bin(model.Add, bin(model.Add, ref(h),
				conv(tFloat64, conv(tInt32, ref(h)))),
				conv(tFloat64, conv(tUint64, ref(f)))),
				conv(tFloat64, conv(tInt8, ref(g))))),
		)}
	// func F32(a, b float32) float32 { return a*0.1 + b/3 - math.MaxFloat32 + (-0.5) }
	fa, fb := newVar("a", tFloat32, s.at(50, 10)), newVar("b", tFloat32, s.at(50, 13))
	f32 := &model.Op{Name: "F32", Pos: s.at(50, 1), Params: []*model.Var{fa, fb}, Results: []*model.Type{tFloat32},
		Body: block(ret(bin(model.Add, bin(model.Sub, bin(model.Add,
			bin(model.Mul, ref(fa), cExact("1/10", tFloat32)), bin(model.Quo, ref(fb), cInt(3, tFloat32))),
			cFloat(math.MaxFloat32, tFloat32)), cFloat(-0.5, tFloat32))))}
	// func Small(a, b int8) int8 { return a*b + -a/b%int8(-128) + int8(int16(a)<<b) }
	sa, sb := newVar("a", tInt8, s.at(60, 12)), newVar("b", tInt8, s.at(60, 15))
	small := &model.Op{Name: "Small", Pos: s.at(60, 1), Params: []*model.Var{sa, sb}, Results: []*model.Type{tInt8},
		Body: block(ret(bin(model.Add, bin(model.Add, bin(model.Mul, ref(sa), ref(sb)),
			bin(model.Rem, bin(model.Quo, un(model.Neg, ref(sa)), ref(sb)), cInt(-128, tInt8))),
			conv(tInt8, bin(model.Shl, conv(tInt16, ref(sa)), ref(sb))))))}
	// func Limits(u uint, i int) bool { return u == math.MaxUint64 || i == math.MinInt64 && uint8(i) > 255-1 || int(u) != i }
	u, i := newVar("u", tUint, s.at(70, 13)), newVar("i", tInt, s.at(70, 21))
	limits := &model.Op{Name: "Limits", Pos: s.at(70, 1), Params: []*model.Var{u, i}, Results: []*model.Type{tBool},
		Body: block(ret(bin(model.LOr, bin(model.LOr,
			bin(model.Eql, ref(u), cUint(math.MaxUint64, tUint)),
			bin(model.LAnd, bin(model.Eql, ref(i), cInt(math.MinInt64, tInt)), bin(model.Gtr, conv(tUint8, ref(i)), cInt(254, tUint8)))),
			bin(model.Neq, conv(tInt, ref(u)), ref(i)))))}
	// func Sign(x int16) int16 {   (an operator no instance uses)
	//   var ok bool; var f float32; _ = f
	//   { x, _ = x+1, x }
	//   if x > 0 { return 1 } else if y := -x; y > 0 { return -1 } else { _, ok = 0, !ok }
	//   return 0
	// }
	sx := newVar("x", tInt16, s.at(90, 11))
	ok, fl := newVar("ok", tBool, s.at(91, 6)), newVar("f", tFloat32, s.at(91, 19))
	sy := newVar("y", tInt16, s.at(94, 33))
	blank := &model.Var{Name: "_", Type: tFloat32}
	sign := &model.Op{Name: "Sign", Pos: s.at(90, 1), Params: []*model.Var{sx}, Results: []*model.Type{tInt16},
		Body: block(
			decl(ok, nil),
			decl(fl, nil),
			&model.AssignStmt{Pos: s.at(91, 30), Targets: lvals(blank), Values: []model.Expr{ref(fl)}},
			&model.Block{Pos: s.at(92, 2), Stmts: []model.Stmt{
				&model.AssignStmt{Pos: s.at(93, 3), Targets: lvals(sx, nil), Values: []model.Expr{bin(model.Add, ref(sx), cInt(1, tInt16)), ref(sx)}},
			}},
			&model.IfStmt{Pos: s.at(94, 2), Cond: bin(model.Gtr, ref(sx), cInt(0, tInt16)),
				Then: block(&model.ReturnStmt{Pos: s.at(94, 14), Results: []model.Expr{cInt(1, tInt16)}}),
				Else: &model.IfStmt{Pos: s.at(94, 30), Init: decl(sy, un(model.Neg, ref(sx))), Cond: bin(model.Gtr, ref(sy), cInt(0, tInt16)),
					Then: block(&model.ReturnStmt{Pos: s.at(95, 3), Results: []model.Expr{cInt(-1, tInt16)}}),
					Else: block(&model.AssignStmt{Pos: s.at(97, 3), Targets: lvals(nil, ok), Values: []model.Expr{cInt(0, tInt16), un(model.Not, ref(ok))}})}},
			&model.ReturnStmt{Pos: s.at(99, 2), Results: []model.Expr{cInt(0, tInt16)}},
		)}
	return &model.Package{
		Path: "example.com/demo/ops", Name: "ops", Fset: s.fset,
		Ops: []*model.Op{mix, clamp, bits, floats, f32, small, limits, sign},
		Instances: []*model.Instance{
			{Algorithm: algo.BinaryTransform, Ops: []*model.Op{bits}, Types: []*model.Type{tUint16, tInt8, tUint32}, Pos: s.at(80, 9)},
			{Algorithm: algo.BinaryTransform, Ops: []*model.Op{floats}, Types: []*model.Type{tFloat32, tFloat64, tFloat64}, Pos: s.at(81, 9)},
			{Algorithm: algo.BinaryTransform, Ops: []*model.Op{limits}, Types: []*model.Type{tUint, tInt, tBool}, Pos: s.at(85, 9)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{f32}, Types: []*model.Type{tFloat32}, Pos: s.at(82, 9)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{mix}, Types: []*model.Type{tInt64}, Pos: s.at(83, 9)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{small}, Types: []*model.Type{tInt8}, Pos: s.at(84, 9)},
		},
	}
}

// lvals returns references to vs as assignment targets.
func lvals(vs ...*model.Var) []model.Expr {
	out := make([]model.Expr, len(vs))
	for i, v := range vs {
		if v != nil && v.Name != "_" {
			out[i] = ref(v)
		}
	}
	return out
}
