package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func TestCIdent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"x", "x"}, {"x_1", "x_1"}, {"_0", "_0"}, {"π", "u03c0"}, {"Größe", "Gru00f6u00dfe"},
		{"a__b", "a_b"}, {"x__", "x_"}, {"_X", "v_X"}, {"__X", "v_X"}, {"", "v"}, {"_", "v"},
		{"my-pkg", "myu002dpkg"}, {"v1.2", "v1u002e2"}, {"😀", "u1f600"},
	} {
		got := cIdent(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.True(t, isCIdent(got), "cIdent(%q) = %q is not a C identifier", tc.in, got)
		assert.NotContains(t, got, "__", tc.in)
	}
}

// TestGeneratedNames: names C++ cannot use get a generator prefix, and no
// name holds "__".
func TestGeneratedNames(t *testing.T) {
	assert.Equal(t, "Add", cOp(&model.Op{Name: "Add"}))
	assert.Equal(t, "gocccl_op_float", cOp(&model.Op{Name: "float"}))
	assert.Equal(t, "gocccl_op_F32", cOp(&model.Op{Name: "F32"}))
	assert.Equal(t, "gocccl_op_Gru00f6u00dfe", cOp(&model.Op{Name: "Größe"}))
	assert.Equal(t, "gocccl_op_x", cOp(&model.Op{Name: "__x"}))
	assert.Equal(t, "Pixel", cStruct("Pixel"))
	assert.Equal(t, "gocccl_type_V2", cStruct("V2"))
	assert.Equal(t, "gocccl_type_u03c0", cStruct("_π"))
	assert.Equal(t, "X", cField("X", 0))
	assert.Equal(t, "gocccl_f_ID", cField("ID", 1))
	assert.Equal(t, "gocccl_pad2", cField("_", 2))
	assert.Equal(t, "gocccl_f_v_X", cField("_X", 3))
	// As in examples/sum/gocccl_gen.cu.
	assert.Equal(t, "gocccl_pkg_sum_2f231459", cNamespace("github.com/gocccl/gocccl/examples/sum"))
	assert.Regexp(t, `^gocccl_pkg_myu002dpkg_[0-9a-f]{8}$`, cNamespace("example.com/my-pkg"))
	assert.Regexp(t, `^gocccl_pkg_x_[0-9a-f]{8}$`, cNamespace("example.com/_x_"))
	assert.NotEqual(t, cNamespace("a.com/sum"), cNamespace("b.com/sum"))
}

// TestCType: the C++ spelling of every kind of type.
func TestCType(t *testing.T) {
	pair := &model.Type{Kind: model.Struct, Name: "Pair", Pkg: "example.com/p"}
	for _, tc := range []struct {
		t    *model.Type
		want string
	}{
		{model.Basic(model.Bool), "bool"},
		{model.Basic(model.Int), "int64_t"},
		{model.Basic(model.Uintptr), "uint64_t"},
		{model.Basic(model.Float32), "float"},
		{&model.Type{Kind: model.Int8, Name: "Small"}, "int8_t"},
		{&model.Type{Kind: model.Array, Len: 3, Elem: model.Basic(model.Uint16)}, "::gocccl::go::array<uint16_t, 3>"},
		{pair, "::" + cNamespace("example.com/p") + "::Pair"},
		{&model.Type{Kind: model.Array, Len: 2, Elem: pair}, "::gocccl::go::array<::" + cNamespace("example.com/p") + "::Pair, 2>"},
		{model.TupleOf([]*model.Type{model.Basic(model.Int)}), "void"},
		{model.Basic(model.Invalid), "void"},
	} {
		assert.Equal(t, tc.want, cType(tc.t), tc.t.GoName())
	}
}

// TestStructNameClash: two fields or two struct types whose C++ names are
// equal are an error, not C++ that fails to compile.
func TestStructNameClash(t *testing.T) {
	i32 := model.Basic(model.Int32)
	fields := func(names ...string) []*model.Field {
		fs := make([]*model.Field, len(names))
		for i, n := range names {
			fs[i] = &model.Field{Name: n, Type: i32}
		}
		model.Layout(fs)
		return fs
	}
	for _, tc := range []struct {
		name string
		ts   []*model.Type
		want string
	}{
		{"fields", []*model.Type{{Kind: model.Struct, Name: "S", Pkg: "example.com/p", Fields: fields("__x", "___x")}},
			"fields __x and ___x of example.com/p.S both translate to the C++ name gocccl_f_x"},
		{"types", []*model.Type{{Kind: model.Struct, Name: "__T", Pkg: "example.com/p"}, {Kind: model.Struct, Name: "___T", Pkg: "example.com/p"}},
			"struct types example.com/p.__T and example.com/p.___T both translate to the C++ name gocccl_type_v_T"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &opEmitter{w: &cWriter{}, pkg: &model.Package{Path: "example.com/p"}}
			writeStructs(e, tc.ts)
			assert.EqualError(t, e.err, tc.want)
		})
	}
}
