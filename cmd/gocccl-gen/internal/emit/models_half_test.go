package emit

import (
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/internal/algo"
)

var (
	tFloat16  = intrinsics.HalfType(model.Float16)
	tBFloat16 = intrinsics.HalfType(model.BFloat16)
)

// halfPkg: half.Float16 and half.BFloat16 operators (gohalf.cuh): a Reduce
// of Float16 with Add, a TransformReduce that widens Float16 to float32 and
// sums in float32, and a unary transform of BFloat16 through a bit-pattern
// constant, ==, a conversion to uint16, Mul, Neg and BFloat16FromFloat32.
func halfPkg() *model.Package {
	s := newSrc("halves.go")
	// func Add(a, b half.Float16) half.Float16 { return a.Add(b) }
	aa, ab := newVar("a", tFloat16, s.at(10, 10)), newVar("b", tFloat16, s.at(10, 13))
	add := &model.Op{Name: "Add", Pos: s.at(10, 1), Params: []*model.Var{aa, ab}, Results: []*model.Type{tFloat16},
		Body: block(ret(intrinsic(s.at(10, 52), "half.Float16.Add", tFloat16, ref(aa), ref(ab))))}
	// func Widen(h half.Float16) float32 { return h.Float32() }
	h := newVar("h", tFloat16, s.at(13, 12))
	widen := &model.Op{Name: "Widen", Pos: s.at(13, 1), Params: []*model.Var{h}, Results: []*model.Type{tFloat32},
		Body: block(ret(intrinsic(s.at(13, 45), "half.Float16.Float32", tFloat32, ref(h))))}
	// func Add32(a, b float32) float32 { return a + b }
	add32 := binaryOp(s, 16, "Add32", tFloat32, model.Add)
	// func Square(b half.BFloat16) half.BFloat16 {
	//	if b == 0x7FC0 || uint16(b) == 1 {
	//		return half.BFloat16FromFloat32(float32(uint16(b)))
	//	}
	//	return b.Mul(b.Neg())
	// }
	b := newVar("b", tBFloat16, s.at(20, 13))
	square := &model.Op{Name: "Square", Pos: s.at(20, 1), Params: []*model.Var{b}, Results: []*model.Type{tBFloat16},
		Body: block(
			&model.IfStmt{Pos: s.at(21, 2),
				Cond: bin(model.LOr, bin(model.Eql, ref(b), cUint(0x7FC0, tBFloat16)), bin(model.Eql, conv(tUint16, ref(b)), cUint(1, tUint16))),
				Then: block(&model.ReturnStmt{Pos: s.at(22, 3), Results: []model.Expr{intrinsic(s.at(22, 10), "half.BFloat16FromFloat32", tBFloat16,
					conv(tFloat32, conv(tUint16, ref(b))))}})},
			&model.ReturnStmt{Pos: s.at(24, 2), Results: []model.Expr{intrinsic(s.at(24, 9), "half.BFloat16.Mul", tBFloat16,
				ref(b), intrinsic(s.at(24, 15), "half.BFloat16.Neg", tBFloat16, ref(b)))}},
		)}
	return &model.Package{
		Path: "example.com/demo/halves", Name: "halves", Fset: s.fset,
		Ops: []*model.Op{add, widen, add32, square},
		Instances: []*model.Instance{
			{Algorithm: algo.Reduce, Ops: []*model.Op{add}, Types: []*model.Type{tFloat16}, Pos: s.at(30, 9)},
			{Algorithm: algo.TransformReduce, Ops: []*model.Op{widen, add32}, Types: []*model.Type{tFloat16, tFloat32}, Pos: s.at(31, 9)},
			{Algorithm: algo.UnaryTransform, Ops: []*model.Op{square}, Types: []*model.Type{tBFloat16, tBFloat16}, Pos: s.at(32, 9)},
		},
	}
}

const halfGo = `package halves

import "github.com/gocccl/gocccl/half"

func Add(a, b half.Float16) half.Float16 { return a.Add(b) }

func Widen(h half.Float16) float32 { return h.Float32() }

func Add32(a, b float32) float32 { return a + b }

func Square(b half.BFloat16) half.BFloat16 {
	if b == 0x7FC0 || uint16(b) == 1 {
		return half.BFloat16FromFloat32(float32(uint16(b)))
	}
	return b.Mul(b.Neg())
}
`
