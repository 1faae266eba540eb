package emit

import (
	"github.com/gocccl/gocccl/internal/algo"
	"go/constant"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func TestConstants(t *testing.T) {
	for _, c := range []struct {
		v    constant.Value
		t    *model.Type
		want string
	}{
		{constant.MakeInt64(math.MinInt64), tInt64, "int64_t(-9223372036854775807LL - 1)"},
		{constant.MakeInt64(math.MaxInt64), tInt, "int64_t(9223372036854775807LL)"},
		{constant.MakeInt64(-5), tInt64, "int64_t(-5LL)"},
		{constant.MakeInt64(math.MinInt32), tInt32, "int32_t(-2147483648)"},
		{constant.MakeInt64(-128), tInt8, "int8_t(-128)"},
		{constant.MakeUint64(math.MaxUint64), tUint64, "uint64_t(18446744073709551615ULL)"},
		{constant.MakeUint64(math.MaxUint32), tUint32, "uint32_t(4294967295U)"},
		{constant.MakeUint64(255), tUint8, "uint8_t(255U)"},
		{constant.MakeFloat64(3), tInt16, "int16_t(3)"}, // an integral float constant of integer type
		{constant.MakeBool(true), tBool, "true"},
		{constant.MakeInt64(3), tFloat32, "3.0f"},
		{constant.MakeFloat64(0.5), tFloat64, "0.5"},
		{constant.MakeFloat64(-2.25), tFloat32, "-2.25f"},
		{constant.MakeFloat64(1e22), tFloat64, "1e+22"},
		{constant.MakeFloat64(0.1), tFloat64, "0x1.999999999999ap-04 /* 0.1 */"},
		{constant.MakeFloat64(0.1), tFloat32, "0x1.99999ap-04f /* 0.1 */"},
		{constant.MakeFloat64(math.MaxFloat64), tFloat64, "0x1.fffffffffffffp+1023 /* 1.7976931348623157e+308 */"},
		{constant.MakeFloat64(math.SmallestNonzeroFloat64), tFloat64, "0x1p-1074 /* 5e-324 */"},
		{constant.MakeFloat64(math.MaxFloat32), tFloat32, "0x1.fffffep+127f /* 3.4028235e+38 */"},
		{constant.MakeFloat64(math.SmallestNonzeroFloat32), tFloat32, "0x1p-149f /* 1e-45 */"},
		{constant.MakeFloat64(16777217), tFloat32, "1.6777216e+07f"}, // rounded to float32 as Go rounds typed constants
		{constant.MakeInt64(0), tFloat64, "0.0"},
	} {
		got, _, err := cConst(c.v, c.t)
		require.NoError(t, err, "%s %s", c.v, c.t.GoName())
		assert.Equal(t, c.want, got, "%s %s", c.v, c.t.GoName())
	}
	for _, c := range []struct {
		v constant.Value
		t *model.Type
	}{
		{constant.MakeInt64(128), tInt8},
		{constant.MakeInt64(-1), tUint8},
		{constant.MakeUint64(math.MaxUint64), tInt64},
		{constant.MakeFloat64(0.5), tInt32},
		{constant.MakeFloat64(1e39), tFloat32},
		{constant.MakeInt64(1), tBool},
	} {
		_, _, err := cConst(c.v, c.t)
		assert.Error(t, err, "%s %s", c.v, c.t.GoName())
	}
}

// TestTranslationErrors: what the analyzer should have rejected is an error
// with a Go position, never wrong C++.
func TestTranslationErrors(t *testing.T) {
	s := newSrc("bad.go")
	fa, fb := newVar("a", tFloat64, s.at(3, 8)), newVar("b", tFloat64, s.at(3, 11))
	ia := newVar("i", tInt32, s.at(3, 8))
	op := func(params []*model.Var, result *model.Type, body ...model.Stmt) *model.Op {
		return &model.Op{Name: "Op", Pos: s.at(3, 1), Params: params, Results: []*model.Type{result}, Body: block(body...)}
	}
	retAt := func(line int, x model.Expr) *model.ReturnStmt {
		return &model.ReturnStmt{Pos: s.at(line, 2), Results: []model.Expr{x}}
	}
	for _, c := range []struct {
		name string
		op   *model.Op
		want string
	}{
		{"float remainder", op([]*model.Var{fa, fb}, tFloat64, retAt(4, bin(model.Rem, ref(fa), ref(fb)))), "operator % on float64"},
		{"float and", op([]*model.Var{fa, fb}, tFloat64, retAt(4, bin(model.And, ref(fa), ref(fb)))), "operator & on float64"},
		{"bool to int", op([]*model.Var{ia}, tInt32, retAt(5, &model.Convert{Pos: s.at(5, 9), T: tInt32, X: bin(model.Lss, ref(ia), ref(ia))})), "bad.go:5:9: cannot convert bool to int32"},
		{"mixed operands", op([]*model.Var{ia, fa}, tInt32, retAt(4, bin(model.Add, ref(ia), ref(fa)))), "operands of + have types int32 and float64"},
		{"undeclared variable", op([]*model.Var{ia}, tInt32, retAt(4, ref(newVar("j", tInt32, s.at(3, 11))))), "bad.go:3:11: variable j is neither a parameter of the operator nor declared in it"},
		{"return type", op([]*model.Var{ia, fa}, tInt32, retAt(6, ref(fa))), "bad.go:6:2: return value: type float64, want int32"},
		{"no results", &model.Op{Name: "Op", Pos: s.at(3, 1), Body: block()}, "bad.go:3:1: operator Op has no results"},
		{"one value for two results", withResults(op([]*model.Var{ia}, tInt32, retAt(4, ref(ia))), tInt32, tInt32), "bad.go:4:2: return of int32 from an operator with 2 results"},
		{"non-bool condition", op([]*model.Var{ia}, tInt32, &model.IfStmt{Pos: s.at(4, 2), Cond: ref(ia), Then: block()}, retAt(7, ref(ia))), "condition is not a bool"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkg := &model.Package{Path: "example.com/bad", Name: "bad", Fset: s.fset, Ops: []*model.Op{c.op}}
			_, err := CUDASource(pkg, testTargets)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestInstanceErrors(t *testing.T) {
	pkg := reducePkg()
	pkg.Instances[0].Types = []*model.Type{tFloat64}
	_, err := CUDASource(pkg, testTargets)
	assert.ErrorContains(t, err, "sum.go:40:8: Reduce(Add): operator Add has the wrong signature for Reduce over float64")

	pkg = reducePkg()
	pkg.Ops[0].Name = "Añadir"
	_, err = CUDASource(pkg, testTargets)
	assert.ErrorContains(t, err, "is not an ASCII C identifier")

	pkg = reducePkg()
	pkg.Instances[0].Ops = []*model.Op{{Name: "Other"}}
	_, err = CUDASource(pkg, testTargets)
	assert.ErrorContains(t, err, "operator Other is not a //gocccl:op operator of package sum")

	pkg = reducePkg()
	pkg.Instances[0].Ops = nil
	_, err = CUDASource(pkg, testTargets)
	assert.ErrorContains(t, err, "want 1 operators and 1 element types for Reduce")
}

// TestOperatorNames: operator names that C++ cannot use are renamed in the
// namespace, the kernels keep the Go name.
func TestOperatorNames(t *testing.T) {
	s := newSrc("names.go")
	float := binaryOp(s, 3, "float", tFloat32, model.Add)
	uni := binaryOp(s, 6, "Größe", tInt32, model.Mul)
	pkg := &model.Package{Path: "example.com/names", Name: "names", Fset: s.fset, Ops: []*model.Op{float, uni},
		Instances: []*model.Instance{{Algorithm: algo.Reduce, Ops: []*model.Op{float}, Types: []*model.Type{tFloat32}}}}
	src, err := CUDASource(pkg, testTargets)
	require.NoError(t, err)
	text := string(src)
	assert.Contains(t, text, "__device__ __forceinline__ float gocccl_op_float(float a, float b) {")
	assert.Contains(t, text, "int32_t gocccl_op_Gru00f6u00dfe(int32_t a, int32_t b)")
	assert.Contains(t, text, "struct gocccl_op_float {")
	assert.Contains(t, text, "gocccl_reduce_float_sweep(")
	assert.Contains(t, text, "// float is names.go:3:1.")
	assert.False(t, strings.Contains(text, "/home/"))
}

// withResults sets op's results.
func withResults(op *model.Op, ts ...*model.Type) *model.Op {
	op.Results = ts
	return op
}
