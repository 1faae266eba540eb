package emit

import (
	"go/constant"
	"go/token"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
)

var (
	tComplex64  = model.Basic(model.Complex64)
	tComplex128 = model.Basic(model.Complex128)
)

// cComplex is the constant re + im·i of type t.
func cComplex(re, im float64, t *model.Type) *model.Const {
	v := constant.BinaryOp(constant.MakeFloat64(re), token.ADD, constant.MakeImag(constant.MakeFloat64(im)))
	return &model.Const{Value: v, T: t}
}

func intrinsic(pos token.Pos, fn string, t *model.Type, args ...model.Expr) *model.Intrinsic {
	return &model.Intrinsic{Pos: pos, Func: fn, Args: args, T: t}
}

// complexPkg: complex64 and complex128 operators (gocomplex.cuh): a Reduce
// of complex128 with a product, a binary transform that divides complex64
// values and adds a constant, and a unary transform through a conversion,
// cmplx.Exp, comparisons and the built-ins complex, real and imag.
func complexPkg() *model.Package {
	s := newSrc("phasor.go")
	// func Mul(a, b complex128) complex128 { return a * b }
	mul := binaryOp(s, 10, "Mul", tComplex128, model.Mul)
	// func Quo(a, b complex64) complex64 { return -(a / b) + (1 - 0.5i) }
	qa, qb := newVar("a", tComplex64, s.at(15, 10)), newVar("b", tComplex64, s.at(15, 13))
	quo := &model.Op{Name: "Quo", Pos: s.at(15, 1), Params: []*model.Var{qa, qb}, Results: []*model.Type{tComplex64},
		Body: block(ret(bin(model.Add, un(model.Neg, bin(model.Quo, ref(qa), ref(qb))), cComplex(1, -0.5, tComplex64))))}
	// func Rotate(x complex64) complex128 {
	//	w := complex128(x) * 2i
	//	e := cmplx.Exp(w) - w
	//	if e != e || e == 1 {
	//		return complex(real(e), imag(w)-1)
	//	}
	//	return e
	// }
	x := newVar("x", tComplex64, s.at(20, 13))
	w, e := newVar("w", tComplex128, s.at(21, 2)), newVar("e", tComplex128, s.at(22, 2))
	rotate := &model.Op{Name: "Rotate", Pos: s.at(20, 1), Params: []*model.Var{x}, Results: []*model.Type{tComplex128},
		Body: block(
			decl(w, bin(model.Mul, conv(tComplex128, ref(x)), cComplex(0, 2, tComplex128))),
			decl(e, bin(model.Sub, intrinsic(s.at(22, 7), "cmplx.Exp", tComplex128, ref(w)), ref(w))),
			&model.IfStmt{Pos: s.at(23, 2),
				Cond: bin(model.LOr, bin(model.Neq, ref(e), ref(e)), bin(model.Eql, ref(e), cComplex(1, 0, tComplex128))),
				Then: block(&model.ReturnStmt{Pos: s.at(24, 3), Results: []model.Expr{intrinsic(s.at(24, 10), "complex", tComplex128,
					intrinsic(s.at(24, 18), "real", tFloat64, ref(e)),
					bin(model.Sub, intrinsic(s.at(24, 27), "imag", tFloat64, ref(w)), cInt(1, tFloat64)))}})},
			&model.ReturnStmt{Pos: s.at(26, 2), Results: []model.Expr{ref(e)}},
		)}
	return &model.Package{
		Path: "example.com/demo/phasor", Name: "phasor", Fset: s.fset,
		Ops: []*model.Op{mul, quo, rotate},
		Instances: []*model.Instance{
			{Algorithm: algo.BinaryTransform, Ops: []*model.Op{quo}, Types: []*model.Type{tComplex64, tComplex64, tComplex64}, Pos: s.at(30, 9)},
			{Algorithm: algo.Reduce, Ops: []*model.Op{mul}, Types: []*model.Type{tComplex128}, Pos: s.at(31, 9)},
			{Algorithm: algo.UnaryTransform, Ops: []*model.Op{rotate}, Types: []*model.Type{tComplex64, tComplex128}, Pos: s.at(32, 9)},
		},
	}
}

const complexGo = `package phasor

import "math/cmplx"

func Mul(a, b complex128) complex128 { return a * b }
func Quo(a, b complex64) complex64   { return -(a / b) + (1 - 0.5i) }

func Rotate(x complex64) complex128 {
	w := complex128(x) * 2i
	e := cmplx.Exp(w) - w
	if e != e || e == 1 {
		return complex(real(e), imag(w)-1)
	}
	return e
}
`
