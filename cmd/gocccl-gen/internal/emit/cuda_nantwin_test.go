package emit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestNaNTwins: which operators get a twin with the GPU's NaNs. Only a
// float function with float arithmetic of its own that never reads a NaN's
// bits, itself or through an operator it calls, may be folded with one.
func TestNaNTwins(t *testing.T) {
	s := newSrc("twins.go")
	addF := binaryOp(s, 10, "AddF", tFloat32, model.Add)
	quoD := binaryOp(s, 12, "QuoD", tFloat64, model.Quo)
	addI := binaryOp(s, 14, "AddI", tInt32, model.Add)
	fast := binaryOp(s, 16, "Fast", tFloat32, model.Add)
	fast.FastMath = true
	less := binaryOp(s, 18, "Less", tFloat32, model.Lss)

	// func Bits(a, b float32) float32 { return a + math.Float32frombits(math.Float32bits(b)) }
	a, b := newVar("a", tFloat32, s.at(20, 11)), newVar("b", tFloat32, s.at(20, 14))
	bitsOf := &model.Intrinsic{Func: "math.Float32bits", Args: []model.Expr{ref(b)}, T: tUint32, Pos: s.at(21, 30)}
	fromBits := &model.Intrinsic{Func: "math.Float32frombits", Args: []model.Expr{bitsOf}, T: tFloat32, Pos: s.at(21, 9)}
	bits := &model.Op{Name: "Bits", Pos: s.at(20, 1), Params: []*model.Var{a, b}, Results: []*model.Type{tFloat32},
		Body: block(ret(bin(model.Add, ref(a), fromBits)))}

	// func CallsBits(a, b float32) float32 { return Bits(a, b) * 2 }
	c, d := newVar("a", tFloat32, s.at(24, 16)), newVar("b", tFloat32, s.at(24, 19))
	callsBits := &model.Op{Name: "CallsBits", Pos: s.at(24, 1), Params: []*model.Var{c, d}, Results: []*model.Type{tFloat32},
		Body: block(ret(bin(model.Mul, &model.Call{Op: bits, Args: []model.Expr{ref(c), ref(d)}, Pos: s.at(25, 9)}, cFloat(2, tFloat32))))}

	// func CallsAdd(a, b float32) float32 { return AddF(a, b) - 1 }
	e, f := newVar("a", tFloat32, s.at(28, 15)), newVar("b", tFloat32, s.at(28, 18))
	callsAdd := &model.Op{Name: "CallsAdd", Pos: s.at(28, 1), Params: []*model.Var{e, f}, Results: []*model.Type{tFloat32},
		Body: block(ret(bin(model.Sub, &model.Call{Op: addF, Args: []model.Expr{ref(e), ref(f)}, Pos: s.at(29, 9)}, cFloat(1, tFloat32))))}

	// func Larger(a, b float32) float32 { return max(a, b) }: no arithmetic.
	g, h := newVar("a", tFloat32, s.at(32, 13)), newVar("b", tFloat32, s.at(32, 16))
	larger := &model.Op{Name: "Larger", Pos: s.at(32, 1), Params: []*model.Var{g, h}, Results: []*model.Type{tFloat32},
		Body: block(ret(&model.Intrinsic{Func: "max", Args: []model.Expr{ref(g), ref(h)}, T: tFloat32, Pos: s.at(33, 9)}))}

	for _, c := range []struct {
		op   *model.Op
		want bool
	}{
		{addF, true}, {quoD, true}, {callsAdd, true},
		{addI, false},      // no float arithmetic
		{fast, false},      // fastmath keeps the GPU's NaNs already
		{less, false},      // a bool result
		{bits, false},      // reads b's bits
		{callsBits, false}, // through Bits
		{larger, false},    // nothing to speed up
	} {
		assert.Equal(t, c.want, hasNaNTwin(c.op), c.op.Name)
	}
}

// TestNaNTwinSource: the twin is the operator with C++'s float operators,
// and the functor offers it as gpu_nan; operators without one have no
// member.
func TestNaNTwinSource(t *testing.T) {
	src, err := CUDASource(reducePkg(), []Target{{Arch: 90}})
	require.NoError(t, err)
	cu := string(src)
	assert.Contains(t, cu, "__device__ __forceinline__ float gocccl_gpu_nan_Add(float a, float b) {\n  return a + b;\n}")
	assert.Contains(t, cu, "return ::gocccl::go::fadd<float>(a, b);", "the operator itself keeps Go's NaNs")
	assert.Contains(t, cu, "struct gpu_nan {\n    __device__ __forceinline__ float operator()(float a0, float a1) const {\n      return ::gocccl_pkg_sum_6a699990::gocccl_gpu_nan_Add(a0, a1);")
	assert.Equal(t, 1, strings.Count(cu, "struct gpu_nan"), "only Add (float) has a twin; AddI and Max do not")
}
