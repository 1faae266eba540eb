package opfuzz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// kind is a scalar type of the generated code.
type kind int

const (
	kInt32 kind = iota
	kInt64
	kUint32
	kUint64
	kFloat32
	kFloat64
	kBool
	kInt // only loop variables have it
)

// numeric are the kinds of parameters, results and locals.
var numeric = []kind{kInt32, kInt64, kUint32, kUint64, kFloat32, kFloat64}

var kindNames = [...]string{"int32", "int64", "uint32", "uint64", "float32", "float64", "bool", "int"}

func (k kind) String() string { return kindNames[k] }

func (k kind) isInt() bool {
	switch k {
	case kInt32, kInt64, kUint32, kUint64, kInt:
		return true
	}
	return false
}

func (k kind) isFloat() bool { return k == kFloat32 || k == kFloat64 }

func (k kind) signed() bool { return k == kInt32 || k == kInt64 || k == kInt }

// bits is the width of k in bits.
func (k kind) bits() int {
	switch k {
	case kInt32, kUint32, kFloat32:
		return 32
	}
	return 64
}

// field is a field of a struct type.
type field struct {
	name string
	k    kind
}

// structType is a named struct type of the generated package.
type structType struct {
	name   string
	doc    string
	fields []field
}

// structs are the struct types every generated package declares.
var structs = []*structType{
	{"Pair", "Pair is a struct operand: an integer and a float.", []field{{"A", kInt32}, {"B", kFloat64}}},
	{"Vec", "Vec is a struct operand of three fields of different widths.", []field{{"X", kFloat32}, {"Y", kFloat32}, {"N", kUint64}}},
	{"Mix", "Mix is a struct operand with every integer kind.", []field{{"I", kInt64}, {"U", kUint32}, {"S", kInt32}, {"W", kUint64}}},
}

// typ is the type of a parameter or result: a scalar kind or a struct.
type typ struct {
	k  kind
	st *structType // nil for scalars
}

func (t typ) String() string {
	if t.st != nil {
		return t.st.name
	}
	return t.k.String()
}

// literal returns a typed constant of k, written as a conversion of an
// untyped constant, drawn from edge values and random ones.
func literal(r *rand.Rand, k kind) string {
	switch {
	case k == kBool:
		return strconv.FormatBool(r.IntN(2) == 0)
	case k.isFloat():
		var v float64
		switch r.IntN(12) {
		case 0:
			v = 0
		case 1:
			v = 1
		case 2:
			v = -1
		case 3:
			v = 0.5
		case 4:
			v = 3.25
		case 5:
			v = 1e10
		case 6:
			v = -1e-10
		case 7:
			if k == kFloat32 {
				v = math.MaxFloat32
			} else {
				v = math.MaxFloat64
			}
		case 8:
			if k == kFloat32 {
				v = math.SmallestNonzeroFloat32
			} else {
				v = math.SmallestNonzeroFloat64
			}
		default:
			v = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(13)-6))
		}
		if k == kFloat32 {
			return fmt.Sprintf("float32(%s)", strconv.FormatFloat(float64(float32(v)), 'g', -1, 32))
		}
		return fmt.Sprintf("float64(%s)", strconv.FormatFloat(v, 'g', -1, 64))
	case k.signed():
		w := k.bits()
		lo, hi := int64(-1)<<(w-1), int64(uint64(1)<<(w-1)-1)
		var v int64
		switch r.IntN(10) {
		case 0:
			v = 0
		case 1:
			v = 1
		case 2:
			v = -1
		case 3:
			v = lo
		case 4:
			v = hi
		case 5:
			v = int64(w)
		default:
			v = int64(r.IntN(2001)) - 1000
		}
		return fmt.Sprintf("%s(%d)", k, max(lo, min(hi, v)))
	default:
		w := k.bits()
		hi := uint64(math.MaxUint64) >> (64 - w)
		var v uint64
		switch r.IntN(9) {
		case 0:
			v = 0
		case 1:
			v = 1
		case 2:
			v = hi
		case 3:
			v = 1 << (w - 1)
		case 4:
			v = uint64(w)
		default:
			v = uint64(r.IntN(5000))
		}
		return fmt.Sprintf("%s(%d)", k, v&hi)
	}
}
