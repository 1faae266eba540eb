package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func rbkEq(a, b uint32) bool { return a == b }

// rbkSpan keeps the first and last value of a run: associative, not
// commutative, so any reordering shows.
func rbkSpan(a, b [2]int64) [2]int64 { return [2]int64{a[0], b[1]} }

func TestReduceByKeyCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 15))
	for _, n := range []int{0, 1, 2, 2047, 2048, 2049, 7919, 1_000_003} {
		for _, runLen := range []int{1, 7, 1000, n + 1} {
			keys := make([]uint32, n)
			vals := make([]int64, n)
			spans := make([][2]int64, n)
			k := r.Uint32()
			for i := range keys {
				if runLen == 1 || i > 0 && r.IntN(runLen) == 0 {
					k++
				}
				keys[i], vals[i] = k, int64(r.Uint64())
				spans[i] = [2]int64{int64(i), int64(i)}
			}
			var wantK []uint32
			var wantV []int64
			var wantS [][2]int64
			for i := range keys {
				if i == 0 || keys[i] != keys[i-1] {
					wantK, wantV, wantS = append(wantK, keys[i]), append(wantV, vals[i]), append(wantS, spans[i])
					continue
				}
				wantV[len(wantV)-1] += vals[i]
				wantS[len(wantS)-1][1] = spans[i][1]
			}
			gotK, gotV := rbkRun(t, d, ReduceByKey(rbkEq, add), keys, vals)
			require.Equal(t, wantK, gotK, "n=%d runs~%d", n, runLen)
			require.Equal(t, wantV, gotV, "n=%d runs~%d", n, runLen)
			_, gotS := rbkRun(t, d, ReduceByKey(rbkEq, rbkSpan), keys, spans)
			require.Equal(t, wantS, gotS, "order, n=%d", n)
		}
	}
}

// rbkRun runs op with outputs one element longer than n, poisoned, and
// checks the count and that nothing past the runs was written.
func rbkRun[K comparable, V comparable](t *testing.T, d *Device, op *ReduceByKeyOp[K, V], keys []K, vals []V) ([]K, []V) {
	t.Helper()
	n := len(keys)
	ks, _ := FromHost(d, keys)
	vs, _ := FromHost(d, vals)
	uk, _ := Alloc[K](d, n+1)
	av, _ := Alloc[V](d, n+1)
	cnt, _ := FromHost(d, []int64{-7})
	defer func() { ks.Free(); vs.Free(); uk.Free(); av.Free(); cnt.Free() }()
	require.NoError(t, op.Run(nil, ks, vs, uk, av, cnt))
	c, _ := cnt.ToHost()
	gk, _ := uk.ToHost()
	gv, _ := av.ToHost()
	runs := int(c[0])
	require.True(t, runs >= 0 && runs <= n, "run count %d of %d keys", runs, n)
	var zk K
	var zv V
	require.Equal(t, zk, gk[n])
	require.Equal(t, zv, gv[n])
	if runs == 0 {
		return nil, nil
	}
	return gk[:runs], gv[:runs]
}

func TestReduceByKeyErrors(t *testing.T) {
	d := cpuDevice(t)
	keys, _ := FromHost(d, []uint32{1, 1, 2})
	vals, _ := FromHost(d, []int64{1, 2, 3})
	out, _ := Alloc[uint32](d, 3)
	agg, _ := Alloc[int64](d, 3)
	cnt, _ := Alloc[int64](d, 1)
	op := ReduceByKey(rbkEq, add)
	require.NoError(t, op.Run(nil, keys, vals, out, agg, cnt))
	for name, err := range map[string]error{
		"nil equality": ReduceByKey[uint32, int64](nil, add).Run(nil, keys, vals, out, agg, cnt),
		"nil operator": ReduceByKey[uint32, int64](rbkEq, nil).Run(nil, keys, vals, out, agg, cnt),
		"nil keys":     op.Run(nil, nil, vals, out, agg, cnt),
		"nil values":   op.Run(nil, keys, nil, out, agg, cnt),
		"nil unique":   op.Run(nil, keys, vals, nil, agg, cnt),
		"nil aggs":     op.Run(nil, keys, vals, out, nil, cnt),
		"nil count":    op.Run(nil, keys, vals, out, agg, nil),
		"empty count":  op.Run(nil, keys, vals, out, agg, cnt.Range(0, 0)),
		"lengths":      op.Run(nil, keys, vals.Range(0, 2), out, agg, cnt),
		"short unique": op.Run(nil, keys, vals, out.Range(0, 2), agg, cnt),
		"short aggs":   op.Run(nil, keys, vals, out, agg.Range(0, 2), cnt),
		"panic":        ReduceByKey(rbkEq, func(a, b int64) int64 { panic("boom") }).Run(nil, keys, vals, out, agg, cnt),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "ReduceByKey", name)
	}
	// No two buffers may share memory (as cub::DeviceReduce::ReduceByKey).
	for want, err := range map[string]error{
		"gocccl: ReduceByKey: the values and the aggregates overlap":    op.Run(nil, keys, vals, out, vals, cnt),
		"gocccl: ReduceByKey: the keys and the unique keys overlap":     op.Run(nil, keys, vals, keys, agg, cnt),
		"gocccl: ReduceByKey: the aggregates and the run count overlap": op.Run(nil, keys, vals, out, agg, agg.Range(2, 3)),
	} {
		require.EqualError(t, err, want)
	}
	n, err := op.TempStorageBytes(d, 100)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestReduceByKeyStateBytes(t *testing.T) {
	// CUB 1.17's three-array ScanTileState over KeyValuePair<long long,
	// float>: 3 arrays of (tiles + 32) × 16 bytes, 256-aligned, + 255.
	for _, tiles := range []int{1, 1000, 1 << 20} {
		need := 3*(((tiles+32)*16+255)/256*256) + 255
		require.GreaterOrEqual(t, reduceByKeyStateBytes(tiles, 4), need)
	}
}

func TestReduceByKeyPairSize(t *testing.T) {
	// sizeof(cub::KeyValuePair<long long, V>): an 8-byte count, then V at
	// its alignment, padded to the pair's alignment.
	require.Equal(t, 16, reduceByKeyPairSize[uint8]())
	require.Equal(t, 16, reduceByKeyPairSize[float32]())
	require.Equal(t, 16, reduceByKeyPairSize[float64]())
	require.Equal(t, 24, reduceByKeyPairSize[[3]uint32]())
	require.Equal(t, 32, reduceByKeyPairSize[struct {
		N   int64
		Sum float64
		Max int32
	}]())
	// Pairs of values up to 8 bytes take epoch tile states of 4 words a
	// tile; wider ones keep CUB's.
	bytes, ok := epochStateBytes(10, reduceByKeyPairSize[uint32]())
	require.True(t, ok)
	require.Equal(t, (128+4*10)*8, bytes)
	_, ok = epochStateBytes(10, reduceByKeyPairSize[[3]uint32]())
	require.False(t, ok)
}
