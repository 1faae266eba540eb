package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func TestVarNamer(t *testing.T) {
	n := newVarNamer(map[string]bool{"Add": true, "F_": true})
	for _, tc := range []struct{ in, want string }{
		{"x", "x"}, {"x_1", "x_1"}, {"x_1_1", "x_1_1"}, {"x_2", "x_2"},
		{"int", "int_"}, {"int_1", "int_1"}, {"int_", "int_2"},
		{"Add", "Add_"}, {"gocccl_tmp", "gocccl_tmp_"},
		{"π", "u03c0"}, {"u03c0", "u03c0_1"}, {"a__b", "a_b"}, {"_X", "v_X"}, {"_0", "_0"},
		{"min", "min_"}, {"threadIdx", "threadIdx_"}, {"gocccl_t0", "gocccl_t0_"}, {"gocccl_t0_1", "gocccl_t0_1_"},
		{"Add_", "Add_1"}, {"F_", "F_v"}, {"x__", "x_"}, {"auto", "auto_"}, {"auto_", "auto_1"},
	} {
		got := n.name(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.False(t, reservedC(got), "%s → %s is reserved", tc.in, got)
	}
}

// TestNameVars: parameters first, then locals in declaration order; blank
// and unnamed parameters by position; operator names reserved.
func TestNameVars(t *testing.T) {
	i32 := model.Basic(model.Int32)
	p0, p1, p2 := &model.Var{Name: "int", Type: i32}, &model.Var{Type: i32}, &model.Var{Name: "_", Type: i32}
	l0, l1, blank := &model.Var{Name: "F", Type: i32}, &model.Var{Name: "int_", Type: i32}, &model.Var{Name: "_", Type: i32}
	op := &model.Op{Name: "F", Params: []*model.Var{p0, p1, p2}, Results: []*model.Type{i32}, Body: &model.Block{Stmts: []model.Stmt{
		&model.DeclStmt{Var: l0},
		&model.Block{Stmts: []model.Stmt{&model.DeclStmt{Var: l1}, &model.DeclStmt{Var: blank}}},
	}}}
	names := make(map[*model.Var]string)
	nameVars(op, map[string]bool{"F": true}, names)
	assert.Equal(t, map[*model.Var]string{p0: "int_", p1: "gocccl_p1", p2: "gocccl_p2", l0: "F_", l1: "int_1"}, names)
}

// TestVariableNamesInSource: variables C++ cannot use, or named like an
// operator, are renamed where they are declared and where they are used.
func TestVariableNamesInSource(t *testing.T) {
	s := newSrc("vars.go")
	a, b := newVar("int32_t", tInt32, s.at(3, 8)), newVar("Sub", tInt32, s.at(3, 17))
	sub := &model.Op{Name: "Sub", Pos: s.at(3, 1), Params: []*model.Var{a, b}, Results: []*model.Type{tInt32},
		Body: block(&model.ReturnStmt{Pos: s.at(4, 2), Results: []model.Expr{bin(model.Xor, ref(a), ref(b))}})}
	pkg := &model.Package{Path: "example.com/vars", Name: "vars", Fset: s.fset, Ops: []*model.Op{sub}}
	src, err := CUDASource(pkg, testTargets)
	assert.NoError(t, err)
	assert.Contains(t, string(src), "int32_t Sub(int32_t int32_t_, int32_t Sub_) {")
	assert.Contains(t, string(src), "return ::gocccl::go::bxor(int32_t_, Sub_);")
}
