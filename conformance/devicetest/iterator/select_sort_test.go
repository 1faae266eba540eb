package iterator

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/iter"
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// The sequences the compositions of ops.go read, built on the host from
// one draw with the Go operators: the oracles' inputs.

func seq[T any](n int, f func(i int) T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func shuffleAt(x *data, i int) int64 { return iter.ShuffleAt(int64(x.n), x.seed, int64(i)) }

func (x *data) squares() []int32 {
	return seq(x.n, func(i int) int32 { return SquareI32(x.start + int32(i)) })
}

func (x *data) halves() []float32 {
	return seq(x.n, func(i int) float32 { return Half(Half(Half(x.startF + float32(i)))) })
}

func (x *data) consts() []int32 { return seq(x.n, func(int) int32 { return x.c }) }

func (x *data) zipped() []Pair {
	return seq(x.n, func(i int) Pair { return Pair{x.start + int32(i), x.fs[i]} })
}

func (x *data) zipXs() []Pair { return seq(x.n, func(i int) Pair { return Pair{x.xs[i], x.fs[i]} }) }

func (x *data) gather() []int32 { return seq(x.n, func(i int) int32 { return x.xs[x.idx[i]] }) }

func (x *data) shuffled() []int32 {
	return seq(x.n, func(i int) int32 { return x.xs[shuffleAt(x, i)] })
}

func (x *data) shuffle() []int64 { return seq(x.n, func(i int) int64 { return shuffleAt(x, i) }) }

func (x *data) reversed() []int32 { return seq(x.n, func(i int) int32 { return x.xs[x.n-1-i] }) }

func (x *data) revSquares() []int32 {
	return seq(x.n, func(i int) int32 { return SquareI32(x.xs[x.idx[x.n-1-i]]) })
}

func (x *data) zip3Sums() []int64 {
	return seq(x.n, func(i int) int64 {
		return TripleSum(Triple{x.xs[i], x.startF + float32(i), x.ys[shuffleAt(x, i)]})
	})
}

func (x *data) runs() []int32 { return seq(x.n, func(i int) int32 { return Div8(x.start + int32(i)) }) }

// Oracles.

func filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, v := range xs {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

// partitioned is cub::DevicePartition::If's result: the kept items in
// order, then the others in reverse order, and the number kept.
type partitioned[T any] struct {
	K   int64
	Out []T
}

func partition[T any](xs []T, keep func(T) bool) partitioned[T] {
	in, out := filter(xs, keep), filter(xs, func(v T) bool { return !keep(v) })
	slices.Reverse(out)
	return partitioned[T]{int64(len(in)), append(in, out...)}
}

func unique[T any](xs []T, eq func(T, T) bool) []T {
	var out []T
	for i, v := range xs {
		if i == 0 || !eq(xs[i-1], v) {
			out = append(out, v)
		}
	}
	return out
}

func sortedBy[T any](xs []T, less func(T, T) bool) []T {
	out := slices.Clone(xs)
	slices.SortStableFunc(out, func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	return out
}

// keyed is a pair of a sort's key and value, for the pairs' oracle.
type keyed[K, V any] struct {
	K K
	V V
}

func sortedPairs[K, V any](ks []K, vs []V, less func(K, K) bool) ([]K, []V) {
	ps := make([]keyed[K, V], len(ks))
	for i := range ks {
		ps[i] = keyed[K, V]{ks[i], vs[i]}
	}
	ps = sortedBy(ps, func(a, b keyed[K, V]) bool { return less(a.K, b.K) })
	ko, vo := make([]K, len(ps)), make([]V, len(ps))
	for i, p := range ps {
		ko[i], vo[i] = p.K, p.V
	}
	return ko, vo
}

// Runs into poisoned outputs.

func poisoned[T any](t *testing.T, d *runtime.Device, n int, poison T) *runtime.Slice[T] {
	t.Helper()
	return devcheck.Upload(t, d, slices.Repeat([]T{poison}, n))
}

// selected runs a Select or Unique into an output of n poisoned elements
// and returns what it kept; the rest of the output must still be poison.
func selected[T any](t *testing.T, d *runtime.Device, n int, poison T, run func(out *runtime.Slice[T], count *runtime.Slice[int64]) error) []T {
	t.Helper()
	out, count := poisoned(t, d, n, poison), poisoned(t, d, 1, int64(-7))
	require.NoError(t, run(out, count))
	k := one(t, count)
	require.True(t, k >= 0 && k <= int64(n), "count %d of %d", k, n)
	got := devcheck.Download(t, out)
	for i, v := range got[k:] {
		require.Equal(t, poison, v, "output[%d] past the count %d was written", int(k)+i, k)
	}
	if k == 0 {
		return nil
	}
	return got[:k]
}

// partitionedRun runs a Partition into n poisoned elements.
func partitionedRun[T any](t *testing.T, d *runtime.Device, n int, poison T, run func(out *runtime.Slice[T], count *runtime.Slice[int64]) error) partitioned[T] {
	t.Helper()
	out, count := poisoned(t, d, n, poison), poisoned(t, d, 1, int64(-7))
	require.NoError(t, run(out, count))
	return partitioned[T]{one(t, count), devcheck.Download(t, out)}
}

// sortedRun runs a RunCopy of keys into n poisoned keys.
func sortedRun[K any](t *testing.T, d *runtime.Device, n int, poison K, run func(out *runtime.Slice[K]) error) []K {
	t.Helper()
	out := poisoned(t, d, n, poison)
	require.NoError(t, run(out))
	return devcheck.Download(t, out)
}

const poison32 = int32(-0x5a5a5a5b)

func selectCases() []testCase {
	odd := func(v int32) bool { return Odd(v) }
	return []testCase{
		{"Select/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return SelSquares.Run(nil, Squares.Bind(CountI32.With(x.start)).Take(x.n), o, c)
			})
		}, func(x *data) any { return filter(x.squares(), odd) }},
		{"Select/Transform³(Counting[float32])", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, float32(-1), func(o *runtime.Slice[float32], c *runtime.Slice[int64]) error {
				return SelHalves.Run(nil, NestedHalf.Bind(CountF32.With(x.startF)).Take(x.n), o, c)
			})
		}, func(x *data) any { return filter(x.halves(), Positive) }},
		{"Select/Constant", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return SelConst.Run(nil, ConstI32.Bind(ConstI32.With(x.c)).Take(x.n), o, c)
			})
		}, func(x *data) any { return filter(x.consts(), odd) }},
		{"Select/Zip", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, Pair{-1, -1}, func(o *runtime.Slice[Pair], c *runtime.Slice[int64]) error {
				return SelZip.Run(nil, Zipped.Bind(CountI32.With(x.start), XsF64.With(b.fs)), o, c)
			})
		}, func(x *data) any { return filter(x.zipped(), PairKeep) }},
		{"Select/Permutation", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return SelGather.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), o, c)
			})
		}, func(x *data) any { return filter(x.gather(), odd) }},
		{"Select/Permutation(Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return SelShuffled.Run(nil, Shuffled.Bind(XsI32.With(b.xs), Shuf.With(x.n, x.seed)), o, c)
			})
		}, func(x *data) any { return filter(x.shuffled(), odd) }},
		{"Select/Shuffle", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, int64(-1), func(o *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return SelShuffle.Run(o.Device().DefaultStream(), Shuf.Bind(Shuf.With(x.n, x.seed)), o, c)
			})
		}, func(x *data) any { return filter(x.shuffle(), OddI64) }},
		{"Select/Reverse", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return SelReversed.Run(nil, Reversed.Bind(XsI32.With(b.xs)), o, c)
			})
		}, func(x *data) any { return filter(x.reversed(), odd) }},
		{"Select/CacheModified", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			var got [][]int32
			for _, c := range []struct {
				inst *runtime.SelectOp[int32]
				comp *it.In[int32]
			}{{SelStreamed, Streamed}, {SelL2, L2}, {SelVol, Vol}} {
				got = append(got, selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], n *runtime.Slice[int64]) error {
					return c.inst.Run(nil, c.comp.Bind(XsI32.With(b.xs)), o, n)
				}))
			}
			return got
		}, func(x *data) any {
			s := filter(x.xs, odd)
			return [][]int32{s, s, s}
		}},
		{"Partition/Transform(Reverse(Permutation))", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partitionedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return PartRevSquares.Run(nil, RevSquares.Bind(XsI32.With(b.xs), Idx.With(b.idx)), o, c)
			})
		}, func(x *data) any { return partition(x.revSquares(), odd) }},
		{"Partition/Transform(Zip of 3 with Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			comp := it.Transform(Zip3, TripleSum)
			return partitionedRun(t, d, x.n, int64(-1), func(o *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return PartZip3.Run(nil, comp.Bind(XsI32.With(b.xs), CountF32.With(x.startF), YsI64.With(b.ys), Shuf.With(x.n, x.seed)), o, c)
			})
		}, func(x *data) any { return partition(x.zip3Sums(), OddI64) }},
		{"Unique/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return UniqRuns.Run(nil, Runs.Bind(CountI32.With(x.start)).Take(x.n), o, c)
			})
		}, func(x *data) any { return unique(x.runs(), EqI32) }},
		{"Unique/Permutation", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return selected(t, d, x.n, poison32, func(o *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return UniqGather.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), o, c)
			})
		}, func(x *data) any { return unique(x.gather(), EqI32) }},
	}
}

