package runtime

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func segMax(a, b int64) int64 { return max(a, b) }

func segAddF(a, b float64) float64 { return a + b }

// segShapes returns named segmentations of n items: begin and end offsets.
func segShapes(r *rand.Rand, n int) map[string][2][]int64 {
	shapes := map[string][2][]int64{}
	add := func(name string, b, e []int64) { shapes[name] = [2][]int64{b, e} }
	// Consecutive segments of random lengths 0..2k covering [0, n).
	for _, k := range []int{1, 7, 1024, 5000} {
		var b, e []int64
		for lo := 0; lo < n; {
			hi := min(n, lo+r.IntN(2*k+1))
			b, e = append(b, int64(lo)), append(e, int64(hi))
			lo = hi
		}
		add("random~"+itoaSeg(k), b, e)
	}
	add("one", []int64{0}, []int64{int64(n)})
	add("none", nil, nil)
	ones := make([]int64, n+1)
	for i := range ones {
		ones[i] = int64(i)
	}
	add("ones", ones[:n], ones[1:])
	// Overlapping, unordered, empty and repeated segments.
	m := 1 + r.IntN(min(100_000, 10*n+1))
	b, e := make([]int64, m), make([]int64, m)
	for i := range b {
		x := r.IntN(n + 1)
		y := min(n, x+r.IntN(2000))
		if r.IntN(8) == 0 {
			y = x
		}
		b[i], e[i] = int64(x), int64(y)
	}
	add("scattered", b, e)
	return shapes
}

func itoaSeg(k int) string {
	s := ""
	for ; k > 0 || s == ""; k /= 10 {
		s = string(rune('0'+k%10)) + s
	}
	return s
}

func TestSegmentedReduceCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	for _, n := range []int{0, 1, 31, 32, 33, 4095, 4096, 4097, 7919, 1_000_003} {
		xs := make([]int64, n)
		fs := make([]float64, n)
		for i := range xs {
			xs[i], fs[i] = int64(r.Uint64()), r.Float64()*2-1
		}
		for name, sh := range segShapes(r, n) {
			begin, end := sh[0], sh[1]
			init := int64(r.Uint64())
			for _, op := range []func(int64, int64) int64{add, segMax} {
				want := make([]int64, len(begin))
				for i := range want {
					want[i] = init
					for _, v := range xs[begin[i]:end[i]] {
						want[i] = op(want[i], v)
					}
				}
				got := segRun(t, d, SegmentedReduce(op), xs, begin, end, init)
				require.Equal(t, want, got, "n=%d %s", n, name)
			}
			got := segRun(t, d, SegmentedReduce(segAddF), fs, begin, end, 0.5)
			for i := range got {
				exact, mag := 0.5, 0.5
				for _, v := range fs[begin[i]:end[i]] {
					exact += v
					mag += math.Abs(v)
				}
				require.InDelta(t, exact, got[i], 1e-12*mag, "n=%d %s segment %d", n, name, i)
			}
		}
	}
}

// segRun runs op over xs on d with poisoned outputs of one element more than
// the segments, and checks that the extra element is left alone.
func segRun[T comparable](t *testing.T, d *Device, op *SegmentedReduceOp[T], xs []T, begin, end []int64, init T) []T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	b, err := FromHost(d, begin)
	require.NoError(t, err)
	defer b.Free()
	e, err := FromHost(d, end)
	require.NoError(t, err)
	defer e.Free()
	poison := make([]T, len(begin)+1)
	var p T
	if len(xs) > 0 {
		p = xs[0]
	}
	for i := range poison {
		poison[i] = p
	}
	out, err := FromHost(d, poison)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, b, e, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	require.Equal(t, p, got[len(begin)], "wrote past the segments")
	return got[:len(begin)]
}

func TestSegmentedReduceErrors(t *testing.T) {
	d := cpuDevice(t)
	in, _ := FromHost(d, []int64{1, 2, 3, 4})
	off, _ := FromHost(d, []int64{0, 2, 4})
	out, _ := Alloc[int64](d, 2)
	bad, _ := FromHost(d, []int64{0, 3, 2, 5})
	sum := SegmentedReduce(add)
	require.NoError(t, sum.Run(nil, in, off.Range(0, 2), off.Range(1, 3), out, 0))
	got, _ := out.ToHost()
	require.Equal(t, []int64{3, 7}, got)

	for name, err := range map[string]error{
		"nil operator":   SegmentedReduce[int64](nil).Run(nil, in, off, off, out, 0),
		"nil input":      sum.Run(nil, nil, off, off, out, 0),
		"nil begin":      sum.Run(nil, in, nil, off, out, 0),
		"nil end":        sum.Run(nil, in, off, nil, out, 0),
		"nil output":     sum.Run(nil, in, off, off, nil, 0),
		"lengths":        sum.Run(nil, in, off.Range(0, 2), off, out, 0),
		"short output":   sum.Run(nil, in, off, off, out, 0),
		"out of order":   sum.Run(nil, in, bad.Range(1, 2), bad.Range(2, 3), out, 0),
		"past the end":   sum.Run(nil, in, bad.Range(2, 3), bad.Range(3, 4), out, 0),
		"negative begin": sum.Run(nil, in, segFromHost(t, d, []int64{-1}), off.Range(1, 2), out, 0),
		"panic": SegmentedReduce(func(a, b int64) int64 { panic("boom") }).
			Run(nil, in, off.Range(0, 2), off.Range(1, 3), out, 0),
		"fixed: zero size":     sum.RunFixed(nil, in, 0, out, 0),
		"fixed: negative size": sum.RunFixed(nil, in, -3, out, 0),
		"fixed: short output":  sum.RunFixed(nil, in, 1, out, 0),
		"fixed: nil input":     sum.RunFixed(nil, nil, 2, out, 0),
		"fixed: nil output":    sum.RunFixed(nil, in, 2, nil, 0),
		"fixed: nil operator":  SegmentedReduce[int64](nil).RunFixed(nil, in, 2, out, 0),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "SegmentedReduce", name)
	}
	require.NoError(t, sum.RunFixed(nil, in, 3, out, 100))
	got, _ = out.ToHost()
	require.Equal(t, []int64{106, 104}, got, "segments [0, 3) and [3, 4), the last short")
	_, err := sum.TempStorageBytes(d, -1)
	require.Error(t, err)
	n, err := sum.TempStorageBytes(d, 10)
	require.NoError(t, err)
	require.Zero(t, n)
}

func segFromHost[T any](t *testing.T, d *Device, xs []T) *Slice[T] {
	t.Helper()
	s, err := FromHost(d, xs)
	require.NoError(t, err)
	return s
}

func TestSegmentedDispatch(t *testing.T) {
	// H200: 132 SMs, 8 blocks of 256 per SM, 5 waves.
	maxBlocks := 132 * 8 * subscription
	for _, c := range []struct {
		n, segs, kernel int
	}{
		{1 << 28, 1 << 18, segmentedWarp},  // 1024-item segments
		{1 << 20, 1 << 20, segmentedWarp},  // segments of 1
		{1 << 20, 2048, segmentedWarp},     // 512 items
		{1 << 20, 1024, segmentedBlock},    // 1024 items, too few for every warp
		{1 << 28, 1 << 13, segmentedBlock}, // 32 Ki items
		{1 << 28, 1, segmentedBlock},
	} {
		k, grid := segmentedDispatch(c.n, c.segs, 256, 4096, maxBlocks)
		require.Equal(t, c.kernel, k, "n=%d segs=%d", c.n, c.segs)
		require.Positive(t, grid)
	}
}
