package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// segHints are the MaxSegmentSize promises under test: one for every
// kernel range of segmentedDispatchMax (thread, sub-warp, warp, Run's
// choice) and their edges for 4-byte items.
var segHints = []int{1, 4, 16, 17, 128, 129, 512, 513, 1024, 5000}

// segShapesMax returns segmentations of n items whose segments are at most
// m items long: consecutive ones of random lengths 0..m, consecutive ones of
// exactly m (the last short), and scattered, overlapping, unordered ones.
func segShapesMax(r *rand.Rand, n, m int) map[string][2][]int64 {
	shapes := map[string][2][]int64{}
	var rb, re, fb, fe []int64
	for lo := 0; lo < n; {
		hi := min(n, lo+r.IntN(m+1))
		rb, re = append(rb, int64(lo)), append(re, int64(hi))
		lo = hi
	}
	for lo := 0; lo < n; lo += m {
		fb, fe = append(fb, int64(lo)), append(fe, int64(min(n, lo+m)))
	}
	shapes["random"] = [2][]int64{rb, re}
	shapes["full"] = [2][]int64{fb, fe}
	k := 1 + r.IntN(min(20_000, 4*n+1))
	sb, se := make([]int64, k), make([]int64, k)
	for i := range sb {
		x := r.IntN(n + 1)
		sb[i], se[i] = int64(x), int64(min(n, x+r.IntN(m+1)))
	}
	shapes["scattered"] = [2][]int64{sb, se}
	shapes["none"] = [2][]int64{nil, nil}
	return shapes
}

// segRunWith runs op.RunWith over xs on d with o, on a poisoned output one
// longer than the segments, and checks that the extra element keeps its
// poison.
func segRunWith[T comparable](t *testing.T, d *Device, op *SegmentedReduceOp[T], xs []T, begin, end []int64, init T, o SegmentedReduceOptions) []T {
	t.Helper()
	in, b, e := segFromHost(t, d, xs), segFromHost(t, d, begin), segFromHost(t, d, end)
	defer in.Free()
	defer b.Free()
	defer e.Free()
	p := segPoison[T](xs)
	out := segFromHost(t, d, segFill(len(begin)+1, p))
	defer out.Free()
	require.NoError(t, op.RunWith(nil, in, b, e, out, init, o))
	got, err := out.ToHost()
	require.NoError(t, err)
	require.Equal(t, p, got[len(begin)], "wrote past the segments")
	return got[:len(begin)]
}

func segPoison[T any](xs []T) T {
	var p T
	if len(xs) > 0 {
		p = xs[len(xs)/2]
	}
	return p
}

func segFill[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// segOracle folds every segment from init, in order.
func segOracle[T any](op func(T, T) T, xs []T, begin, end []int64, init T) []T {
	out := make([]T, len(begin))
	for i := range out {
		acc := init
		for _, v := range xs[begin[i]:end[i]] {
			acc = op(acc, v)
		}
		out[i] = acc
	}
	return out
}

// TestSegmentedReduceMaxSegmentSizeCPU checks RunWith with every hint
// against a sequential loop, over segments that keep the promise (some
// exactly as long as promised), and that a promise larger than needed, and
// no promise, give the same.
func TestSegmentedReduceMaxSegmentSizeCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 37))
	for _, n := range []int{0, 1, 13, 7919, 1_000_003} {
		xs, fs := make([]int64, n), make([]float64, n)
		for i := range xs {
			xs[i], fs[i] = int64(r.Uint64()|1), r.Float64()*2-1+0x1p-20
		}
		for _, m := range segHints {
			if n == 1_000_003 && m != 4 && m != 128 && m != 1024 {
				continue // the largest input at one hint per kernel
			}
			for name, sh := range segShapesMax(r, n, m) {
				begin, end := sh[0], sh[1]
				what := fmt.Sprintf("n=%d MaxSegmentSize=%d %s", n, m, name)
				init := int64(r.Uint64())
				for _, op := range []func(int64, int64) int64{add, segMax} {
					want := segOracle(op, xs, begin, end, init)
					require.Equal(t, want, segRunWith(t, d, SegmentedReduce(op), xs, begin, end, init, SegmentedReduceOptions{MaxSegmentSize: m}), what)
					require.Equal(t, want, segRunWith(t, d, SegmentedReduce(op), xs, begin, end, init, SegmentedReduceOptions{MaxSegmentSize: 2*m + 1}), what+", a looser promise")
					require.Equal(t, want, segRunWith(t, d, SegmentedReduce(op), xs, begin, end, init, SegmentedReduceOptions{}), what+", no promise")
				}
				got := segRunWith(t, d, SegmentedReduce(segAddF), fs, begin, end, 0.25, SegmentedReduceOptions{MaxSegmentSize: m})
				for i := range got {
					exact, mag := 0.25, 0.25
					for _, v := range fs[begin[i]:end[i]] {
						exact += v
						mag += math.Abs(v)
					}
					require.InDelta(t, exact, got[i], 1e-12*mag, "%s segment %d", what, i)
				}
			}
		}
	}
}

