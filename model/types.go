package model

import "fmt"

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
)

var kindInfo = [...]struct {
	name  string // Go spelling
	cname string // CUDA C++ spelling
	size  int64
}{
	Invalid: {"invalid", "void", 0},
	Bool:    {"bool", "bool", 1},
	Int8:    {"int8", "int8_t", 1},
	Int16:   {"int16", "int16_t", 2},
	Int32:   {"int32", "int32_t", 4},
	Int64:   {"int64", "int64_t", 8},
	Int:     {"int", "int64_t", 8},
	Uint8:   {"uint8", "uint8_t", 1},
	Uint16:  {"uint16", "uint16_t", 2},
	Uint32:  {"uint32", "uint32_t", 4},
	Uint64:  {"uint64", "uint64_t", 8},
	Uint:    {"uint", "uint64_t", 8},
	Uintptr: {"uintptr", "uint64_t", 8},
	Float32: {"float32", "float", 4},
	Float64: {"float64", "double", 8},
}

// String returns the Go name of the kind, e.g. "uint16".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindInfo) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindInfo[k].name
}

// Type is the type of a value in an operator: a predeclared basic type or a
// named type defined over one.
type Type struct {
	Kind Kind
	// Name is the Go name of a named (defined) type, e.g. "Celsius";
	// empty for predeclared types.
	Name string
	// Pkg is the import path of the package that defines a named type.
	Pkg string
}

// Basic returns the predeclared type of kind k.
func Basic(k Kind) *Type { return &Type{Kind: k} }

// GoName returns the type as Go source in its own package spells it.
func (t *Type) GoName() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Kind.String()
}

// CName returns the CUDA C++ spelling of the type's representation.
func (t *Type) CName() string { return kindInfo[t.Kind].cname }

// Size returns the size in bytes, equal to Go's unsafe.Sizeof.
func (t *Type) Size() int64 { return kindInfo[t.Kind].size }

// Align returns the alignment in bytes, equal to Go's unsafe.Alignof.
func (t *Type) Align() int64 { return kindInfo[t.Kind].size }

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

// IsNumeric reports whether t is an integer or floating-point type.
func (t *Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// IsBool reports whether t is a boolean type.
func (t *Type) IsBool() bool { return t.Kind == Bool }

// Identical reports whether t and u are the same Go type.
func (t *Type) Identical(u *Type) bool {
	return t.Kind == u.Kind && t.Name == u.Name && t.Pkg == u.Pkg
}