func sortCases() []testCase {
	return []testCase{
		{"MergeSortKeys/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortSquares.RunCopy(nil, Squares.Bind(CountI32.With(x.start)).Take(x.n), o)
			})
		}, func(x *data) any { return sortedBy(x.squares(), LessI32) }},
		{"MergeSortKeys/Transform³(Counting[float32])", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, float32(-1), func(o *runtime.Slice[float32]) error {
				return SortHalves.RunCopy(nil, NestedHalf.Bind(CountF32.With(x.startF)), o) // the output's length
			})
		}, func(x *data) any { return sortedBy(x.halves(), GreaterF32) }},
		{"MergeSortKeys/Constant", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortConst.RunCopy(nil, ConstI32.Bind(ConstI32.With(x.c)), o)
			})
		}, func(x *data) any { return x.consts() }},
		{"MergeSortKeys/Zip (stable)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, Pair{-1, -1}, func(o *runtime.Slice[Pair]) error {
				return SortZip.RunCopy(nil, ZipXs.Bind(XsI32.With(b.xs), XsF64.With(b.fs)), o)
			})
		}, func(x *data) any { return sortedBy(x.zipXs(), LessPairB) }},
		{"MergeSortKeys/Permutation (stable)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortGather.RunCopy(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), o)
			})
		}, func(x *data) any { return sortedBy(x.gather(), LessLow4) }},
		{"MergeSortKeys/Permutation(Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortShuffled.RunCopy(nil, Shuffled.Bind(XsI32.With(b.xs), Shuf.With(x.n, x.seed)), o)
			})
		}, func(x *data) any { return sortedBy(x.shuffled(), LessI32) }},
		{"MergeSortKeys/Shuffle", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, int64(-1), func(o *runtime.Slice[int64]) error {
				return SortShuffle.RunCopy(nil, Shuf.Bind(Shuf.With(x.n, x.seed)), o)
			})
		}, func(x *data) any { return seq(x.n, func(i int) int64 { return int64(i) }) }},
		{"MergeSortKeys/Reverse (stable)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortReversed.RunCopy(nil, Reversed.Bind(XsI32.With(b.xs)), o)
			})
		}, func(x *data) any { return sortedBy(x.reversed(), LessLow4) }},
		{"MergeSortKeys/CacheModified", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return sortedRun(t, d, x.n, poison32, func(o *runtime.Slice[int32]) error {
				return SortStreamed.RunCopy(nil, Streamed.Bind(XsI32.With(b.xs)), o)
			})
		}, func(x *data) any { return sortedBy(x.xs, LessI32) }},
		{"MergeSortPairs/Slice×Counting (stable argsort)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			ko, vo := poisoned(t, d, x.n, poison32), poisoned(t, d, x.n, int64(-1))
			require.NoError(t, ArgSort.RunCopy(nil, b.xs, CountI64.Bind(CountI64.With(0)), ko, vo))
			return []any{devcheck.Download(t, ko), devcheck.Download(t, vo)}
		}, func(x *data) any {
			k, v := sortedPairs(x.xs, seq(x.n, func(i int) int64 { return int64(i) }), LessLow4)
			return []any{k, v}
		}},
		{"MergeSortPairs/Transform(Reverse(Permutation))×Zip", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			ko, vo := poisoned(t, d, x.n, poison32), poisoned(t, d, x.n, Pair{-1, -1})
			require.NoError(t, SortMixed.RunCopy(nil, RevSquares.Bind(XsI32.With(b.xs), Idx.With(b.idx)),
				Zipped.Bind(CountI32.With(x.start), XsF64.With(b.fs)), ko, vo))
			return []any{devcheck.Download(t, ko), devcheck.Download(t, vo)}
		}, func(x *data) any {
			k, v := sortedPairs(x.revSquares(), x.zipped(), LessLow4)
			return []any{k, v}
		}},
		{"MergeSortPairs/Shuffle×CacheModified", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			ko, vo := poisoned(t, d, x.n, int64(-1)), poisoned(t, d, x.n, poison32)
			require.NoError(t, SortByShuf.RunCopy(nil, Shuf.Bind(Shuf.With(x.n, x.seed)), Vol.Bind(XsI32.With(b.xs)), ko, vo))
			return []any{devcheck.Download(t, ko), devcheck.Download(t, vo)}
		}, func(x *data) any {
			k, v := sortedPairs(x.shuffle(), x.xs, LessI64)
			return []any{k, v}
		}},
	}
}

