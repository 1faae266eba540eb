package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLayout pins the layout format; runtime/layout_test.go pins the same
// strings for the Go types reflect describes.
func TestLayout(t *testing.T) {
	field := func(name string, t *Type) *Field { return &Field{Name: name, Type: t} }
	strct := func(name string, fs ...*Field) *Type {
		Layout(fs)
		return &Type{Kind: Struct, Name: name, Pkg: "p", Fields: fs}
	}
	arr := func(n int64, e *Type) *Type { return &Type{Kind: Array, Len: n, Elem: e} }
	pixel := strct("Pixel", field("A", Basic(Int8)), field("B", Basic(Float64)), field("C", Basic(Int16)), field("D", arr(3, Basic(Uint8))))
	pair := strct("Pair", field("P", pixel), field("_", Basic(Int32)), field("G", arr(2, arr(2, Basic(Float32)))), field("U", Basic(Uint)), field("K", Basic(Bool)))
	for _, c := range []struct {
		t    *Type
		want string
	}{
		{Basic(Int32), "int32/4"},
		{&Type{Kind: Float32, Name: "Celsius", Pkg: "p"}, "float32/4"},
		{Basic(Uintptr), "uintptr/8"},
		{&Type{Kind: Float16, Name: "Float16", Pkg: HalfPkg}, "uint16/2"},
		{arr(2, &Type{Kind: BFloat16, Name: "BFloat16", Pkg: HalfPkg}), "[2]uint16/4"},
		{arr(4, Basic(Int16)), "[4]int16/8"},
		{pixel, "{A@0:int8,B@8:float64,C@16:int16,D@18:[3]uint8}/24"},
		{pair, "{P@0:{A@0:int8,B@8:float64,C@16:int16,D@18:[3]uint8},_@24:int32,G@28:[2][2]float32,U@48:uint,K@56:bool}/64"},
	} {
		assert.Equal(t, c.want, c.t.Layout(), c.t.GoName())
	}
}
