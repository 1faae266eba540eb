package histogram

import (
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// searchSortedOn runs op.RunSorted on d, its output poisoned and one element
// longer than the values (which must stay poisoned).
func searchSortedOn[T any](t *testing.T, d *runtime.Device, op *runtime.SearchOp[T], data, values []T) []int64 {
	t.Helper()
	out := devcheck.Upload(t, d, devcheck.Poison[int64](len(values)+1))
	require.NoError(t, op.RunSorted(nil, devcheck.Upload(t, d, data), devcheck.Upload(t, d, values), out))
	got := devcheck.Download(t, out)
	require.Equal(t, devcheck.Poison[int64](1), got[len(values):])
	return got[:len(values)]
}

// searchOracle is sort.Search over data for every value: the first index
// where !less(data[i], v) (lower) or less(v, data[i]) (upper).
func searchOracle[T any](data, values []T, less func(T, T) bool, upper bool) []int64 {
	out := make([]int64, len(values))
	for i, v := range values {
		out[i] = int64(sort.Search(len(data), func(j int) bool {
			if upper {
				return less(v, data[j])
			}
			return !less(data[j], v)
		}))
	}
	return out
}

// sortedSearchSizes pairs data and value lengths: the merge (data at most
// four times the values) over one tile, tile edges and many tiles, and the
// binary search the host picks for few values.
var sortedSearchSizes = [][2]int{
	{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1000, 1}, {2047, 1}, {2048, 2048}, {1, 2048}, {2049, 2047},
	{4095, 4097}, {7919, 7907}, {65537, 20000}, {100_000, 3}, {1_000_003, 999_983}, {3_000_017, 1_000_003},
}

// TestSearchSorted checks RunSorted against sort.Search and against the CPU
// backend: uint32 keys with many duplicates, keys ordered by their high 16
// bits only (equal keys that differ, so the side a tie goes to shows), and
// float64 with ±0 and ±Inf.
func TestSearchSorted(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	sizes := sortedSearchSizes
	if gpu {
		sizes = append(sizes, [2]int{1 << 26, 1 << 25})
	}
	for _, sz := range sizes {
		nd, nv := sz[0], sz[1]
		data, values := make([]uint32, nd), make([]uint32, nv)
		span := uint32(max(nd, nv)/3 + 2) // duplicates on both sides
		for i := range data {
			data[i] = r.Uint32N(span) << 12
		}
		for i := range values {
			values[i] = r.Uint32N(span+2)<<12 | r.Uint32N(1<<12)
			if nd > 0 && i%3 == 0 {
				values[i] = data[r.IntN(nd)]
			}
		}
		if nv > 2 {
			values[0], values[1] = 0, math.MaxUint32
		}
		slices.Sort(data)
		slices.Sort(values)
		for _, c := range []struct {
			op    *runtime.SearchOp[uint32]
			less  func(a, b uint32) bool
			upper bool
		}{{LowerUint32, LessUint32, false}, {UpperUint32, LessUint32, true}, {LowerByHigh, ByHigh, false}, {UpperByHigh, ByHigh, true}} {
			want := searchOracle(data, values, c.less, c.upper)
			require.Equal(t, want, searchSortedOn(t, oracle, c.op, data, values), "CPU nd=%d nv=%d", nd, nv)
			if dut != oracle {
				require.Equal(t, want, searchSortedOn(t, dut, c.op, data, values), "GPU nd=%d nv=%d upper=%v", nd, nv, c.upper)
			}
		}
		fd, fv := make([]float64, nd), make([]float64, nv)
		for i := range fd {
			fd[i] = math.Round(r.NormFloat64()*float64(span)) / 4
		}
		for i := range fv {
			fv[i] = math.Round(r.NormFloat64()*float64(span)) / 4
		}
		specials := []float64{math.Inf(-1), math.Copysign(0, -1), 0, math.Inf(1)}
		for i, x := range specials {
			if i < nd {
				fd[i] = x
			}
			if i < nv {
				fv[nv-1-i] = x
			}
		}
		slices.Sort(fd)
		slices.Sort(fv)
		for _, c := range []struct {
			op    *runtime.SearchOp[float64]
			upper bool
		}{{LowerFloat64, false}, {UpperFloat64, true}} {
			want := searchOracle(fd, fv, LessFloat64, c.upper)
			require.Equal(t, want, searchSortedOn(t, oracle, c.op, fd, fv), "CPU float64 nd=%d nv=%d", nd, nv)
			if dut != oracle {
				require.Equal(t, want, searchSortedOn(t, dut, c.op, fd, fv), "GPU float64 nd=%d nv=%d upper=%v", nd, nv, c.upper)
			}
		}
	}
}

// TestSearchSortedUnsorted: values out of order are reported by the CPU
// backend with their indices, before anything is written.
func TestSearchSortedUnsorted(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	out := devcheck.Upload(t, d, devcheck.Poison[int64](4))
	err = LowerUint32.RunSorted(nil, devcheck.Upload(t, d, []uint32{1, 2, 3}), devcheck.Upload(t, d, []uint32{1, 5, 4, 6}), out)
	require.ErrorContains(t, err, "values[2] orders before values[1]")
	require.Equal(t, devcheck.Poison[int64](4), devcheck.Download(t, out))
}