// TestSegmentedReduceMaxSegmentSizeBroken requires the CPU backend to
// report the first segment longer than promised, with its index and length,
// before it writes anything, and to reject a negative promise.
func TestSegmentedReduceMaxSegmentSizeBroken(t *testing.T) {
	d := cpuDevice(t)
	xs := []int64{3, 5, 7, 11, 13, 17, 19, 23, 29, 31}
	in := segFromHost(t, d, xs)
	begin := segFromHost(t, d, []int64{0, 2, 3, 1, 9})
	end := segFromHost(t, d, []int64{2, 3, 9, 8, 10})
	poison := segFill[int64](5, -77)
	out := segFromHost(t, d, poison)
	sum := SegmentedReduce(add)

	err := sum.RunWith(nil, in, begin, end, out, 0, SegmentedReduceOptions{MaxSegmentSize: 4})
	require.Error(t, err)
	require.Contains(t, err.Error(), "SegmentedReduce")
	require.Contains(t, err.Error(), "segment 2 is [3, 9) of 6 items, longer than MaxSegmentSize 4")
	got, _ := out.ToHost()
	require.Equal(t, poison, got, "an output written before the error")

	// A bad offset before the long segment is the one reported.
	bad := segFromHost(t, d, []int64{0, 11, 3, 1, 9})
	err = sum.RunWith(nil, in, begin, bad, out, 0, SegmentedReduceOptions{MaxSegmentSize: 4})
	require.ErrorContains(t, err, "segment 1 is [2, 11)")
	got, _ = out.ToHost()
	require.Equal(t, poison, got)

	err = sum.RunWith(nil, in, begin, end, out, 0, SegmentedReduceOptions{MaxSegmentSize: -1})
	require.ErrorContains(t, err, "MaxSegmentSize -1 is negative")
	got, _ = out.ToHost()
	require.Equal(t, poison, got)

	// The same segments keep a promise of 7, the longest, and of 0 (none).
	for _, m := range []int{7, 0} {
		require.NoError(t, sum.RunWith(nil, in, begin, end, out, 100, SegmentedReduceOptions{MaxSegmentSize: m}))
		got, _ = out.ToHost()
		require.Equal(t, segOracle(add, xs, []int64{0, 2, 3, 1, 9}, []int64{2, 3, 9, 8, 10}, 100), got)
	}

	// A panicking operator is an error, not a panic.
	err = SegmentedReduce(func(a, b int64) int64 { panic("boom") }).RunWith(nil, in, begin, end, out, 0, SegmentedReduceOptions{MaxSegmentSize: 7})
	require.ErrorContains(t, err, "SegmentedReduce")

	// The argument checks of Run come first, with or without a promise.
	for name, err := range map[string]error{
		"nil operator": SegmentedReduce[int64](nil).RunWith(nil, in, begin, end, out, 0, SegmentedReduceOptions{MaxSegmentSize: 4}),
		"nil input":    sum.RunWith(nil, nil, begin, end, out, 0, SegmentedReduceOptions{MaxSegmentSize: 4}),
		"nil output":   sum.RunWith(nil, in, begin, end, nil, 0, SegmentedReduceOptions{MaxSegmentSize: 4}),
		"lengths":      sum.RunWith(nil, in, begin.Range(0, 4), end, out, 0, SegmentedReduceOptions{MaxSegmentSize: 4}),
		"short output": sum.RunWith(nil, in, begin, end, out.Range(0, 4), 0, SegmentedReduceOptions{MaxSegmentSize: 4}),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "SegmentedReduce", name)
	}
}

