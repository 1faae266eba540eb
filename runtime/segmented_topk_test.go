package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// segTopKOracle is the plain oracle: each segment's positions sorted stably
// by ordered bits, the first k, in input order unless sorted.
func segTopKOracle[K RadixKey](keys []K, b, e int64, k int, o TopKOptions) []int {
	m := int(e - b)
	bits := make([]uint64, m)
	if m > 0 {
		orderedBits64(keys[b:e], bits, o.Largest)
	}
	pos := make([]int, m)
	for i := range pos {
		pos[i] = i
	}
	slices.SortStableFunc(pos, func(x, y int) int {
		if bits[x] < bits[y] {
			return -1
		} else if bits[x] > bits[y] {
			return 1
		}
		return 0
	})
	pos = pos[:min(k, m)]
	if !o.Sorted {
		slices.Sort(pos)
	}
	for i := range pos {
		pos[i] += int(b)
	}
	return pos
}

func TestSegmentedTopKCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(37, 1))
	const k = 16
	lens := []int{0, 1, k - 1, k, k + 1, 31, 32, 33, 1023, 4097}
	var begin, end []int64
	at := int64(0)
	for _, m := range lens {
		at += 3 // gaps
		begin, end = append(begin, at), append(end, at+int64(m))
		at += int64(m)
	}
	// Out of order and overlapping.
	begin, end = append(begin, 5, 0), append(end, 40, 10)
	slices.Reverse(begin)
	slices.Reverse(end)
	n := int(at) + 7
	keys := make([]float32, n)
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), -float32(math.NaN())}
	for i := range keys {
		switch r.IntN(4) {
		case 0:
			keys[i] = specials[r.IntN(len(specials))]
		case 1:
			keys[i] = float32(r.IntN(4)) // many ties
		default:
			keys[i] = r.Float32()*200 - 100
		}
	}
	vals := make([]int32, n)
	for i := range vals {
		vals[i] = int32(i)
	}
	in, vin := must(FromHost(d, keys)), must(FromHost(d, vals))
	b, e := must(FromHost(d, begin)), must(FromHost(d, end))
	segs := len(begin)
	const poison = float32(-12345)
	for _, o := range []TopKOptions{{}, {Largest: true}, {Sorted: true}, {Largest: true, Sorted: true}} {
		what := fmt.Sprintf("%+v", o)
		pk := make([]float32, segs*k+2)
		for i := range pk {
			pk[i] = poison
		}
		pv := make([]int32, segs*k+2)
		for i := range pv {
			pv[i] = -1
		}
		kout, kout2, vout := must(FromHost(d, pk)), must(FromHost(d, pk)), must(FromHost(d, pv))
		require.NoError(t, SegmentedTopKKeys[float32]().Run(nil, in, kout, b, e, k, o), what)
		require.NoError(t, SegmentedTopKPairs[float32, int32]().Run(nil, in, kout2, vin, vout, b, e, k, o), what)
		gk, gk2, gv := must(kout.ToHost()), must(kout2.ToHost()), must(vout.ToHost())
		require.True(t, bitsEqual(gk, gk2), what)
		for s := range segs {
			want := segTopKOracle(keys, begin[s], end[s], k, o)
			for i := range k {
				j := s*k + i
				if i >= len(want) {
					require.True(t, bitsEqual(gk[j:j+1], []float32{poison}), "%s seg %d slot %d touched", what, s, i)
					require.Equal(t, int32(-1), gv[j], what)
					continue
				}
				require.True(t, bitsEqual(gk[j:j+1], keys[want[i]:want[i]+1]), "%s seg %d slot %d: %v want %v", what, s, i, gk[j], keys[want[i]])
				require.Equal(t, int32(want[i]), gv[j], "%s seg %d slot %d", what, s, i)
			}
		}
		require.True(t, bitsEqual(gk[segs*k:], []float32{poison, poison}), what)
	}
}

func TestSegmentedTopKErrors(t *testing.T) {
	d := cpuDevice(t)
	op := SegmentedTopKKeys[int32]()
	in := must(FromHost(d, make([]int32, 10)))
	out := must(FromHost(d, make([]int32, 8)))
	b, e := must(FromHost(d, []int64{0, 5})), must(FromHost(d, []int64{5, 10}))
	e1 := must(FromHost(d, []int64{5}))
	bad := must(FromHost(d, []int64{6, 11}))
	require.NoError(t, op.Run(nil, in, out, b, e, 4, TopKOptions{}))
	require.Error(t, op.Run(nil, in, out, b, e, 5, TopKOptions{}))   // output too short
	require.Error(t, op.Run(nil, in, out, b, e, -1, TopKOptions{}))  // negative k
	require.Error(t, op.Run(nil, in, out, b, e1, 4, TopKOptions{}))  // offsets lengths
	require.Error(t, op.Run(nil, in, out, b, bad, 4, TopKOptions{})) // end past input
	require.Error(t, op.Run(nil, in, in, b, e, 4, TopKOptions{}))    // overlap
	big := must(FromHost(d, make([]int32, 2*(SegmentedTopKSortedMax+1))))
	require.Error(t, op.Run(nil, in, big, b, e, SegmentedTopKSortedMax+1, TopKOptions{Sorted: true}))
	require.NoError(t, op.Run(nil, in, out, b, e, 0, TopKOptions{}))
}

// TestSegmentedTopKSizes checks the CPU backend against the oracle over
// segments of the sizes around its sort/select switch (segTopKSortMin),
// the GPU's tile, odd primes and 10^6+3, random uint32 keys with ties,
// into poisoned outputs.
func TestSegmentedTopKSizes(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(37, 2))
	lens := []int{0, 1, segTopKSortMin - 1, segTopKSortMin, segTopKSortMin + 1, 4095, 4097, 7919, 1_000_003}
	if testing.Short() {
		lens = lens[:len(lens)-1]
	}
	var begin, end []int64
	at := int64(0)
	for _, m := range lens {
		begin, end = append(begin, at), append(end, at+int64(m))
		at += int64(m) + 1
	}
	keys := make([]uint32, at)
	for i := range keys {
		keys[i] = r.Uint32() % 50_000
	}
	in := must(FromHost(d, keys))
	b, e := must(FromHost(d, begin)), must(FromHost(d, end))
	const poison = uint32(0xABABABAB)
	for _, k := range []int{1, 16, 1024} {
		for _, o := range []TopKOptions{{Largest: true}, {Sorted: true}} {
			what := fmt.Sprintf("k=%d %+v", k, o)
			pk := make([]uint32, len(lens)*k+1)
			for i := range pk {
				pk[i] = poison
			}
			out := must(FromHost(d, pk))
			require.NoError(t, SegmentedTopKKeys[uint32]().Run(nil, in, out, b, e, k, o), what)
			got := must(out.ToHost())
			for s := range lens {
				want := segTopKOracle(keys, begin[s], end[s], k, o)
				for i := range k {
					w := poison
					if i < len(want) {
						w = keys[want[i]]
					}
					require.Equal(t, w, got[s*k+i], "%s segment %d place %d", what, s, i)
				}
			}
			require.Equal(t, poison, got[len(lens)*k], what)
		}
	}
}
