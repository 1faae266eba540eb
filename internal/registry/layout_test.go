package registry

import (
	"github.com/gocccl/gocccl/internal/algo"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type layoutPixel struct {
	A int8
	B float64
	C int16
	D [3]uint8
}

type layoutPair struct {
	P layoutPixel
	_ int32
	G [2][2]float32
	U uint
	K bool
}

type celsius float32

// TestLayoutOf pins the layout format; cmd/gocccl-gen/internal/model/layout_test.go pins the same
// strings for the model's types, so glue and runtime agree.
func TestLayoutOf(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[int32](), "int32/4"},
		{reflect.TypeFor[celsius](), "float32/4"},
		{reflect.TypeFor[uintptr](), "uintptr/8"},
		{reflect.TypeFor[[4]int16](), "[4]int16/8"},
		{reflect.TypeFor[layoutPixel](), "{A@0:int8,B@8:float64,C@16:int16,D@18:[3]uint8}/24"},
		{reflect.TypeFor[layoutPair](), "{P@0:{A@0:int8,B@8:float64,C@16:int16,D@18:[3]uint8},_@24:int32,G@28:[2][2]float32,U@48:uint,K@56:bool}/64"},
	} {
		assert.Equal(t, c.want, layoutOf(c.t), c.t.String())
	}
}

func TestCheckLayouts(t *testing.T) {
	require.NoError(t, checkLayouts(nil, reflect.TypeFor[int32]()))
	require.NoError(t, checkLayouts([]string{"int32/4", "float64/8"}, reflect.TypeFor[int32](), reflect.TypeFor[float64]()))
	err := checkLayouts([]string{"{A@0:int8,B@8:float64/16"}, reflect.TypeFor[layoutPixel]())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "element type registry.layoutPixel has layout {A@0:int8,B@8:float64,C@16:int16,D@18:[3]uint8}/24 in Go")
	assert.Contains(t, err.Error(), "run go generate")
	assert.Error(t, checkLayouts([]string{"int32/4"}, reflect.TypeFor[int32](), reflect.TypeFor[int32]()))
}

// TestRegisterChangedLayout: an instance registered with layouts that no
// longer match its element type is found, but reports the change.
func TestRegisterChangedLayout(t *testing.T) {
	op := func(a, b layoutPixel) layoutPixel { return a }
	typ := reflect.TypeFor[layoutPixel]()
	Register(nil, Instance{Algorithm: "Reduce", Ops: []any{op}, Types: []reflect.Type{typ},
		Layouts: []string{"{A@0:int8}/1"}, Kernels: []string{"p", "f", "d"}})
	_, err := Lookup(NewKey(algo.Reduce, []any{op}, typ))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the type changed since the kernels were generated")
}
