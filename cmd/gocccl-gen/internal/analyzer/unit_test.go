package analyzer

import (
	"go/constant"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func TestParsePosition(t *testing.T) {
	for in, want := range map[string]token.Position{
		"":                 {},
		"-":                {},
		"/a/b.go:12:5":     {Filename: "/a/b.go", Line: 12, Column: 5},
		"/a/b.go:12":       {Filename: "/a/b.go", Line: 12},
		"/a/b.go":          {Filename: "/a/b.go"},
		`C:\x\b.go:3:4`:    {Filename: `C:\x\b.go`, Line: 3, Column: 4},
		"odd:name.go:7:1":  {Filename: "odd:name.go", Line: 7, Column: 1},
		"/a/b.go:x:5":      {Filename: "/a/b.go:x", Line: 5},
		"weird:file:name:": {Filename: "weird:file:name:"},
	} {
		assert.Equal(t, want, parsePosition(in), in)
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Pos: token.Position{Filename: "a.go", Line: 3, Column: 7}, Message: "m"}
	assert.Equal(t, "a.go:3:7: m", d.String())
	assert.Equal(t, "m", Diagnostic{Message: "m"}.String())
	assert.Equal(t, "a.go: m", Diagnostic{Pos: token.Position{Filename: "a.go"}, Message: "m"}.String())
	errs := Errors{d, {Message: "n"}}
	assert.Equal(t, "a.go:3:7: m\nn", errs.Error())
}

// TestNamer: variables keep their Go names, made unique within the
// operator; nothing is renamed for C++ (that is the emitter's varNamer).
func TestNamer(t *testing.T) {
	n := newNamer()
	for _, tc := range []struct{ in, want string }{
		{"x", "x"}, {"x", "x_1"}, {"x_1", "x_1_1"}, {"x", "x_2"},
		{"int", "int"}, {"int", "int_1"}, {"int_", "int_"}, {"int_", "int_2"},
		{"Add", "Add"}, {"gocccl_tmp", "gocccl_tmp"}, {"π", "π"}, {"π", "π_1"},
		{"a__b", "a__b"}, {"_X", "_X"}, {"_0", "_0"}, {"min", "min"},
		{"range_i", "range_i"}, {"range_i", "range_i_1"},
	} {
		assert.Equal(t, tc.want, n.name(tc.in), tc.in)
	}
}

func TestConvertConst(t *testing.T) {
	i8, u8, u64 := model.Basic(model.Int8), model.Basic(model.Uint8), model.Basic(model.Uint64)
	f32, f64, b := model.Basic(model.Float32), model.Basic(model.Float64), model.Basic(model.Bool)
	for _, tc := range []struct {
		v    constant.Value
		t    *model.Type
		want string // "" when not representable
	}{
		{constant.MakeInt64(-128), i8, "-128"},
		{constant.MakeInt64(-129), i8, ""},
		{constant.MakeInt64(255), u8, "255"},
		{constant.MakeInt64(256), u8, ""},
		{constant.MakeInt64(-1), u8, ""},
		{constant.Shift(constant.MakeInt64(1), token.SHL, 64), u64, ""},
		{constant.BinaryOp(constant.Shift(constant.MakeInt64(1), token.SHL, 64), token.SUB, constant.MakeInt64(1)), u64, "18446744073709551615"},
		{constant.MakeFloat64(2), i8, "2"},
		{constant.MakeFloat64(2.5), i8, ""},
		{constant.MakeFromLiteral("0.1", token.FLOAT, 0), f32, "0.10000000149011612"},
		{constant.MakeFromLiteral("0.1", token.FLOAT, 0), f64, "0.1"},
		{constant.MakeFromLiteral("1e39", token.FLOAT, 0), f32, ""},
		{constant.MakeFromLiteral("1e309", token.FLOAT, 0), f64, ""},
		{constant.MakeInt64(3), f32, "3"},
		{constant.MakeBool(true), b, "true"},
		{constant.MakeInt64(1), b, ""},
		{constant.MakeString("s"), i8, ""},
	} {
		got, exact := convertConst(tc.v, tc.t)
		if tc.want == "" {
			assert.False(t, exact, "%s as %s", tc.v, tc.t.GoName())
			continue
		}
		if !assert.True(t, exact, "%s as %s", tc.v, tc.t.GoName()) {
			continue
		}
		if tc.t.IsFloat() {
			x, _ := constant.Float64Val(got)
			assert.Equal(t, constant.Float, got.Kind())
			want, _ := constant.Float64Val(constant.MakeFromLiteral(tc.want, token.FLOAT, 0))
			assert.Equal(t, want, x, "%s as %s", tc.v, tc.t.GoName())
			continue
		}
		assert.Equal(t, tc.want, got.ExactString(), "%s as %s", tc.v, tc.t.GoName())
	}
}
