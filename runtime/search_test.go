package runtime

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func lessInt32(a, b int32) bool { return a < b }

// byHigh orders by the high 16 bits only, so equal keys are not identical.
func byHigh(a, b uint32) bool { return a>>16 < b>>16 }

func searchOracle[T any](data []T, v T, less func(T, T) bool, upper bool) int64 {
	for i, x := range data {
		if upper && less(v, x) || !upper && !less(x, v) {
			return int64(i)
		}
	}
	return int64(len(data))
}

func testSearch[T any](t *testing.T, less func(T, T) bool, gen func(*rand.Rand) T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 10))
	for _, nd := range []int{0, 1, 2, 255, 1009} {
		data := make([]T, nd)
		for i := range data {
			data[i] = gen(r)
		}
		slices.SortStableFunc(data, func(a, b T) int {
			switch {
			case less(a, b):
				return -1
			case less(b, a):
				return 1
			}
			return 0
		})
		for _, nv := range []int{0, 1, 257, 7919, minChunk + 3} {
			values := make([]T, nv)
			for i := range values {
				values[i] = gen(r)
				if nd > 0 && i%3 == 0 {
					values[i] = data[r.IntN(nd)] // duplicates of the data
				}
			}
			dd, err := FromHost(d, data)
			require.NoError(t, err)
			vv, err := FromHost(d, values)
			require.NoError(t, err)
			for _, upper := range []bool{false, true} {
				op := LowerBound(less)
				if upper {
					op = UpperBound(less)
				}
				out, err := FromHost(d, poisonInt64(nv+1))
				require.NoError(t, err)
				require.NoError(t, op.Run(nil, dd, vv, out))
				got, err := out.ToHost()
				require.NoError(t, err)
				for i, v := range values {
					if want := searchOracle(data, v, less, upper); got[i] != want {
						t.Fatalf("%s nd=%d nv=%d: value %d (%v): got %d, want %d", op.name(), nd, nv, i, v, got[i], want)
					}
				}
				require.Equal(t, int64(-0x5454545454545455), got[nv], "wrote past the values")
			}
		}
	}
}

func poisonInt64(n int) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = -0x5454545454545455
	}
	return s
}

func TestSearchCPU(t *testing.T) {
	t.Run("int32", func(t *testing.T) {
		testSearch(t, lessInt32, func(r *rand.Rand) int32 { return int32(r.Uint32N(3000)) - 1500 })
	})
	t.Run("byHigh", func(t *testing.T) { testSearch(t, byHigh, func(r *rand.Rand) uint32 { return r.Uint32() >> 8 }) })
}

func TestSearchEdges(t *testing.T) {
	d := cpuDevice(t)
	data, _ := FromHost(d, []int32{2, 4, 4, 4, 9})
	values, _ := FromHost(d, []int32{-7, 2, 4, 5, 9, 100})
	out, _ := Alloc[int64](d, 6)
	require.NoError(t, LowerBound(lessInt32).Run(nil, data, values, out))
	got, _ := out.ToHost()
	require.Equal(t, []int64{0, 0, 1, 4, 4, 5}, got)
	require.NoError(t, UpperBound(lessInt32).Run(nil, data, values, out))
	got, _ = out.ToHost()
	require.Equal(t, []int64{0, 1, 4, 4, 5, 5}, got)
}

func TestSearchBadArguments(t *testing.T) {
	d := cpuDevice(t)
	data, _ := FromHost(d, []int32{1, 2, 3})
	values, _ := FromHost(d, []int32{1, 2})
	short, _ := Alloc[int64](d, 1)
	require.ErrorContains(t, LowerBound(lessInt32).Run(nil, data, values, short), "fewer than the 2 search values")
	require.ErrorContains(t, LowerBound(lessInt32).Run(nil, nil, values, short), "nil slice")
	require.ErrorContains(t, LowerBound[int32](nil).Run(nil, data, values, short), "nil comparison")
	require.ErrorContains(t, (*SearchOp[int32])(nil).Run(nil, data, values, short), "nil comparison")
	panicky := func(a, b int32) bool { panic("boom") }
	out, _ := Alloc[int64](d, 2)
	require.ErrorContains(t, UpperBound(panicky).Run(nil, data, values, out), "boom")
}