// runCases runs cases on the GPU (when there is one) and on the CPU
// backend over fresh random inputs of several sizes, and requires both to
// equal the sequential oracle.
func runCases(t *testing.T, cs []testCase) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	for _, n := range []int{1, 777, 5000, 1 << 18} {
		x := draw(r, n)
		bd, bo := upload(t, dut, x), upload(t, oracle, x)
		for _, c := range cs {
			want := c.want(x)
			require.Equal(t, want, c.run(t, oracle, bo, x), "%s, n=%d, CPU backend", c.name, n)
			if dut != oracle {
				require.Equal(t, want, c.run(t, dut, bd, x), "%s, n=%d, GPU", c.name, n)
			}
		}
	}
}

// TestSelectIteratorsMatchCPU runs Select, Partition and Unique over every
// input kind into poisoned outputs.
func TestSelectIteratorsMatchCPU(t *testing.T) { runCases(t, selectCases()) }

// TestMergeSortIteratorsMatchCPU runs the copy form of both merge sorts
// over every input kind into poisoned outputs.
func TestMergeSortIteratorsMatchCPU(t *testing.T) { runCases(t, sortCases()) }

// TestUndeclaredSelectSortComposition: Select, Partition, Unique and the
// merge sorts refuse a composition no instance declared with an error that
// spells the declaration, on a GPU and on the CPU backend alike.
func TestUndeclaredSelectSortComposition(t *testing.T) {
	dut, _, _ := devices(t)
	xs, err := runtime.FromHost(dut, []int32{1, 2, 3})
	require.NoError(t, err)
	out, err := runtime.Alloc[int32](dut, 3)
	require.NoError(t, err)
	vals, err := runtime.Alloc[int64](dut, 3)
	require.NoError(t, err)
	count, err := runtime.Alloc[int64](dut, 1)
	require.NoError(t, err)
	comp := it.Transform(XsI32, NotDeclared)
	const pkg = "github.com/gocccl/gocccl/conformance/devicetest/iterator."
	const over = ".Over(iterator.Transform(iterator.Slice[int32](), " + pkg + "NotDeclared))"
	for _, c := range []struct {
		want string
		run  func() error
	}{
		{"Select(" + pkg + "Odd)" + over, func() error { return SelGather.Run(nil, comp.Bind(XsI32.With(xs)), out, count) }},
		{"Partition(" + pkg + "Odd)" + over, func() error { return PartRevSquares.Run(nil, comp.Bind(XsI32.With(xs)), out, count) }},
		{"Unique(" + pkg + "EqI32)" + over, func() error { return UniqGather.Run(nil, comp.Bind(XsI32.With(xs)), out, count) }},
		{"MergeSortKeys(" + pkg + "LessI32)" + over, func() error { return SortSquares.RunCopy(nil, comp.Bind(XsI32.With(xs)), out) }},
		{"MergeSortPairs[int32, int64](" + pkg + "LessLow4).Over(iterator.Transform(iterator.Slice[int32](), " + pkg + "NotDeclared), iterator.Counting[int64]())",
			func() error {
				return ArgSort.RunCopy(nil, comp.Bind(XsI32.With(xs)), CountI64.Bind(CountI64.With(0)), out, vals)
			}},
	} {
		err := c.run()
		require.ErrorIs(t, err, runtime.ErrNotGenerated)
		require.ErrorContains(t, err, c.want)
		require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), "one prefix: %v", err)
	}
}
