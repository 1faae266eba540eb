package state

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// TestOtherAlgorithms runs the stateful constructors of ForEach,
// AdjacentDifference, Unique, SegmentedReduce, MergeSortPairs, LowerBound
// and UpperBound with states given per call, on every device against loops
// that call the methods.
func TestOtherAlgorithms(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	cmpBy := func(o Order) func(a, b uint32) int {
		return func(a, b uint32) int {
			switch {
			case o.Less(a, b):
				return -1
			case o.Less(b, a):
				return 1
			}
			return 0
		}
	}
	for _, n := range sizes {
		xs := make([]int32, n)
		us := make([]uint32, n)
		for i := range xs {
			xs[i] = int32(r.Uint32())
			us[i] = r.Uint32()
		}
		for _, d := range []*runtime.Device{oracle, dut} {
			for _, a := range []Affine{-3, 0, 12345} {
				want := make([]int32, n)
				for i, x := range xs {
					want[i] = a.Apply(x)
				}
				data := devcheck.Upload(t, d, xs)
				require.NoError(t, ScaleEach.Bind(a).Run(nil, data))
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, data), d.String()+": ForEach")
			}

			m := Mod{M: 1<<32 + 15}
			ms := make([]uint64, n)
			for i, u := range us {
				ms[i] = uint64(u) % m.M
			}
			if n > 0 {
				want := slices.Clone(ms)
				for i := 1; i < n; i++ {
					want[i] = m.Add(ms[i], ms[i-1])
				}
				out := devcheck.Alloc[uint64](t, d, n)
				require.NoError(t, DiffMod.Bind(m).Run(nil, devcheck.Upload(t, d, ms), out))
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), d.String()+": AdjacentDifference")
			}

			sorted := slices.Clone(us)
			slices.Sort(sorted)
			for _, b := range []Bucket{{Width: 1}, {Width: 1 << 20}, {Width: 1 << 31}} {
				want := []uint32{}
				for i, u := range sorted {
					if i == 0 || !b.Same(sorted[i-1], u) {
						want = append(want, u)
					}
				}
				out := devcheck.Alloc[uint32](t, d, n)
				count := devcheck.Alloc[int64](t, d, 1)
				require.NoError(t, SameBucket.Bind(b).Run(nil, devcheck.Upload(t, d, sorted), out, count))
				k := devcheck.Download(t, count)[0]
				require.Equal(t, int64(len(want)), k, "%v: Unique count n=%d width %d", d, n, b.Width)
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, out)[:k], d.String()+": Unique")
			}

			// Segments: empty, one item, and the rest in three uneven parts.
			c1 := min(1, int64(n))
			c2 := max(c1, int64(n)/3)
			c3 := max(c2, int64(n)/2)
			cuts := []int64{0, 0, c1, c2, c3, int64(n)}
			begin, end := cuts[:len(cuts)-1], cuts[1:]
			sums := devcheck.Alloc[uint64](t, d, len(begin))
			require.NoError(t, SegSumMod.Bind(m).Run(nil, devcheck.Upload(t, d, ms), devcheck.Upload(t, d, begin), devcheck.Upload(t, d, end), sums, 5))
			got := devcheck.Download(t, sums)
			for j := range begin {
				acc := uint64(5)
				for _, x := range ms[begin[j]:end[j]] {
					acc = m.Add(acc, x)
				}
				require.Equal(t, acc, got[j], "%v: SegmentedReduce segment %d of n=%d", d, j, n)
			}

			for _, o := range []Order{{Shift: 28}, {Shift: 20, Desc: true}} {
				idx := make([]int32, n)
				for i := range idx {
					idx[i] = int32(i)
				}
				wantKeys := slices.Clone(us)
				slices.SortStableFunc(wantKeys, cmpBy(o))
				keys, vals := devcheck.Upload(t, d, us), devcheck.Upload(t, d, idx)
				require.NoError(t, SortPairs.Bind(o).Run(nil, keys, vals))
				gotKeys, gotVals := devcheck.Download(t, keys), devcheck.Download(t, vals)
				devcheck.RequireBitEqual(t, wantKeys, gotKeys, d.String()+": MergeSortPairs keys")
				for i, v := range gotVals {
					require.Equal(t, us[v], gotKeys[i], "%v: MergeSortPairs value %d", d, i)
					if i > 0 && cmpBy(o)(gotKeys[i-1], gotKeys[i]) == 0 {
						require.Less(t, gotVals[i-1], v, "%v: MergeSortPairs stable at %d", d, i)
					}
				}

				needles := []uint32{0, 1 << 28, 1 << 31, ^uint32(0), r.Uint32()}
				hay := devcheck.Upload(t, d, wantKeys)
				pos := devcheck.Alloc[int64](t, d, len(needles))
				for _, c := range []struct {
					op    *runtime.Stateful[Order, *runtime.SearchOp[uint32]]
					upper bool
				}{{LowerBy, false}, {UpperBy, true}} {
					require.NoError(t, c.op.Bind(o).Run(nil, hay, devcheck.Upload(t, d, needles), pos))
					gotPos := devcheck.Download(t, pos)
					for j, v := range needles {
						want, _ := slices.BinarySearchFunc(wantKeys, v, cmpBy(o))
						if c.upper {
							for want < n && cmpBy(o)(wantKeys[want], v) == 0 {
								want++
							}
						}
						require.Equal(t, int64(want), gotPos[j], "%v: upper=%v needle %#x n=%d", d, c.upper, v, n)
					}
				}
			}
		}
	}
}
