package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func adSub(a, b int64) int64 { return a - b }

// adPair is not symmetric in its arguments: it shows their order.
func adPair(a, b [2]int32) [2]int32 { return [2]int32{a[0], b[0]} }

func TestAdjacentDifferenceCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 13))
	for _, n := range []int{0, 1, 2, 2047, 2048, 2049, minChunk + 1, 7919, 1_000_003} {
		xs := make([]int64, n)
		ps := make([][2]int32, n)
		for i := range xs {
			xs[i] = int64(r.Uint64())
			ps[i] = [2]int32{int32(i), int32(r.Uint32())}
		}
		left, right := make([]int64, n), make([]int64, n)
		for i := range xs {
			left[i], right[i] = xs[i], xs[i]
			if i > 0 {
				left[i] = xs[i] - xs[i-1]
			}
			if i < n-1 {
				right[i] = xs[i] - xs[i+1]
			}
		}
		op := AdjacentDifference(adSub)
		require.Equal(t, left, adRun(t, d, op.Run, xs), "n=%d", n)
		require.Equal(t, right, adRun(t, d, op.RunRight, xs), "n=%d", n)
		got := adRun(t, d, AdjacentDifference(adPair).Run, ps)
		for i := 1; i < n; i++ {
			require.Equal(t, [2]int32{int32(i), int32(i - 1)}, got[i])
		}
	}
}

func adRun[T any](t *testing.T, d *Device, run func(*Stream, *Slice[T], *Slice[T]) error, xs []T) []T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := Alloc[T](d, len(xs))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, run(nil, in, out))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got
}

func TestAdjacentDifferenceErrors(t *testing.T) {
	d := cpuDevice(t)
	in, _ := FromHost(d, []int64{1, 2, 3, 4})
	out, _ := Alloc[int64](d, 3)
	op := AdjacentDifference(adSub)
	for name, err := range map[string]error{
		"nil operator": AdjacentDifference[int64](nil).Run(nil, in, in.Range(0, 0)),
		"nil input":    op.Run(nil, nil, out),
		"nil output":   op.Run(nil, in, nil),
		"lengths":      op.Run(nil, in, out),
		"in place":     op.Run(nil, in, in),
		"overlap":      op.RunRight(nil, in.Range(0, 3), in.Range(1, 4)),
		"panic":        AdjacentDifference(func(a, b int64) int64 { panic("boom") }).Run(nil, in.Range(0, 3), out),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "AdjacentDifference", name)
	}
	require.NoError(t, op.Run(nil, in.Range(0, 3), out))
}
