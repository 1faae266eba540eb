package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func eqInt32(a, b int32) bool { return a == b }

// sameTens calls keys equal when they agree but for the last decimal digit.
func sameTens(a, b int32) bool { return a/10 == b/10 }

// seqScanByKey is the oracle: a plain loop.
func seqScanByKey[K, V any](eq func(K, K) bool, op func(V, V) V, keys []K, values []V, init V, inclusive bool) []V {
	out := make([]V, len(values))
	var acc V
	for i, v := range values {
		head := i == 0 || !eq(keys[i-1], keys[i])
		if inclusive {
			if head {
				acc = v
			} else {
				acc = op(acc, v)
			}
			out[i] = acc
		} else {
			if head {
				acc = init
			}
			out[i] = acc
			acc = op(acc, v)
		}
	}
	return out
}

// runs returns n keys in runs of random lengths around meanRun.
func keyRuns(r *rand.Rand, n, meanRun int) []int32 {
	keys := make([]int32, n)
	k := int32(r.Uint32())
	for i := range keys {
		if r.IntN(meanRun) == 0 {
			k = int32(r.Uint32())
		}
		keys[i] = k
	}
	return keys
}

func scanByKeyOn[V any](t *testing.T, d *Device, eq func(int32, int32) bool, op func(V, V) V, inclusive bool, keys []int32, values []V, init, poison V) []V {
	t.Helper()
	k, err := FromHost(d, keys)
	require.NoError(t, err)
	v, err := FromHost(d, values)
	require.NoError(t, err)
	junk := make([]V, len(values))
	for i := range junk {
		junk[i] = poison
	}
	out, err := FromHost(d, junk)
	require.NoError(t, err)
	if inclusive {
		require.NoError(t, InclusiveScanByKey(eq, op).Run(nil, k, v, out))
	} else {
		require.NoError(t, ExclusiveScanByKey(eq, op).Run(nil, k, v, out, init))
	}
	got, err := out.ToHost()
	require.NoError(t, err)
	return got
}

func TestScanByKeyCPUMatchesLoop(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	for _, inclusive := range []bool{true, false} {
		for _, n := range scanSizes {
			for _, meanRun := range []int{1, 7, 1 << 20} { // all distinct-ish, short runs, one long run
				t.Run(fmt.Sprintf("inclusive=%v/n=%d/run=%d", inclusive, n, meanRun), func(t *testing.T) {
					keys := keyRuns(r, n, meanRun)
					xs := make([]int64, n)
					fs := make([]affine, n)
					ms := make([]int32, n)
					for i := range xs {
						xs[i] = int64(r.Uint64())
						fs[i] = affine{r.Uint64() | 1, r.Uint64()}
						ms[i] = int32(r.Uint32())
					}
					init := int64(r.Uint64())
					require.Equal(t, seqScanByKey(eqInt32, add, keys, xs, init, inclusive), scanByKeyOn(t, d, eqInt32, add, inclusive, keys, xs, init, -7))
					finit := affine{r.Uint64(), r.Uint64()}
					require.Equal(t, seqScanByKey(eqInt32, then, keys, fs, finit, inclusive), scanByKeyOn(t, d, eqInt32, then, inclusive, keys, fs, finit, affine{7, 7}))
					require.Equal(t, seqScanByKey(sameTens, maxInt32, keys, ms, -5, inclusive), scanByKeyOn(t, d, sameTens, maxInt32, inclusive, keys, ms, -5, 99))
				})
			}
		}
	}
}

func TestScanByKeyExample(t *testing.T) {
	d := cpuDevice(t)
	keys := []int32{1, 1, 2, 2, 2, 1, 3}
	vals := []int64{1, 2, 3, 4, 5, 6, 7}
	require.Equal(t, []int64{1, 3, 3, 7, 12, 6, 7}, scanByKeyOn(t, d, eqInt32, add, true, keys, vals, 0, -1))
	require.Equal(t, []int64{10, 11, 10, 13, 17, 10, 10}, scanByKeyOn(t, d, eqInt32, add, false, keys, vals, 10, -1))
}

