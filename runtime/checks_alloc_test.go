package runtime

import (
	"testing"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/stretchr/testify/require"
)

// TestChecksDoNotAllocate: the argument checks every call makes (a slice's
// usability in a role, the instance's name, that buffers do not overlap)
// cost no allocation when the arguments are good, so that a GPU call can
// make none (the GPU suite's TestGPUAllocations measures whole calls); a
// bad argument still gets its full message.
func TestChecksDoNotAllocate(t *testing.T) {
	d := openCPUDevice(t)
	s, err := Alloc[int32](d, 16)
	require.NoError(t, err)
	c, err := Alloc[int64](d, 1)
	require.NoError(t, err)
	in := newInstance(algo.Select, []any{func(int32) bool { return true }}, nil)
	k, v, u, a := s.Range(0, 4), s.Range(4, 8), s.Range(8, 12), s.Range(12, 16)
	var name string
	allocs := testing.AllocsPerRun(100, func() {
		name = in.name()
		if err := s.usableAs(name, "input"); err != nil {
			t.Fatal(err)
		}
		_ = bufferOf(name, "output", s)
		// Five buffers, as ReduceByKey checks them.
		if err := disjoint(name, bufferOf(name, "keys", k), bufferOf(name, "values", v),
			bufferOf(name, "unique keys", u), bufferOf(name, "aggregates", a), bufferOf(name, "run count", c)); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "allocations per check")
	require.NoError(t, s.Free())
	err = s.usableAs(name, "input")
	require.ErrorIs(t, err, ErrFreed)
	require.Contains(t, err.Error(), name+" input")
	require.ErrorContains(t, (*Slice[int32])(nil).usableAs("Op", "output"), "gocccl: Op output: nil slice")
}
