package emit

import (
	"fmt"
	"go/constant"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// cConst prints a constant of type t as an exact C++ expression of t's C
// type. Integers are cast to their type ("int64_t(-9223372036854775807LL -
// 1)"); floats are literals with the right suffix, in decimal when the
// shortest decimal that round-trips is exactly the value and in hex-float
// otherwise ("0x1.99999ap-04f /* 0.1 */"), so no compiler rounding is
// involved. prefix reports that the text starts with a unary minus and needs
// parentheses as an operand.
func cConst(v constant.Value, t *model.Type) (text string, prefix bool, err error) {
	switch {
	case t.IsBool():
		if v.Kind() != constant.Bool {
			return "", false, fmt.Errorf("constant %s is not a boolean", v)
		}
		return strconv.FormatBool(constant.BoolVal(v)), false, nil
	case t.IsInteger():
		s, err := cIntConst(v, t)
		return s, false, err
	case t.IsFloat():
		return cFloatConst(v, t)
	case t.IsHalf():
		// A half constant is its bit pattern.
		u, exact := constant.Uint64Val(constant.ToInt(v))
		if !exact || u > math.MaxUint16 {
			return "", false, fmt.Errorf("constant %s is not a 16-bit pattern (type %s)", v, t.GoName())
		}
		return fmt.Sprintf("%s{0x%04xu}", cType(t), u), false, nil
	case t.IsComplex():
		c := constant.ToComplex(v)
		if c.Kind() != constant.Complex && c.Kind() != constant.Float && c.Kind() != constant.Int {
			return "", false, fmt.Errorf("constant %s is not a complex number (type %s)", v, t.GoName())
		}
		re, _, err := cFloatConst(constant.Real(c), t.PartType())
		if err != nil {
			return "", false, err
		}
		im, _, err := cFloatConst(constant.Imag(c), t.PartType())
		if err != nil {
			return "", false, err
		}
		return cType(t) + "{" + re + ", " + im + "}", false, nil
	}
	return "", false, fmt.Errorf("constant %s of type %s: unsupported type", v, t.GoName())
}

// cIntConst prints an integer constant, checking that it fits t.
func cIntConst(v constant.Value, t *model.Type) (string, error) {
	iv := constant.ToInt(v)
	if iv.Kind() != constant.Int {
		return "", fmt.Errorf("constant %s is not an integer (type %s)", v, t.GoName())
	}
	bits := t.Bits()
	if t.IsSigned() {
		x, exact := constant.Int64Val(iv)
		if !exact || bits < 64 && (x < -1<<(bits-1) || x > 1<<(bits-1)-1) {
			return "", fmt.Errorf("constant %s overflows %s", v, t.GoName())
		}
		switch {
		case bits < 64:
			return fmt.Sprintf("%s(%d)", cType(t), x), nil
		case x == math.MinInt64:
			return fmt.Sprintf("%s(-9223372036854775807LL - 1)", cType(t)), nil
		default:
			return fmt.Sprintf("%s(%dLL)", cType(t), x), nil
		}
	}
	x, exact := constant.Uint64Val(iv)
	if !exact || bits < 64 && x > 1<<bits-1 {
		return "", fmt.Errorf("constant %s overflows %s", v, t.GoName())
	}
	if bits < 64 {
		return fmt.Sprintf("%s(%dU)", cType(t), x), nil
	}
	return fmt.Sprintf("%s(%dULL)", cType(t), x), nil
}

// cFloatConst prints a float32 or float64 constant, rounded to t as Go rounds
// typed constants.
func cFloatConst(v constant.Value, t *model.Type) (string, bool, error) {
	fv := constant.ToFloat(v)
	if fv.Kind() != constant.Float && fv.Kind() != constant.Int {
		return "", false, fmt.Errorf("constant %s is not a number (type %s)", v, t.GoName())
	}
	var f float64
	bits, suffix := 64, ""
	if t.Kind == model.Float32 {
		f32, _ := constant.Float32Val(fv)
		f, bits, suffix = float64(f32), 32, "f"
	} else {
		f, _ = constant.Float64Val(fv)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false, fmt.Errorf("constant %s overflows %s", v, t.GoName())
	}
	if f == 0 {
		f = 0 // Go constants have no negative zero
	}
	dec := strconv.FormatFloat(f, 'g', -1, bits)
	if !strings.ContainsAny(dec, ".e") {
		dec += ".0"
	}
	exact, ok := new(big.Rat).SetString(dec)
	if ok && exact.Cmp(new(big.Rat).SetFloat64(f)) == 0 {
		return dec + suffix, f < 0, nil
	}
	hex := strconv.FormatFloat(f, 'x', -1, bits)
	return fmt.Sprintf("%s%s /* %s */", hex, suffix, dec), f < 0, nil
}
