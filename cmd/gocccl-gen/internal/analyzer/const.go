package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// constant translates an expression that go/types evaluated to a constant
// into a model.Const of its final type. An untyped constant takes the type
// go/types recorded for it, else untyped (when given), else its default type.
func (b *builder) constant(e ast.Expr, tv types.TypeAndValue, untyped *model.Type) model.Expr {
	t, problem := modelType(tv.Type)
	if untyped == nil && b.untypedInt != nil && tv.Value.Kind() == constant.Int {
		untyped = b.untypedInt
	}
	if untyped != nil && isUntyped(tv.Type) {
		t = untyped
	}
	if t == nil {
		b.errorf(e.Pos(), "%s", problem)
		return nil
	}
	v, ok := convertConst(tv.Value, t)
	if !ok {
		b.errorf(e.Pos(), "constant %s cannot be represented as %s", tv.Value, t.GoName())
		return nil
	}
	return &model.Const{Pos: e.Pos(), Value: v, T: t}
}

// isUntyped reports whether t is an untyped basic type.
func isUntyped(t types.Type) bool {
	basic, ok := t.(*types.Basic)
	return ok && basic.Info()&types.IsUntyped != 0
}

// convertConst converts v to a value of t exactly as Go does for typed
// constants: booleans stay booleans, integers must fit t exactly, floats are
// rounded to t's precision and must not overflow. The result is normalized:
// a constant.Bool, an Int that fits in int64 or uint64 by t's signedness,
// or a Float that float64 holds exactly.
func convertConst(v constant.Value, t *model.Type) (constant.Value, bool) {
	switch {
	case t.IsBool():
		if v.Kind() != constant.Bool {
			return nil, false
		}
		return constant.MakeBool(constant.BoolVal(v)), true
	case t.IsInteger():
		return convertInt(constant.ToInt(v), t)
	case t.IsHalf():
		// A constant of a half type is its bit pattern, as Go converts it.
		return convertInt(constant.ToInt(v), model.Basic(model.Uint16))
	case t.IsComplex():
		c := constant.ToComplex(v)
		if c.Kind() != constant.Complex && c.Kind() != constant.Float && c.Kind() != constant.Int {
			return nil, false
		}
		re, ok1 := convertConst(constant.Real(c), t.PartType())
		im, ok2 := convertConst(constant.Imag(c), t.PartType())
		if !ok1 || !ok2 {
			return nil, false
		}
		return constant.BinaryOp(re, token.ADD, constant.MakeImag(im)), true
	case t.IsFloat():
		f := constant.ToFloat(v)
		if f.Kind() != constant.Float && f.Kind() != constant.Int {
			return nil, false
		}
		var x float64
		if t.Kind == model.Float32 {
			x32, _ := constant.Float32Val(f)
			x = float64(x32)
		} else {
			x, _ = constant.Float64Val(f)
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		return constant.MakeFloat64(x), true
	}
	return nil, false
}

// convertInt checks that the integer constant v fits in t.
func convertInt(v constant.Value, t *model.Type) (constant.Value, bool) {
	if v.Kind() != constant.Int {
		return nil, false
	}
	bits := uint(t.Bits())
	if t.IsSigned() {
		i, exact := constant.Int64Val(v)
		lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
		if !exact || i < lo || i > hi {
			return nil, false
		}
		return constant.MakeInt64(i), true
	}
	u, exact := constant.Uint64Val(v)
	if !exact || constant.Sign(v) < 0 || (bits < 64 && u >= 1<<bits) {
		return nil, false
	}
	return constant.MakeUint64(u), true
}
