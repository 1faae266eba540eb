package opfuzz

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// value is a variable, parameter, struct field of a parameter or loop
// variable that expressions may read.
type value struct {
	name string
	k    kind
	// raw is set for parameters and their fields, which are never
	// assigned: their floats hold exactly the input's bits, so the bits
	// of a NaN among them may be observed (math.Float64bits, Signbit).
	raw bool
	// assignable values are locals and the result's variable or fields.
	assignable bool
	used       bool
}

// exprGen builds the expressions and statements of one operator.
type exprGen struct {
	r      *rand.Rand
	scopes [][]*value
	// callable are earlier operators that call no operator themselves, with
	// scalar parameters and a scalar result: expressions may call them.
	callable []*opSig
	calls    int // operators this operator calls
}

// opSig is the signature of a generated operator.
type opSig struct {
	name   string
	params []typ
	result typ
}

func (g *exprGen) chance(n int) bool { return g.r.IntN(n) == 0 }

func (g *exprGen) pick(ks []kind) kind { return ks[g.r.IntN(len(ks))] }

// visible returns the values in scope whose kind is k.
func (g *exprGen) visible(k kind, rawOnly bool) []*value {
	var vs []*value
	for _, s := range g.scopes {
		for _, v := range s {
			if v.k == k && (!rawOnly || v.raw) {
				vs = append(vs, v)
			}
		}
	}
	return vs
}

// read returns a random value of kind k in scope, or nil, and marks it used.
func (g *exprGen) read(k kind, rawOnly bool) *value {
	vs := g.visible(k, rawOnly)
	if len(vs) == 0 {
		return nil
	}
	v := vs[g.r.IntN(len(vs))]
	v.used = true
	return v
}

// anyValue returns a random numeric value in scope; parameters guarantee
// there is one.
func (g *exprGen) anyValue() *value {
	var vs []*value
	for _, s := range g.scopes {
		for _, v := range s {
			if v.k != kBool {
				vs = append(vs, v)
			}
		}
	}
	v := vs[g.r.IntN(len(vs))]
	v.used = true
	return v
}

// expr returns an expression of kind k of nesting at most d, and whether it
// is a Go constant. Every expression is well-typed and cannot panic; no
// constant expression can overflow, because every operator, conversion and
// call has a non-constant operand except for literals and the operands of
// binary operators next to a non-constant one.
func (g *exprGen) expr(k kind, d int) (string, bool) {
	if k == kBool {
		return g.boolExpr(d), false
	}
	if d <= 0 || g.chance(4) {
		return g.leaf(k)
	}
	if k.isInt() {
		return g.intExpr(k, d), false
	}
	return g.floatExpr(k, d), false
}

// nonConst returns an expression of kind k that is not a constant.
func (g *exprGen) nonConst(k kind, d int) string {
	for range 3 {
		if s, c := g.expr(k, d); !c {
			return s
		}
	}
	return g.convert(k, g.anyValue())
}

// convert returns v converted to k.
func (g *exprGen) convert(k kind, v *value) string {
	if v.k == k {
		return v.name
	}
	return fmt.Sprintf("%s(%s)", k, v.name)
}

// leaf returns a value of kind k in scope, a literal, or a conversion.
func (g *exprGen) leaf(k kind) (string, bool) {
	if !g.chance(4) {
		if v := g.read(k, false); v != nil {
			return v.name, false
		}
	}
	if g.chance(3) {
		return literal(g.r, k), true
	}
	return g.convert(k, g.anyValue()), false
}

// binary returns x op y of kind k where at most one side is constant.
func (g *exprGen) binary(k kind, op string, d int) string {
	x, xc := g.expr(k, d-1)
	var y string
	if xc {
		y = g.nonConst(k, d-1)
	} else {
		y, _ = g.expr(k, d-1)
	}
	if g.chance(2) {
		x, y = y, x
	}
	return fmt.Sprintf("(%s %s %s)", x, op, y)
}