// TestSegmentedReduceWithState runs a stateful instance's RunWith.
func TestSegmentedReduceWithState(t *testing.T) {
	d := cpuDevice(t)
	scaled := SegmentedReduceWith(func(k int64, a, b int64) int64 { return a + k*b })
	xs := []int64{1, 2, 3, 4, 5}
	got := segRunWith(t, d, scaled.Bind(10), xs, []int64{0, 2}, []int64{2, 5}, 0, SegmentedReduceOptions{MaxSegmentSize: 3})
	require.Equal(t, []int64{30, 120}, got)
}

// TestSegmentedReduceFixedSmallCPU checks RunFixed at the sizes whose GPU
// kernels it picks from the size (thread, sub-warp, warp) against a
// sequential loop.
func TestSegmentedReduceFixedSmallCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 38))
	for _, n := range []int{0, 1, 13, 7919, 1_000_003} {
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = int64(r.Uint64() | 1)
		}
		in := segFromHost(t, d, xs)
		for _, size := range segHints {
			segs := (n + size - 1) / size
			var begin, end []int64
			for lo := 0; lo < n; lo += size {
				begin, end = append(begin, int64(lo)), append(end, int64(min(n, lo+size)))
			}
			init := int64(r.Uint64())
			p := segPoison(xs)
			out := segFromHost(t, d, segFill(segs+1, p))
			require.NoError(t, SegmentedReduce(segMax).RunFixed(nil, in, size, out, init))
			got, err := out.ToHost()
			require.NoError(t, err)
			require.Equal(t, append(segOracle(segMax, xs, begin, end, init), p), got, "n=%d size=%d", n, size)
			require.NoError(t, out.Free())
		}
		require.NoError(t, in.Free())
	}
}

func TestSegmentedDispatchMax(t *testing.T) {
	// H200: 132 SMs, 8 blocks of 256 per SM, 5 waves; 16 items per thread.
	maxBlocks := 132 * 8 * subscription
	for _, c := range []struct {
		n, segs, m, kernel, grid int
	}{
		{1 << 24, 1 << 22, 4, segmentedThread, 1 << 14},
		{1 << 24, 1 << 20, 16, segmentedThread, 1 << 12},
		{100, 1, 16, segmentedThread, 1},
		{1 << 24, 1 << 20, 17, segmentedSubwarp, 1 << 15},
		{1 << 24, 1 << 17, 128, segmentedSubwarp, 1 << 12},
		{1 << 24, 1 << 15, 512, segmentedWarp, 1 << 12},
		{1 << 20, 1024, 512, segmentedWarp, 128},
		{1, 3, 129, segmentedWarp, 1},
	} {
		k, grid := segmentedDispatchMax(c.n, c.segs, c.m, 256, 4096, maxBlocks)
		require.Equal(t, c.kernel, k, "n=%d segs=%d m=%d", c.n, c.segs, c.m)
		require.Equal(t, c.grid, grid, "n=%d segs=%d m=%d", c.n, c.segs, c.m)
	}
	// Beyond a warp's step the promise keeps Run's choice.
	for _, c := range [][3]int{{1 << 24, 1 << 14, 1024}, {1 << 20, 1024, 1024}, {1 << 28, 1 << 13, 1 << 15}, {1 << 28, 1, 1 << 28}} {
		k, grid := segmentedDispatchMax(c[0], c[1], c[2], 256, 4096, maxBlocks)
		wk, wgrid := segmentedDispatch(c[0], c[1], 256, 4096, maxBlocks)
		require.Equal(t, [2]int{wk, wgrid}, [2]int{k, grid}, "n=%d segs=%d m=%d", c[0], c[1], c[2])
	}
	// Every kernel has a fixed-size twin.
	for _, k := range []int{segmentedThread, segmentedSubwarp, segmentedWarp, segmentedBlock} {
		_, ok := segmentedFixed[k]
		require.True(t, ok, "kernel %d", k)
	}
}
