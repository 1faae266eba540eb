package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the shape of a Type.
type Kind int

// Kinds of types an operator may use. Int, Uint and Uintptr are 64 bits wide,
// as on every platform gocccl targets.
const (
	Invalid Kind = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Int
	Uint8
	Uint16
	Uint32
	Uint64
	Uint
	Uintptr
	Float32
	Float64
	Complex64  // two float32: real, then imaginary part
	Complex128 // two float64: real, then imaginary part
	Float16    // half.Float16: IEEE binary16, CUDA's __half; Name and Pkg name it
	BFloat16   // half.BFloat16: bfloat16, CUDA's __nv_bfloat16; Name and Pkg name it
	Struct     // a named struct type; Fields holds its fields
	Array      // [Len]Elem
	Tuple      // the results of a call of an operator with several; never a variable's type
	View       // runtime.View[Elem], a read-only view of a buffer: only in state types
)

var kindInfo = [...]struct {
	name string // Go spelling
	size int64
}{
	Invalid:    {"invalid", 0},
	Bool:       {"bool", 1},
	Int8:       {"int8", 1},
	Int16:      {"int16", 2},
	Int32:      {"int32", 4},
	Int64:      {"int64", 8},
	Int:        {"int", 8},
	Uint8:      {"uint8", 1},
	Uint16:     {"uint16", 2},
	Uint32:     {"uint32", 4},
	Uint64:     {"uint64", 8},
	Uint:       {"uint", 8},
	Uintptr:    {"uintptr", 8},
	Float32:    {"float32", 4},
	Float64:    {"float64", 8},
	Complex64:  {"complex64", 8},
	Complex128: {"complex128", 16},
	Float16:    {"half.Float16", 2},
	BFloat16:   {"half.BFloat16", 2},
	Struct:     {"struct", 0},
	Array:      {"array", 0},
	Tuple:      {"tuple", 0},
	View:       {"view", 24},
}

// String returns the Go name of the kind, e.g. "uint16".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindInfo) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindInfo[k].name
}

// Type is the type of a value in an operator: a predeclared basic type, a
// named type defined over one, a named struct type, an array type, or the
// tuple of a call's results.
type Type struct {
	Kind Kind
	// Name is the Go name of a named (defined) type, e.g. "Celsius";
	// empty for predeclared types, unnamed arrays and tuples.
	Name string
	// Pkg is the import path of the package that defines a named type.
	Pkg string

	// Fields are a struct's fields in declaration order, with Go's offsets.
	Fields []*Field
	// Elem and Len describe an array: [Len]Elem.
	Elem *Type
	Len  int64
	// Elems are the types of a tuple.
	Elems []*Type
}

// Field is one field of a struct type.
type Field struct {
	Name   string // Go name; "_" for a blank (padding) field
	Type   *Type
	Offset int64 // byte offset, equal to Go's unsafe.Offsetof
}

// Basic returns the predeclared type of kind k.
func Basic(k Kind) *Type { return &Type{Kind: k} }

// TupleOf returns the tuple of the types ts.
func TupleOf(ts []*Type) *Type { return &Type{Kind: Tuple, Elems: ts} }