func (g *exprGen) intExpr(k kind, d int) string {
	intKinds := []kind{kInt32, kInt64, kUint32, kUint64}
	switch g.r.IntN(14) {
	case 0, 1, 2:
		return g.binary(k, g.pickOp("+", "-", "*"), d)
	case 3, 4:
		return g.binary(k, g.pickOp("&", "|", "^", "&^"), d)
	case 5:
		// The divisor is odd, so never zero; MinInt / -1 wraps in Go.
		x, _ := g.expr(k, d-1)
		return fmt.Sprintf("(%s %s (%s | 1))", x, g.pickOp("/", "%"), g.nonConst(k, d-1))
	case 6, 7:
		// Counts up to 127 cover counts at and past the width, whose
		// results Go defines; the mask keeps signed counts non-negative.
		x, _ := g.expr(k, d-1)
		s := g.nonConst(g.pick(intKinds), d-1)
		return fmt.Sprintf("(%s %s (%s & %d))", x, g.pickOp("<<", ">>"), s, []int{31, 63, 127}[g.r.IntN(3)])
	case 8:
		return fmt.Sprintf("(%s%s)", g.pickOp("-", "^"), g.nonConst(k, d-1))
	case 9, 10:
		from := g.pick(numeric)
		return fmt.Sprintf("%s(%s)", k, g.nonConst(from, d-1))
	case 11:
		return fmt.Sprintf("%s(%s, %s)", g.pickOp("min", "max"), g.nonConst(k, d-1), g.nonConst(k, d-1))
	case 12:
		if c := g.callExpr(k, d); c != "" {
			return c
		}
		fallthrough
	default:
		return g.bitsExpr(k, d)
	}
}

// bitsExpr returns a call of math/bits, or of math's float bit
// conversions on a parameter, of kind k.
func (g *exprGen) bitsExpr(k kind, d int) string {
	w := "32"
	u := kUint32
	if g.chance(2) {
		w, u = "64", kUint64
	}
	// x is generated only where it is used: reading a local marks it used.
	x := func() string { return g.nonConst(u, d-1) }
	var call string
	switch g.r.IntN(7) {
	case 0:
		call = fmt.Sprintf("bits.OnesCount%s(%s)", w, x())
	case 1:
		call = fmt.Sprintf("bits.LeadingZeros%s(%s)", w, x())
	case 2:
		call = fmt.Sprintf("bits.TrailingZeros%s(%s)", w, x())
	case 3:
		call = fmt.Sprintf("bits.Reverse%s(%s)", w, x())
	case 4:
		call = fmt.Sprintf("bits.ReverseBytes%s(%s)", w, x())
	case 5:
		call = fmt.Sprintf("bits.RotateLeft%s(%s, int(%s))", w, x(), g.nonConst(g.pick([]kind{kInt32, kInt64, kUint32}), d-1))
	default:
		// Only a parameter's NaN has the same bits on both sides.
		fk := kFloat32
		if w == "64" {
			fk = kFloat64
		}
		if v := g.read(fk, true); v != nil {
			call = fmt.Sprintf("math.Float%sbits(%s)", w, v.name)
		} else {
			call = fmt.Sprintf("bits.Len%s(%s)", w, x())
		}
	}
	return fmt.Sprintf("%s(%s)", k, call)
}

// math1 and math2 are the functions of math the expressions call, of one
// and two float64 arguments.
var (
	math1 = []string{"Abs", "Sqrt", "Floor", "Ceil", "Trunc", "Round", "RoundToEven", "Exp", "Log"}
	math2 = []string{"Min", "Max", "Hypot", "Dim"}
	// The rest compile to much larger code: they are drawn less often, to
	// keep a package's image small.
	math1Big = []string{"Sin", "Cos", "Tan", "Atan", "Tanh", "Cbrt", "Exp2", "Expm1", "Log1p", "Log2", "Log10",
		"Asinh", "Erf", "Asin", "Acos", "Sinh", "Cosh", "Atanh", "Acosh", "Erfc"}
	math2Big = []string{"Mod", "Remainder", "Atan2", "Pow"}
)

