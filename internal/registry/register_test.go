package registry

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/arch"
)

func addInt32(a, b int32) int32 { return a + b }
func subInt32(a, b int32) int32 { return a - b }

// TestRegisterLookup: a registered instance is found under the key its
// handle computes from the same algorithm, operators and types, and under
// no other.
func TestRegisterLookup(t *testing.T) {
	m := NewModule("example.com/reg", "hash", []Image{{Target: arch.Target{Arch: 90}, Data: []byte("x")}})
	i32 := reflect.TypeFor[int32]()
	Register(m, Instance{Algorithm: "Reduce", Ops: []any{addInt32}, Types: []reflect.Type{i32},
		Layouts: []string{"int32/4"}, Kernels: []string{"p", "f", "d"}, Policies: []arch.Policy{{Arch: 90, BlockThreads: 256, ItemsPerThread: 16}}})

	r, err := Lookup(NewKey(algo.Reduce, []any{addInt32}, i32))
	require.NoError(t, err)
	assert.Same(t, m, r.Module)
	assert.Equal(t, []string{"p", "f", "d"}, r.Kernels)
	assert.Contains(t, Packages(), "example.com/reg")
	assert.Same(t, m, ModuleOf("example.com/reg"))
	assert.Nil(t, ModuleOf("example.com/none"), "a package that registered nothing")

	for name, key := range map[string]Key{
		"other operator":  NewKey(algo.Reduce, []any{subInt32}, i32),
		"other type":      NewKey(algo.Reduce, []any{addInt32}, reflect.TypeFor[int64]()),
		"other algorithm": NewKey(algo.UnaryTransform, []any{addInt32}, i32, i32),
	} {
		_, err := Lookup(key)
		assert.ErrorIs(t, err, ErrNotGenerated, name)
		assert.ErrorContains(t, err, "run go generate", name)
	}
	_, err = Lookup(NewKey(algo.Reduce, []any{subInt32}, i32))
	assert.ErrorContains(t, err, "Reduce(github.com/gocccl/gocccl/internal/registry.subInt32)")
}

// TestRegisterMismatch: glue that does not fit the runtime's description
// is reported when the instance runs, naming the fix.
func TestRegisterMismatch(t *testing.T) {
	i32 := reflect.TypeFor[int32]()
	op := func(a, b int32) int32 { return a * b }
	Register(nil, Instance{Algorithm: "Reduce", Ops: []any{op}, Types: []reflect.Type{i32}, Kernels: []string{"only one"}})
	_, err := Lookup(NewKey(algo.Reduce, []any{op}, i32))
	assert.ErrorContains(t, err, "registers 1 operators, 1 types and 1 kernels for Reduce, which has 1, 1 and 3; run go generate")

	Register(nil, Instance{Algorithm: "NoSuchAlgorithm", Ops: []any{op}, Types: []reflect.Type{i32}})
	_, err = Lookup(NewKey(nil, []any{op}, i32))
	assert.ErrorContains(t, err, `names algorithm "NoSuchAlgorithm"`)

	m := NewModule("example.com/mismatch", "hash", []Image{{Target: arch.Target{Arch: 90}, Data: []byte("x"), Parts: []Part{{Offset: 0, Size: 1}}}})
	sub := func(a, b int32) int32 { return a - b }
	Register(m, Instance{Algorithm: "Reduce", Ops: []any{sub}, Types: []reflect.Type{i32}, Kernels: []string{"p", "f", "d"}, Part: 1})
	_, err = Lookup(NewKey(algo.Reduce, []any{sub}, i32))
	assert.ErrorContains(t, err, "places the kernels of Reduce in part 1 of images that have 1; run go generate")
}

func TestKeyString(t *testing.T) {
	assert.Equal(t, "RadixSortKeys[uint32]", Key{Alg: &algo.Algorithm{Name: "RadixSortKeys"}, Types: [MaxTypes]reflect.Type{reflect.TypeFor[uint32]()}}.String())
}
