package emit

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestNoOpConversionPrecedence: a conversion that prints as its operand
// alone (same kind, a named type, bool to bool, int ↔ int64) must keep the
// grouping the conversion gave a compound operand.
func TestNoOpConversionPrecedence(t *testing.T) {
	s := newSrc("prec.go")
	celsius := &model.Type{Kind: model.Float32, Name: "Celsius", Pkg: "example.com/prec"}
	a, b := newVar("a", tFloat32, s.at(3, 11)), newVar("b", tFloat32, s.at(3, 14))
	p, q := newVar("p", tBool, s.at(3, 25)), newVar("q", tBool, s.at(3, 28))
	i, j := newVar("i", tInt, s.at(3, 35)), newVar("j", tInt, s.at(3, 38))
	for _, c := range []struct {
		name   string
		result *model.Type
		x      model.Expr
		want   string
	}{
		{"float32(a+b) * 2", tFloat32,
			bin(model.Mul, conv(tFloat32, bin(model.Add, ref(a), ref(b))), cInt(2, tFloat32)),
			"(a + b) * 2.0f"},
		{"-float32(a - b)", tFloat32,
			un(model.Neg, conv(tFloat32, bin(model.Sub, ref(a), ref(b)))),
			"::gocccl::go::fneg(a - b)"}, // the sign bit flips: NaN payloads survive,
		{"!bool(p || q)", tBool,
			un(model.Not, conv(tBool, bin(model.LOr, ref(p), ref(q)))),
			"!(p || q)"},
		{"!bool(a < b)", tBool,
			un(model.Not, conv(tBool, bin(model.Lss, ref(a), ref(b)))),
			"!(a < b)"},
		{"Celsius(float32(a)+float32(b)) * 3", celsius,
			bin(model.Mul, conv(celsius, bin(model.Add, conv(tFloat32, ref(a)), conv(tFloat32, ref(b)))), cInt(3, celsius)),
			"(a + b) * 3.0f"},
		{"float32(-2.5) * a", tFloat32,
			bin(model.Mul, conv(tFloat32, cFloat(-2.5, tFloat32)), ref(a)),
			"(-2.5f) * a"},
		{"int64(i) < int64(j) == p", tBool,
			bin(model.Eql, bin(model.Lss, conv(tInt64, ref(i)), conv(tInt64, ref(j))), ref(p)),
			"(i < j) == p"},
		{"bool(int(i) == j) == p", tBool,
			bin(model.Eql, conv(tBool, bin(model.Eql, conv(tInt, ref(i)), ref(j))), ref(p)),
			"(i == j) == p"},
		{"float32(a) * b", tFloat32, // atomic operands stay bare
			bin(model.Mul, conv(tFloat32, ref(a)), conv(tFloat32, ref(b))),
			"a * b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// fastmath: float arithmetic stays infix (no NaN-exact
			// gosem::fadd calls), which is where precedence matters.
			op := &model.Op{Name: "Op", Pos: s.at(3, 1), Params: []*model.Var{a, b, p, q, i, j}, Results: []*model.Type{c.result},
				Body: block(&model.ReturnStmt{Pos: s.at(4, 2), Results: []model.Expr{c.x}}), FastMath: true}
			pkg := &model.Package{Path: "example.com/prec", Name: "prec", Fset: s.fset, Ops: []*model.Op{op}}
			src, err := CUDASource(pkg, testTargets)
			require.NoError(t, err)
			assert.Contains(t, string(src), "\n  return "+c.want+";\n")
		})
	}
}

// TestHeaderMacrosReserved: every macro the embedded headers define is a
// name reservedC rejects, so a variable of that name is renamed and no
// operator's variable is expanded as a macro.
func TestHeaderMacrosReserved(t *testing.T) {
	hs, err := embeddedHeaders()
	require.NoError(t, err)
	define := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)
	n := 0
	for _, h := range hs {
		for _, m := range define.FindAllSubmatch(h.Data, -1) {
			n++
			assert.True(t, reservedC(string(m[1])), "%s defines %s, which reservedC accepts", h.Name, m[1])
		}
	}
	assert.Positive(t, n, "no #define found in the headers")
}

// TestFastMathFusion: a fastmath operator fuses a product written as an
// operand of + or - into one fma; without the option, or with the product
// behind a conversion to another type, nothing is fused.
func TestFastMathFusion(t *testing.T) {
	s := newSrc("fma.go")
	a, b, c := newVar("a", tFloat32, s.at(3, 11)), newVar("b", tFloat32, s.at(3, 14)), newVar("c", tFloat32, s.at(3, 17))
	x, y := newVar("x", tFloat64, s.at(3, 30)), newVar("y", tFloat64, s.at(3, 33))
	mul := bin(model.Mul, ref(a), ref(b))
	for _, tc := range []struct {
		name     string
		fastmath bool
		result   *model.Type
		x        model.Expr
		want     string
	}{
		{"a*b + c", true, tFloat32, bin(model.Add, mul, ref(c)), "::fmaf(a, b, c)"},
		{"c + a*b", true, tFloat32, bin(model.Add, ref(c), mul), "::fmaf(a, b, c)"},
		{"a*b - c", true, tFloat32, bin(model.Sub, mul, ref(c)), "::fmaf(a, b, -c)"},
		{"c - a*b", true, tFloat32, bin(model.Sub, ref(c), mul), "::fmaf(-a, b, c)"},
		{"x*y + x", true, tFloat64, bin(model.Add, bin(model.Mul, ref(x), ref(y)), ref(x)), "::fma(x, y, x)"},
		{"a*b + c without fastmath", false, tFloat32, bin(model.Add, mul, ref(c)), "::gocccl::go::fadd<float>(::gocccl::go::fmul<float>(a, b), c)"},
		{"a*b * c", true, tFloat32, bin(model.Mul, mul, ref(c)), "(a * b) * c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := &model.Op{Name: "Op", Pos: s.at(3, 1), Params: []*model.Var{a, b, c, x, y}, Results: []*model.Type{tc.result},
				Body: block(&model.ReturnStmt{Pos: s.at(4, 2), Results: []model.Expr{tc.x}}), FastMath: tc.fastmath}
			pkg := &model.Package{Path: "example.com/fma", Name: "fma", Fset: s.fset, Ops: []*model.Op{op}}
			src, err := CUDASource(pkg, testTargets)
			require.NoError(t, err)
			assert.Contains(t, string(src), "\n  return "+tc.want+";\n")
		})
	}
}