// GoName returns the type as Go source in its own package spells it.
func (t *Type) GoName() string {
	switch {
	case t.Name != "":
		return t.Name
	case t.Kind == Array && t.Elem != nil:
		return "[" + strconv.FormatInt(t.Len, 10) + "]" + t.Elem.GoName()
	case t.Kind == View && t.Elem != nil:
		return "runtime.View[" + t.Elem.GoName() + "]"
	case t.Kind == Tuple:
		s := make([]string, len(t.Elems))
		for i, e := range t.Elems {
			s[i] = e.GoName()
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	return t.Kind.String()
}

// Size returns the size in bytes, equal to Go's unsafe.Sizeof on the 64-bit
// platforms gocccl supports.
func (t *Type) Size() int64 {
	switch t.Kind {
	case Struct:
		var end int64
		if n := len(t.Fields); n > 0 {
			last := t.Fields[n-1]
			end = last.Offset + last.Type.Size()
		}
		a := t.Align()
		return (end + a - 1) / a * a
	case Array:
		if t.Elem == nil {
			return 0
		}
		return t.Len * t.Elem.Size()
	case Tuple:
		return 0
	}
	return kindInfo[t.Kind].size
}

// Align returns the alignment in bytes, equal to Go's unsafe.Alignof.
func (t *Type) Align() int64 {
	switch t.Kind {
	case Struct:
		a := int64(1)
		for _, f := range t.Fields {
			a = max(a, f.Type.Align())
		}
		return a
	case Array:
		if t.Elem == nil {
			return 1
		}
		return t.Elem.Align()
	case Tuple:
		return 1
	case View:
		return 8 // three words
	case Complex64:
		return 4 // Go aligns a complex as its parts
	case Complex128:
		return 8
	}
	return max(kindInfo[t.Kind].size, 1)
}

// Layout computes the offsets of fields as Go lays out a struct: each at
// the next multiple of its alignment.
func Layout(fields []*Field) {
	var off int64
	for _, f := range fields {
		a := f.Type.Align()
		off = (off + a - 1) / a * a
		f.Offset = off
		off += f.Type.Size()
	}
}

// Bits returns the width of a numeric type in bits.
func (t *Type) Bits() int { return int(kindInfo[t.Kind].size * 8) }

// IsInteger reports whether t is an integer type.
func (t *Type) IsInteger() bool { return t.Kind >= Int8 && t.Kind <= Uintptr }

// IsSigned reports whether t is a signed integer type.
func (t *Type) IsSigned() bool { return t.Kind >= Int8 && t.Kind <= Int }

// IsUnsigned reports whether t is an unsigned integer type.
func (t *Type) IsUnsigned() bool { return t.Kind >= Uint8 && t.Kind <= Uintptr }

// IsFloat reports whether t is a floating-point type.
func (t *Type) IsFloat() bool { return t.Kind == Float32 || t.Kind == Float64 }

// IsNumeric reports whether t is an integer or floating-point type. Complex
// types are numeric in Go but not here: they have no order, and every use
// of IsNumeric needs one or a real number; see IsComplex.
func (t *Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// IsComplex reports whether t is complex64 or complex128.
func (t *Type) IsComplex() bool { return t.Kind == Complex64 || t.Kind == Complex128 }

// PartType returns the type of the real and imaginary parts of a complex
// type: float32 for complex64, float64 for complex128.
func (t *Type) PartType() *Type {
	if t.Kind == Complex64 {
		return Basic(Float32)
	}
	return Basic(Float64)
}

// HasComplex reports whether t is a complex type or holds one: in a field,
// an array element, a view's elements or a tuple.
func (t *Type) HasComplex() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case Complex64, Complex128:
		return true
	case Array, View:
		return t.Elem.HasComplex()
	case Struct:
		for _, f := range t.Fields {
			if f.Type.HasComplex() {
				return true
			}
		}
	case Tuple:
		for _, e := range t.Elems {
			if e.HasComplex() {
				return true
			}
		}
	}
	return false
}

// HalfPkg is the import path of package half, whose types Float16 and
// BFloat16 are the kinds Float16 and BFloat16.
const HalfPkg = "github.com/gocccl/gocccl/half"

// IsHalf reports whether t is half.Float16 or half.BFloat16. Like complex
// types they are not numeric here: Go's operators on them act on the bit
// patterns (their underlying type is uint16), so operators compute with the
// package's methods instead.
func (t *Type) IsHalf() bool { return t.Kind == Float16 || t.Kind == BFloat16 }

// HasHalf reports whether t is a half type or holds one: in a field, an
// array element, a view's elements or a tuple.
func (t *Type) HasHalf() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case Float16, BFloat16:
		return true
	case Array, View:
		return t.Elem.HasHalf()
	case Struct:
		for _, f := range t.Fields {
			if f.Type.HasHalf() {
				return true
			}
		}
	case Tuple:
		for _, e := range t.Elems {
			if e.HasHalf() {
				return true
			}
		}
	}
	return false
}

// IsBool reports whether t is a boolean type.
func (t *Type) IsBool() bool { return t.Kind == Bool }

// IsBasic reports whether t is a boolean, numeric, complex or half type.
func (t *Type) IsBasic() bool { return t.Kind >= Bool && t.Kind <= BFloat16 }

// HasView reports whether t is a View or holds one: in a field, an array
// element, or a nested struct's field.
func (t *Type) HasView() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case View:
		return true
	case Array:
		return t.Elem.HasView()
	case Struct:
		for _, f := range t.Fields {
			if f.Type.HasView() {
				return true
			}
		}
	}
	return false
}

// IsComposite reports whether t is a struct or array type.
func (t *Type) IsComposite() bool { return t.Kind == Struct || t.Kind == Array }

// Identical reports whether t and u are the same Go type.
func (t *Type) Identical(u *Type) bool {
	if t == u {
		return true
	}
	if t == nil || u == nil || t.Kind != u.Kind || t.Name != u.Name || t.Pkg != u.Pkg {
		return false
	}
	switch t.Kind {
	case Array:
		return t.Len == u.Len && t.Elem.Identical(u.Elem)
	case View:
		return t.Elem.Identical(u.Elem)
	case Tuple:
		if len(t.Elems) != len(u.Elems) {
			return false
		}
		for i := range t.Elems {
			if !t.Elems[i].Identical(u.Elems[i]) {
				return false
			}
		}
	}
	// Named structs are identical by name and package.
	return true
}

// AssignableTo reports whether a value of type t may be assigned to a
// variable of type u in an operator: t and u are identical, or both are
// arrays of the same length and element type and at least one of them is
// not a named type (Go's assignability rule for the composite types an
// operator may use).
func (t *Type) AssignableTo(u *Type) bool {
	if t.Identical(u) {
		return true
	}
	return t != nil && u != nil && t.Kind == Array && u.Kind == Array &&
		(t.Name == "" || u.Name == "") && t.Len == u.Len && t.Elem.Identical(u.Elem)
}