func TestScanByKeyBadArguments(t *testing.T) {
	d := cpuDevice(t)
	keys, err := FromHost(d, []int32{1, 1, 2, 2})
	require.NoError(t, err)
	vals, err := FromHost(d, []int32{1, 2, 3, 4})
	require.NoError(t, err)
	out, err := Alloc[int32](d, 4)
	require.NoError(t, err)
	short, err := Alloc[int32](d, 3)
	require.NoError(t, err)
	inc, exc := InclusiveScanByKey(eqInt32, maxInt32), ExclusiveScanByKey(eqInt32, maxInt32)
	for i, c := range []struct {
		err  error
		want string
	}{
		{inc.Run(nil, keys, vals, short), "4 keys, 4 values and an output of 3"},
		{exc.Run(nil, keys.Range(0, 3), vals, out, 0), "3 keys, 4 values"},
		{inc.Run(nil, keys, vals, keys), "overlaps the keys"},
		{exc.Run(nil, keys, vals, keys.Range(2, 4).Range(0, 2), 0), "4 keys, 4 values and an output of 2"},
		{inc.Run(nil, keys, vals.Range(0, 4), vals), ""},
		{inc.Run(nil, keys.Range(0, 3), vals.Range(0, 3), vals.Range(1, 4)), "overlaps the values"},
		{inc.Run(nil, nil, vals, out), "nil slice"},
		{exc.Run(nil, keys, nil, out, 0), "nil slice"},
		{InclusiveScanByKey[int32, int32](nil, maxInt32).Run(nil, keys, vals, out), "nil operator"},
		{ExclusiveScanByKey[int32, int32](eqInt32, nil).Run(nil, keys, vals, out, 0), "nil operator"},
	} {
		if c.want == "" {
			require.NoError(t, c.err, "case %d", i)
			continue
		}
		require.ErrorContains(t, c.err, c.want, "case %d", i)
	}
	_, err = exc.TempStorageBytes(d, -1)
	require.ErrorContains(t, err, "negative length")
	n, err := inc.TempStorageBytes(d, 1000)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestScanByKeyOperatorPanicIsError(t *testing.T) {
	d := cpuDevice(t)
	n := 5 * minChunk
	keys, err := FromHost(d, make([]int32, n)) // one segment
	require.NoError(t, err)
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = 1
	}
	xs[n-2] = 0
	vals, err := FromHost(d, xs)
	require.NoError(t, err)
	out, err := Alloc[int32](d, n)
	require.NoError(t, err)
	require.ErrorContains(t, InclusiveScanByKey(eqInt32, div).Run(nil, keys, vals, out), "divide by zero")
	require.ErrorContains(t, ExclusiveScanByKey(eqInt32, div).Run(nil, keys, vals, out, 1), "divide by zero")
}

func TestScanByKeyPairSize(t *testing.T) {
	// sizeof(cub::KeyValuePair<int, V>): a 4-byte flag, then V at its
	// alignment, padded to the pair's alignment.
	for _, c := range []struct {
		got, want int
	}{
		{scanByKeyPairSize[uint8](), 8},
		{scanByKeyPairSize[uint16](), 8},
		{scanByKeyPairSize[float32](), 8},
		{scanByKeyPairSize[uint32](), 8},
		{scanByKeyPairSize[[2]uint32](), 12},
		{scanByKeyPairSize[[3]float32](), 16},
		{scanByKeyPairSize[int64](), 16},
		{scanByKeyPairSize[float64](), 16},
		{scanByKeyPairSize[[4]uint32](), 20},
		{scanByKeyPairSize[[2]float64](), 24},
	} {
		require.Equal(t, c.want, c.got)
	}
	// 2, 3 and 4 words of epoch tile states a tile; past 16 bytes, CUB's.
	for size, words := range map[int]int{8: 2, 12: 3, 16: 4} {
		bytes, ok := epochStateBytes(7, size)
		require.True(t, ok)
		require.Equal(t, (128+words*7)*8, bytes, "pairs of %d bytes", size)
	}
	_, ok := epochStateBytes(7, scanByKeyPairSize[[4]uint32]())
	require.False(t, ok)
}
