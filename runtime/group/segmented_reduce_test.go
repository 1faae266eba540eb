package group

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

var (
	segSum = runtime.SegmentedReduce(add)
	segMax = runtime.SegmentedReduce(maxOf)
)

// csr returns random segment offsets over n items with lengths around
// mean (0 included), starting at a random position and ending before n or
// at it, with some empty segments at the end.
func csr(rng *rand.Rand, n, mean int) []int64 {
	o := int64(rng.IntN(n/4 + 1))
	offs := []int64{o}
	for o < int64(n) {
		o = min(int64(n), o+int64(rng.IntN(2*mean+1)))
		offs = append(offs, o)
		if rng.IntN(50) == 0 {
			break // items past the last segment
		}
	}
	for range rng.IntN(3) {
		offs = append(offs, o)
	}
	return offs
}

// owner is the rank whose shard [lens[0]+…+lens[r-1], +lens[r]) holds
// position b, or the last rank for b = n: the plain definition that
// ownedSegments computes.
func owner(lens []int, b int64) int {
	lo := int64(0)
	for r, l := range lens {
		if b >= lo && b < lo+int64(l) {
			return r
		}
		lo += int64(l)
	}
	return len(lens) - 1
}

// TestSegmentedReduce checks SegmentedReduce over groups against a Go loop
// and one device's SegmentedReduce, bit for bit, with segments within a
// shard, spanning several whole shards, empty ones and ones at the end, and
// results sharded by owner.
func TestSegmentedReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range append(shapes, struct{ size, n int }{8, 40}, struct{ size, n int }{5, 3}) {
		for _, mean := range []int{1, 30, sh.n/2 + 1} {
			t.Run(fmt.Sprintf("g=%d/n=%d/mean=%d", sh.size, sh.n, mean), func(t *testing.T) {
				g := cpuGroup(t, sh.size)
				xs := randomInt64s(rng, sh.n)
				offs := csr(rng, sh.n, mean)
				k := len(offs) - 1
				in, err := Scatter(g, xs)
				require.NoError(t, err)
				defer in.Free()
				for _, c := range []struct {
					sr   *runtime.SegmentedReduceOp[int64]
					fn   func(a, b int64) int64
					init int64
				}{{segSum, add, 7}, {segMax, maxOf, -1 << 62}} {
					out, err := SegmentedReduce(c.sr, in, offs, c.init)
					require.NoError(t, err)
					got, err := out.Gather()
					require.NoError(t, err)
					lens := out.Lens()
					require.NoError(t, out.Free())

					want := make([]int64, k)
					wantLens := make([]int, sh.size)
					for s := range k {
						acc := c.init
						for _, x := range xs[offs[s]:offs[s+1]] {
							acc = c.fn(acc, x)
						}
						want[s] = acc
						wantLens[owner(Split(sh.n, sh.size), offs[s])]++
					}
					assert.Equal(t, nonNil(want), got, "against a Go loop")
					assert.Equal(t, wantLens, lens, "sharded by owner")

					single := make([]int64, k)
					if k > 0 {
						sx, err := runtime.FromHost(one, xs)
						require.NoError(t, err)
						so, err := runtime.FromHost(one, offs)
						require.NoError(t, err)
						sr, err := runtime.Alloc[int64](one, k)
						require.NoError(t, err)
						require.NoError(t, c.sr.Run(nil, sx, so.Range(0, k), so.Range(1, k+1), sr, c.init))
						single, err = sr.ToHost()
						require.NoError(t, err)
						for _, s := range []*runtime.Slice[int64]{sx, so, sr} {
							require.NoError(t, s.Free())
						}
					}
					assert.Equal(t, nonNil(single), got, "against one device")
				}
			})
		}
	}
}

// TestSegmentedReduceErrors: bad offsets are refused before any work.
func TestSegmentedReduceErrors(t *testing.T) {
	g := cpuGroup(t, 3)
	in, err := Scatter(g, []int64{1, 2, 3, 4, 5})
	require.NoError(t, err)
	defer in.Free()
	for name, c := range map[string]struct {
		offs []int64
		want string
	}{
		"none":       {nil, "no offsets"},
		"negative":   {[]int64{-1, 2}, "offset 0 is -1"},
		"past n":     {[]int64{0, 6}, "offset 1 is 6, outside [0, 5]"},
		"decreasing": {[]int64{0, 3, 2}, "offset 2 is 2, below offset 1's 3"},
	} {
		_, err := SegmentedReduce(segSum, in, c.offs, 0)
		assert.ErrorContains(t, err, c.want, name)
		assert.ErrorContains(t, err, "group.SegmentedReduce", name)
	}
	_, err = SegmentedReduce(nil, in, []int64{0, 1}, 0)
	assert.ErrorContains(t, err, "nil operator")
	_, err = SegmentedReduce(segSum, nil, []int64{0, 1}, 0)
	assert.ErrorContains(t, err, "nil input")
}
