package runtime

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// tagged is a key with its origin, to see stability.
type tagged struct {
	Key, Tag int32
}

func lessKey(a, b tagged) bool { return a.Key < b.Key }

// mergeOracle is the plain sequential stable merge.
func mergeOracle(a, b []tagged) []tagged {
	out := make([]tagged, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || i < len(a) && a[i].Key <= b[j].Key {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

func sortedTagged(r *rand.Rand, n int, keys uint32, tag int32) []tagged {
	s := make([]tagged, n)
	for i := range s {
		s[i] = tagged{Key: int32(r.Uint32N(keys)) - int32(keys/2), Tag: tag + int32(i)}
	}
	slices.SortStableFunc(s, func(x, y tagged) int { return int(x.Key) - int(y.Key) })
	return s
}

func TestMergeCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	sizes := []int{0, 1, 2047, 2048, 2049, 7919, 1_000_003}
	for _, na := range sizes {
		for _, nb := range sizes {
			if na+nb > 1_100_000 {
				continue
			}
			for _, keys := range []uint32{5, 1 << 30} { // many ties, few ties
				a := sortedTagged(r, na, keys, 1)
				b := sortedTagged(r, nb, keys, -1<<30)
				x, _ := FromHost(d, a)
				y, _ := FromHost(d, b)
				out, err := FromHost(d, slices.Repeat([]tagged{{-1, -1}}, na+nb+1))
				require.NoError(t, err)
				require.NoError(t, Merge(lessKey).Run(nil, x, y, out))
				got, _ := out.ToHost()
				require.Equal(t, mergeOracle(a, b), got[:na+nb], "na=%d nb=%d keys=%d", na, nb, keys)
				require.Equal(t, tagged{-1, -1}, got[na+nb], "wrote past the output")
			}
		}
	}
}

func TestMergeBadArguments(t *testing.T) {
	d := cpuDevice(t)
	a, _ := FromHost(d, []int32{1, 3})
	b, _ := FromHost(d, []int32{2})
	short, _ := Alloc[int32](d, 2)
	require.ErrorContains(t, Merge(lessInt32).Run(nil, a, b, short), "output has 2 elements")
	require.ErrorContains(t, Merge(lessInt32).Run(nil, a, nil, short), "nil slice")
	require.ErrorContains(t, Merge[int32](nil).Run(nil, a, b, short), "nil comparison")
	out, _ := Alloc[int32](d, 3)
	require.ErrorContains(t, Merge(func(x, y int32) bool { panic("boom") }).Run(nil, a, b, out), "boom")
	require.NoError(t, Merge(lessInt32).Run(nil, a, b, out))
	got, _ := out.ToHost()
	require.Equal(t, []int32{1, 2, 3}, got)
}
