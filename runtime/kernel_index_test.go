package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/algo"
)

// TestKernelIndices checks every kernel index the runtime took from the
// descriptions: each names a kernel of every description it was taken
// from, at the same index, so a reordered or renamed kernel fails here
// rather than on a GPU.
func TestKernelIndices(t *testing.T) {
	require.NotEmpty(t, kernelLookups)
	seen := map[string]bool{}
	for _, l := range kernelLookups {
		assert.GreaterOrEqual(t, l.index, 0, "%s: not in every description, or not at one index", l)
		for _, name := range l.algs {
			a := algo.Lookup(name)
			require.NotNil(t, a, name)
			if l.index >= 0 {
				assert.Equal(t, l.suffix, a.Kernels[l.index].Suffix, "%s", l)
			}
			seen[name] = true
		}
	}
	// Every algorithm the runtime launches on a GPU names its kernels
	// through kernelIndex.
	for _, a := range algo.All() {
		assert.True(t, seen[a.Name], "%s launches no kernel taken by kernelIndex", a.Name)
	}
}

// TestKernelIndexMismatch checks that kernelIndex gives -1 for a suffix a
// description lacks and for descriptions that place a kernel apart.
func TestKernelIndexMismatch(t *testing.T) {
	defer func(n int) { kernelLookups = kernelLookups[:n] }(len(kernelLookups))
	assert.Equal(t, -1, kernelIndex("nosuch", algo.Reduce))
	assert.Equal(t, -1, kernelIndex("sweep"))
	// Select has an "init" kernel, Reduce has none.
	assert.Equal(t, -1, kernelIndex("init", algo.Select, algo.Reduce))
	assert.Equal(t, algo.Reduce.KernelIndex("final"), kernelIndex("final", algo.Reduce))
}
