package runtime

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func notGeneratedOp(a, b int32) int32 { return a - b }

func notGeneratedPred(x int32) bool { return x > 0 }

// TestCPUNotGenerated: by default a CPU device refuses an instance that
// gocccl-gen generated no kernels for, with the error a GPU returns, which
// names the instance, where it was declared and what to run; so does
// TempStorageBytes. With GOCCCL_UNGENERATED=1 it runs the Go operator and
// its String says so.
func TestCPUNotGenerated(t *testing.T) {
	t.Setenv(EnvUngenerated, "")
	d, err := Open(CPU)
	require.NoError(t, err)
	defer d.Close()
	assert.False(t, d.Info().Ungenerated)
	assert.NotContains(t, d.String(), EnvUngenerated)
	in, err := FromHost(d, []int32{1, 2, 3})
	require.NoError(t, err)
	out, err := Alloc[int32](d, 3)
	require.NoError(t, err)
	count, err := Alloc[int64](d, 1)
	require.NoError(t, err)

	red := Reduce(notGeneratedOp) // the line named in the error
	line := "ungenerated_test.go:"
	for name, err := range map[string]error{
		"Reduce":          red.Run(nil, in, out, 0),
		"InclusiveScan":   InclusiveScan(notGeneratedOp).Run(nil, in, out),
		"BinaryTransform": BinaryTransform(notGeneratedOp).Run(nil, in, in, out),
		"Select":          Select(notGeneratedPred).Run(nil, in, out, count),
		"RadixSortKeys":   RadixSortKeys[int32]().Run(nil, in, out, RadixOptions{}),
	} {
		require.ErrorIs(t, err, ErrNotGenerated, name)
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, "gocccl: "+name), "%s: %s", name, msg)
		assert.Equal(t, 1, strings.Count(msg, "gocccl: "), "%s: prefixed once: %s", name, msg)
		assert.Contains(t, msg, "run go generate in package github.com/gocccl/gocccl/runtime", name)
		assert.Contains(t, msg, line, name)
	}
	err = red.Run(nil, in, out, 0)
	assert.Contains(t, err.Error(), "Reduce(github.com/gocccl/gocccl/runtime.notGeneratedOp), declared at ")
	_, err = red.TempStorageBytes(d, 1000)
	require.ErrorIs(t, err, ErrNotGenerated)

	t.Setenv(EnvUngenerated, "1")
	u, err := Open(CPU)
	require.NoError(t, err)
	defer u.Close()
	assert.True(t, u.Info().Ungenerated)
	assert.Contains(t, u.String(), "running operators without generated kernels (GOCCCL_UNGENERATED=1)")
	uin, err := FromHost(u, []int32{1, 2, 3})
	require.NoError(t, err)
	uout, err := Alloc[int32](u, 1)
	require.NoError(t, err)
	require.NoError(t, red.Run(nil, uin, uout, 10))
	got, err := uout.ToHost()
	require.NoError(t, err)
	assert.Equal(t, int32(10-((1-2)-3)), got[0])

	t.Setenv(EnvUngenerated, "maybe")
	_, err = Open(CPU)
	assert.ErrorContains(t, err, `GOCCCL_UNGENERATED="maybe"`)
}
