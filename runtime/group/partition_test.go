package group

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

var (
	halves    = runtime.Partition(odd)
	histRange = runtime.HistogramRange[float32]()
)

// TestPartition checks Partition over a group against one device's
// Partition of the whole input (poisoned outputs): the selected shards in
// rank order, the rejected ones from the last rank to the first.
func TestPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := randomInt64s(rng, sh.n)
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()
			out, err := Scatter(g, poison(sh.n))
			require.NoError(t, err)
			defer out.Free()
			sel, rej, err := Partition(halves, in, out)
			require.NoError(t, err)
			gotSel, err := sel.Gather()
			require.NoError(t, err)
			var gotRej []int64
			for r := g.Size() - 1; r >= 0; r-- {
				part, err := rej.Shard(r).ToHost()
				require.NoError(t, err)
				gotRej = append(gotRej, part...)
			}

			sin, err := runtime.FromHost(one, host)
			require.NoError(t, err)
			defer sin.Free()
			sout, err := runtime.FromHost(one, poison(sh.n))
			require.NoError(t, err)
			defer sout.Free()
			count, err := runtime.Alloc[int64](one, 1)
			require.NoError(t, err)
			defer count.Free()
			require.NoError(t, halves.Run(nil, sin, sout, count))
			c, err := count.ToHost()
			require.NoError(t, err)
			single, err := sout.ToHost()
			require.NoError(t, err)
			k := int(c[0])
			assert.Equal(t, single[:k], gotSel, "selected against one device")
			assert.Equal(t, nonNil(single[k:]), nonNil(gotRej), "rejected against one device")
			assert.Equal(t, k, sel.Len())
			assert.Equal(t, sh.n-k, rej.Len())
			assert.ErrorContains(t, sel.Free(), "views of the output of Partition")
		})
	}
	_, _, err := Partition(halves, nil, nil)
	assert.EqualError(t, err, "gocccl: group.Partition: nil input or output")
}

// TestRebalance checks that Rebalance keeps the sequence and splits it as
// Split does, from shards as uneven as a Select leaves them.
func TestRebalance(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, lens := range [][]int{{0}, {5}, {0, 0}, {9, 0}, {0, 0, 13}, {100, 0, 1, 57, 2}, {1, 1, 1, 1, 1, 1, 1, 1}, {3000, 0, 0, 0, 0, 0, 0, 1}} {
		t.Run(fmt.Sprint(lens), func(t *testing.T) {
			g := cpuGroup(t, len(lens))
			s, err := Alloc[int64](g, lens)
			require.NoError(t, err)
			defer s.Free()
			var whole []int64
			for r, n := range lens {
				part := randomInt64s(rng, n)
				require.NoError(t, s.Shard(r).CopyFromHost(part))
				whole = append(whole, part...)
			}
			b, err := Rebalance(s)
			require.NoError(t, err)
			defer b.Free()
			assert.Equal(t, Split(len(whole), g.Size()), b.Lens())
			got, err := b.Gather()
			require.NoError(t, err)
			assert.Equal(t, nonNil(whole), got)
			before, err := s.Gather()
			require.NoError(t, err)
			assert.Equal(t, nonNil(whole), before, "the input is left as it was")
		})
	}
}

// TestHistogramRange checks HistogramRange over a group against one
// device's of the whole input, with samples below, between and above the
// levels.
func TestHistogramRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	one := cpuGroup(t, 1).Device(0)
	levels := []float32{0, 0.5, 1, 2, 3.25, 5, 8, 10}
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := make([]float32, sh.n)
			for i := range host {
				host[i] = rng.Float32()*12 - 1
			}
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()
			got, err := HistogramRange(histRange, in, levels)
			require.NoError(t, err)

			want := make([]int32, len(levels)-1)
			for _, x := range host {
				if i, found := slices.BinarySearch(levels, x); x >= levels[0] && x < levels[len(levels)-1] {
					if !found {
						i--
					}
					want[i]++
				}
			}
			assert.Equal(t, want, got, "against a Go loop")
			sin, err := runtime.FromHost(one, host)
			require.NoError(t, err)
			defer sin.Free()
			lv, err := runtime.FromHost(one, levels)
			require.NoError(t, err)
			defer lv.Free()
			sout, err := runtime.Alloc[int32](one, len(levels)-1)
			require.NoError(t, err)
			defer sout.Free()
			require.NoError(t, histRange.Run(nil, sin, sout, lv))
			single, err := sout.ToHost()
			require.NoError(t, err)
			assert.Equal(t, single, got, "against one device")
		})
	}
	_, err := HistogramRange(histRange, cpuGroup(t, 2).mustScatter(t), []float32{1})
	assert.EqualError(t, err, "gocccl: group.HistogramRange: 1 levels, want at least 2")
}

func (g *Group) mustScatter(t *testing.T) *Sharded[float32] {
	s, err := Scatter(g, []float32{1, 2, 3})
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}
