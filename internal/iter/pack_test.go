package iter

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// words reads a packed argument as little-endian 64-bit words.
func words(t *testing.T, b Blob) []uint64 {
	t.Helper()
	require.Zero(t, len(b.B)%8, "a struct of 8-byte fields packs to whole words")
	w := make([]uint64, len(b.B)/8)
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(b.B[8*i:])
	}
	return w
}

// TestPackPermutationBound: a Permutation and a PermutationOutput pack
// their operands and then the length of what they index (the values, the
// output), against which iterator.cuh checks every index; an operand with
// no length of its own packs -1, which checks nothing.
func TestPackPermutationBound(t *testing.T) {
	i32 := reflect.TypeFor[int32]()
	i64 := reflect.TypeFor[int64]()
	values := &Node{Kind: Slice, Type: i32}
	idx := &Node{Kind: Slice, Type: i64}
	counting := &Node{Kind: Counting, Type: i32}
	out := &Node{Kind: Slice, Type: i32}
	env := &Env{Vals: []Value{
		{Leaf: values, V: Buf{Ptr: 0x1000, N: 7}},
		{Leaf: idx, V: Buf{Ptr: 0x2000, N: 3}},
		{Leaf: counting, V: int32(5)},
		{Leaf: out, V: Buf{Ptr: 0x3000, N: 11}},
	}}

	cases := []struct {
		name string
		n    *Node
		want []uint64
	}{
		{"Permutation(Slice, Slice)", &Node{Kind: Permutation, Type: i32, In: []*Node{values, idx}},
			[]uint64{0x1000, 0x2000, 7}},
		{"Permutation(Counting, Slice)", &Node{Kind: Permutation, Type: i32, In: []*Node{counting, idx}},
			[]uint64{5, 0x2000, ^uint64(0)}}, // Counting[int32] is 4 bytes, padded to the index pointer
		{"PermutationOutput(Slice, Slice)", &Node{Kind: PermutationOutput, Type: i32, In: []*Node{out, idx}},
			[]uint64{0x3000, 0x2000, 11}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := Pack(c.n, env)
			require.NoError(t, err)
			require.Equal(t, 8, b.Align)
			require.Equal(t, c.want, words(t, b))
		})
	}
}