func (g *exprGen) floatExpr(k kind, d int) string {
	switch g.r.IntN(14) {
	case 0, 1, 2, 12:
		return g.binary(k, g.pickOp("+", "-"), d)
	case 3, 4:
		// The conversion keeps Go from fusing the product into an FMA,
		// as the GPU code is compiled without contraction.
		return fmt.Sprintf("%s%s", k, g.binary(k, "*", d))
	case 5:
		// A constant divisor could be zero, a compile error.
		x, _ := g.expr(k, d-1)
		return fmt.Sprintf("(%s / %s)", x, g.nonConst(k, d-1))
	case 6:
		return fmt.Sprintf("(-%s)", g.nonConst(k, d-1))
	case 7, 8:
		return fmt.Sprintf("%s(%s)", k, g.nonConst(g.pick(numeric), d-1))
	case 9:
		return fmt.Sprintf("%s(%s, %s)", g.pickOp("min", "max"), g.nonConst(k, d-1), g.nonConst(k, d-1))
	case 10:
		if c := g.callExpr(k, d); c != "" {
			return c
		}
		fallthrough
	default:
		var call string
		switch g.r.IntN(12) {
		case 0:
			call = fmt.Sprintf("math.FMA(%s, %s, %s)", g.nonConst(kFloat64, d-1), g.nonConst(kFloat64, d-1), g.nonConst(kFloat64, d-1))
		case 1:
			// The sign of a NaN is observed: only a parameter's is the
			// same on both sides.
			if v := g.read(kFloat64, true); v != nil {
				call = fmt.Sprintf("math.Copysign(%s, %s)", g.nonConst(kFloat64, d-1), v.name)
				break
			}
			fallthrough
		case 2:
			call = fmt.Sprintf("math.%s(%s, %s)", math2[g.r.IntN(len(math2))], g.nonConst(kFloat64, d-1), g.nonConst(kFloat64, d-1))
		case 3:
			call = fmt.Sprintf("math.%s(%s, %s)", math2Big[g.r.IntN(len(math2Big))], g.nonConst(kFloat64, d-1), g.nonConst(kFloat64, d-1))
		case 4:
			call = fmt.Sprintf("math.%s(%s)", math1Big[g.r.IntN(len(math1Big))], g.nonConst(kFloat64, d-1))
		default:
			call = fmt.Sprintf("math.%s(%s)", math1[g.r.IntN(len(math1))], g.nonConst(kFloat64, d-1))
		}
		if k == kFloat32 {
			return fmt.Sprintf("float32(%s)", call)
		}
		return call
	}
}

// callExpr returns a call of an earlier operator whose result has kind k,
// or "" when there is none.
func (g *exprGen) callExpr(k kind, d int) string {
	var cands []*opSig
	for _, s := range g.callable {
		if s.result.st == nil && s.result.k == k {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	s := cands[g.r.IntN(len(cands))]
	args := make([]string, len(s.params))
	for i, p := range s.params {
		args[i] = g.nonConst(p.k, d-1)
	}
	g.calls++
	return fmt.Sprintf("%s(%s)", s.name, joinComma(args))
}

func (g *exprGen) boolExpr(d int) string {
	if d > 0 {
		switch g.r.IntN(8) {
		case 0:
			return fmt.Sprintf("(!%s)", g.boolExpr(d-1))
		case 1:
			return fmt.Sprintf("(%s %s %s)", g.boolExpr(d-1), g.pickOp("&&", "||"), g.boolExpr(d-1))
		case 2:
			return fmt.Sprintf("math.IsNaN(%s)", g.nonConst(kFloat64, d-1))
		case 3:
			return fmt.Sprintf("math.IsInf(%s, %d)", g.nonConst(kFloat64, d-1), g.r.IntN(3)-1)
		case 4:
			if v := g.read(g.pick([]kind{kFloat32, kFloat64}), true); v != nil {
				return fmt.Sprintf("math.Signbit(float64(%s))", v.name)
			}
		}
	}
	k := g.pick(numeric)
	x, xc := g.expr(k, d-1)
	var y string
	if xc {
		y = g.nonConst(k, d-1)
	} else {
		y, _ = g.expr(k, d-1)
	}
	return fmt.Sprintf("(%s %s %s)", x, g.pickOp("==", "!=", "<", "<=", ">", ">="), y)
}

func (g *exprGen) pickOp(ops ...string) string { return ops[g.r.IntN(len(ops))] }

func joinComma(ss []string) string { return strings.Join(ss, ", ") }
