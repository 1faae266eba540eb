package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestJoinParts: parts lie back to back at multiples of PartAlign, zeros
// between them, each hashed; checkParts accepts exactly that layout and the
// cache's encoding gives it back.
func TestJoinParts(t *testing.T) {
	images := [][]byte{[]byte("\x7fELF seventeen b."), []byte("\x7fELF two"), []byte("x")}
	a := joinParts(images)
	assert.Equal(t, []int{0, 32, 48}, PartOffsets(a.parts))
	require.Len(t, a.data, 49)
	for i, off := range PartOffsets(a.parts) {
		assert.Equal(t, images[i], a.data[off:off+a.parts[i].Size])
		assert.Equal(t, sha256Hex(images[i]), a.parts[i].SHA256)
	}
	assert.Equal(t, make([]byte, 15), a.data[17:32], "zeros between parts")
	assert.True(t, checkParts(a.data, a.parts))
	assert.False(t, checkParts(append(a.data, 0), a.parts), "bytes after the last part")
	assert.False(t, checkParts(a.data[:48], a.parts), "a truncated image")
	damaged := append([]byte(nil), a.data...)
	damaged[33] ^= 1
	assert.False(t, checkParts(damaged, a.parts))
	assert.False(t, checkParts(a.data, nil), "no parts vouch for nothing")
	assert.False(t, checkParts(a.data, []PartHash{{Size: -1}}), "a negative size, from a damaged manifest")
	assert.False(t, checkParts(a.data, []PartHash{{Size: 1 << 62}}), "a size past the end")

	b, err := decodeArtifact(encodeArtifact(a))
	require.NoError(t, err)
	assert.Equal(t, a, b)
	a.relaxed = []Relaxed{{Kernel: "gocccl_x_sweep", MinBlocks: 5, Compiled: 4, Spilled: 700, SpilledCompiled: 100}}
	b, err = decodeArtifact(encodeArtifact(a))
	require.NoError(t, err)
	assert.Equal(t, a, b, "the spill guard's record travels with the image")
	for _, bad := range []string{"", "image", `{"parts":[]}` + "\nx", `{"parts":[-1]}` + "\n", `{"parts":[9]}` + "\nshort",
		`{"parts":[5,9223372036854775807]}` + "\nabcde", `{"parts":[2]}` + "\nabc", `{"parts":[3]` + "\nabc",
		"parts 3\nabc", // the layout before cache v3
	} {
		_, err := decodeArtifact([]byte(bad))
		assert.Error(t, err, "%q", bad)
	}
}

// TestInstanceParts: one part per instance in instance order, its kernels in
// the algorithm's order; instances that share a kernel share a part.
func TestInstanceParts(t *testing.T) {
	pkg := reducePkg()
	parts, partOf := instanceParts(pkg)
	require.Len(t, parts, len(pkg.Instances))
	for i, in := range pkg.Instances {
		assert.Equal(t, i, partOf[i])
		sym := instanceSymbol(in)
		var want []string
		for _, k := range in.Algorithm.Kernels {
			want = append(want, k.Symbol(sym))
		}
		assert.Equal(t, want, parts[i])
	}

	twice := reducePkg()
	twice.Instances = append(twice.Instances, twice.Instances[0])
	parts, partOf = instanceParts(twice)
	assert.Len(t, parts, len(pkg.Instances), "a repeated instance adds no part")
	assert.Equal(t, 0, partOf[len(partOf)-1])

	none, of := instanceParts(&model.Package{})
	assert.Empty(t, none)
	assert.Empty(t, of)
}
