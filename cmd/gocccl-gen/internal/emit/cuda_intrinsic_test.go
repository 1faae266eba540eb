package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestIntrinsics checks how calls of min, max and math and math/bits
// functions print: as the gomath.cuh helpers, min and max nested left to
// right with the type explicit.
func TestIntrinsics(t *testing.T) {
	s := newSrc("intr.go")
	a, b := newVar("a", tFloat32, s.at(3, 11)), newVar("b", tFloat32, s.at(3, 14))
	x, y := newVar("x", tFloat64, s.at(3, 25)), newVar("y", tFloat64, s.at(3, 28))
	u := newVar("u", tUint64, s.at(3, 35))
	tInt := model.Basic(model.Int)
	intr := func(fn string, t *model.Type, args ...model.Expr) *model.Intrinsic {
		return &model.Intrinsic{Pos: s.at(4, 9), Func: fn, Args: args, T: t}
	}
	for _, c := range []struct {
		name   string
		result *model.Type
		x      model.Expr
		want   string
	}{
		{"min(a, b, 0.5)", tFloat32, intr("min", tFloat32, ref(a), ref(b), cFloat(0.5, tFloat32)),
			"::gocccl::go::min<float>(::gocccl::go::min<float>(a, b), 0.5f)"},
		{"max(a, b)", tFloat32, intr("max", tFloat32, ref(a), ref(b)), "::gocccl::go::max<float>(a, b)"},
		{"math.Pow(x, y)", tFloat64, intr("math.Pow", tFloat64, ref(x), ref(y)), "::gocccl::go::math::Pow(x, y)"},
		{"math.Sqrt(x+y)", tFloat64, intr("math.Sqrt", tFloat64, bin(model.Add, ref(x), ref(y))), "::gocccl::go::math::Sqrt(::gocccl::go::fadd<double>(x, y))"},
		{"bits.OnesCount64(u)", tInt, intr("bits.OnesCount64", tInt, ref(u)), "::gocccl::go::bits::OnesCount64(u)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			op := &model.Op{Name: "Op", Pos: s.at(3, 1), Params: []*model.Var{a, b, x, y, u}, Results: []*model.Type{c.result},
				Body: block(&model.ReturnStmt{Pos: s.at(4, 2), Results: []model.Expr{c.x}})}
			pkg := &model.Package{Path: "example.com/intr", Name: "intr", Fset: s.fset, Ops: []*model.Op{op}}
			src, err := CUDASource(pkg, testTargets)
			require.NoError(t, err)
			assert.Contains(t, string(src), "\n  return "+c.want+";\n")
		})
	}
}

// TestIntrinsicErrors: a malformed intrinsic is an error with its Go
// position, never C++ that nvcc would convert implicitly.
func TestIntrinsicErrors(t *testing.T) {
	s := newSrc("intr.go")
	x := newVar("x", tFloat64, s.at(3, 11))
	a := newVar("a", tFloat32, s.at(3, 14))
	for _, c := range []struct {
		name string
		x    *model.Intrinsic
		want string
	}{
		{"unknown", &model.Intrinsic{Func: "math.Gamma", Args: []model.Expr{ref(x)}, T: tFloat64}, "math.Gamma is not a supported intrinsic"},
		{"float32 argument", &model.Intrinsic{Func: "math.Sqrt", Args: []model.Expr{ref(a)}, T: tFloat64}, "argument 1 of math.Sqrt"},
		{"arity", &model.Intrinsic{Func: "math.Pow", Args: []model.Expr{ref(x)}, T: tFloat64}, "call of math.Pow with 1 arguments, want 2"},
		{"mixed min", &model.Intrinsic{Func: "min", Args: []model.Expr{ref(x), ref(a)}, T: tFloat64}, "argument 2 of min"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.x.Pos = s.at(4, 9)
			op := &model.Op{Name: "Op", Pos: s.at(3, 1), Params: []*model.Var{x, a}, Results: []*model.Type{tFloat64},
				Body: block(&model.ReturnStmt{Pos: s.at(4, 2), Results: []model.Expr{c.x}})}
			pkg := &model.Package{Path: "example.com/intr", Name: "intr", Fset: s.fset, Ops: []*model.Op{op}}
			_, err := CUDASource(pkg, testTargets)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "intr.go:4:9")
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
