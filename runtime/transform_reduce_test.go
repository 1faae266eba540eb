package runtime

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func trSquare(x float32) float64 { return float64(x) * float64(x) }

func trLow(x uint32) int64 { return int64(x & 0xffff) }

// trLast is associative but not commutative: any reordering shows.
func trLast(a, b [2]int64) [2]int64 { return [2]int64{a[0], b[1]} }

func trPair(x int32) [2]int64 { return [2]int64{int64(x), int64(x)} }

func TestTransformReduceCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 12))
	for _, n := range []int{0, 1, 2, 4095, 4096, 4097, minChunk + 1, 7919, 1_000_003} {
		us := make([]uint32, n)
		fs := make([]float32, n)
		is := make([]int32, n)
		for i := range us {
			us[i], fs[i], is[i] = r.Uint32(), float32(r.NormFloat64()), int32(r.Uint32())
		}
		init := int64(r.Uint64())
		want := init
		for _, u := range us {
			want = add(want, trLow(u))
		}
		require.Equal(t, want, trRun(t, d, TransformReduce(trLow, add), us, init), "n=%d", n)

		exact, mag := 0.25, 0.25
		for _, f := range fs {
			exact += trSquare(f)
			mag += trSquare(f)
		}
		require.InDelta(t, exact, trRun(t, d, TransformReduce(trSquare, segAddF), fs, 0.25), 1e-12*mag, "n=%d", n)

		wantP := [2]int64{-1, -2}
		if n > 0 {
			wantP = [2]int64{-1, int64(is[n-1])}
		}
		require.Equal(t, wantP, trRun(t, d, TransformReduce(trPair, trLast), is, [2]int64{-1, -2}), "order, n=%d", n)
	}
}

func trRun[In, T any](t *testing.T, d *Device, op *TransformReduceOp[In, T], xs []In, init T) T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := Alloc[T](d, 2)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got[0]
}

func TestTransformReduceErrors(t *testing.T) {
	d := cpuDevice(t)
	in, _ := FromHost(d, []float32{1, 2, 3})
	out, _ := Alloc[float64](d, 1)
	empty, _ := Alloc[float64](d, 0)
	op := TransformReduce(trSquare, segAddF)
	require.NoError(t, op.Run(nil, in, out, 0))
	got, _ := out.ToHost()
	require.Equal(t, 14.0, got[0])
	for name, err := range map[string]error{
		"nil transform": TransformReduce[float32](nil, segAddF).Run(nil, in, out, 0),
		"nil operator":  TransformReduce[float32, float64](trSquare, nil).Run(nil, in, out, 0),
		"nil input":     op.Run(nil, nil, out, 0),
		"nil output":    op.Run(nil, in, nil, 0),
		"empty output":  op.Run(nil, in, empty, 0),
		"panic":         TransformReduce(func(float32) float64 { panic("boom") }, segAddF).Run(nil, in, out, 0),
	} {
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "TransformReduce", name)
	}
	n, err := op.TempStorageBytes(d, 1<<20)
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = op.TempStorageBytes(d, -1)
	require.Error(t, err)
}
