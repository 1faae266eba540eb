package iterator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// threeWay is cub::DevicePartition::If with two operators' result: the
// items where first holds, of the others those where second holds, and the
// rest, each in order.
type threeWay[T any] struct {
	First, Second, Rest []T
}

func partition3[T any](xs []T, first, second func(T) bool) threeWay[T] {
	var p threeWay[T]
	for _, v := range xs {
		switch {
		case first(v):
			p.First = append(p.First, v)
		case second(v):
			p.Second = append(p.Second, v)
		default:
			p.Rest = append(p.Rest, v)
		}
	}
	return p
}

// uniqueKeyed is UniqueByKey's result: the first key of every run and the
// value beside it.
type uniqueKeyed[K, V any] struct {
	Keys   []K
	Values []V
}

func uniqueByKey[K, V any](ks []K, vs []V, eq func(K, K) bool) uniqueKeyed[K, V] {
	var u uniqueKeyed[K, V]
	for i, k := range ks {
		if i == 0 || !eq(ks[i-1], k) {
			u.Keys = append(u.Keys, k)
			u.Values = append(u.Values, vs[i])
		}
	}
	return u
}

// kept returns the first k elements of out, requiring the rest to be
// poison.
func kept[T any](t *testing.T, out *runtime.Slice[T], k int64, poison T, what string) []T {
	t.Helper()
	got := devcheck.Download(t, out)
	require.True(t, k >= 0 && k <= int64(len(got)), "%s: count %d of %d", what, k, len(got))
	for i, v := range got[k:] {
		require.Equal(t, poison, v, "%s[%d] past the count %d was written", what, int(k)+i, k)
	}
	if k == 0 {
		return nil
	}
	return got[:k]
}

// partition3Run runs a ThreeWayPartition of n elements into poisoned
// outputs and returns its three parts.
func partition3Run[T any](t *testing.T, d *runtime.Device, n int, poison T, run func(first, second, rest *runtime.Slice[T], counts *runtime.Slice[int64]) error) threeWay[T] {
	t.Helper()
	first, second, rest := poisoned(t, d, n, poison), poisoned(t, d, n, poison), poisoned(t, d, n, poison)
	counts := poisoned(t, d, 2, int64(-7))
	require.NoError(t, run(first, second, rest, counts))
	c := devcheck.Download(t, counts)
	return threeWay[T]{kept(t, first, c[0], poison, "first"), kept(t, second, c[1], poison, "second"),
		kept(t, rest, int64(n)-c[0]-c[1], poison, "unselected")}
}

// uniqueByKeyRun runs a UniqueByKey of n keys into poisoned outputs.
func uniqueByKeyRun[K, V any](t *testing.T, d *runtime.Device, n int, pk K, pv V, run func(ko *runtime.Slice[K], vo *runtime.Slice[V], count *runtime.Slice[int64]) error) uniqueKeyed[K, V] {
	t.Helper()
	ko, vo, count := poisoned(t, d, n, pk), poisoned(t, d, n, pv), poisoned(t, d, 1, int64(-7))
	require.NoError(t, run(ko, vo, count))
	k := one(t, count)
	return uniqueKeyed[K, V]{kept(t, ko, k, pk, "keys output"), kept(t, vo, k, pv, "values output")}
}

func partition3Cases() []testCase {
	odd, mod3 := func(v int32) bool { return Odd(v) }, func(v int32) bool { return Mod3(v) }
	return []testCase{
		{"ThreeWayPartition/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, poison32, func(p, q, r *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return Part3Squares.Run(nil, Squares.Bind(CountI32.With(x.start)).Take(x.n), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.squares(), odd, mod3) }},
		{"ThreeWayPartition/Counting", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, int64(-1), func(p, q, r *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return Part3Count.Run(nil, CountI64.Bind(CountI64.With(int64(x.start))).Take(x.n), p, q, r, c)
			})
		}, func(x *data) any {
			return partition3(seq(x.n, func(i int) int64 { return int64(x.start) + int64(i) }), OddI64, Mod3I64)
		}},
		{"ThreeWayPartition/Constant", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, poison32, func(p, q, r *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return Part3Const.Run(nil, ConstI32.Bind(ConstI32.With(x.c)).Take(x.n), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.consts(), odd, mod3) }},
		{"ThreeWayPartition/Zip", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, Pair{-1, -1}, func(p, q, r *runtime.Slice[Pair], c *runtime.Slice[int64]) error {
				return Part3Zip.Run(nil, Zipped.Bind(CountI32.With(x.start), XsF64.With(b.fs)), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.zipped(), PairKeep, PairNeg) }},
		{"ThreeWayPartition/Permutation", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, poison32, func(p, q, r *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return Part3Gather.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.gather(), odd, mod3) }},
		{"ThreeWayPartition/Permutation(Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, poison32, func(p, q, r *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return Part3Shuffled.Run(nil, Shuffled.Bind(XsI32.With(b.xs), Shuf.With(x.n, x.seed)), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.shuffled(), odd, mod3) }},
		{"ThreeWayPartition/Reverse", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return partition3Run(t, d, x.n, poison32, func(p, q, r *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return Part3Reversed.Run(nil, Reversed.Bind(XsI32.With(b.xs)), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.reversed(), odd, mod3) }},
		{"ThreeWayPartition/Transform(Zip of 3 with Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			comp := it.Transform(Zip3, TripleSum)
			return partition3Run(t, d, x.n, int64(-1), func(p, q, r *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return Part3Zip3.Run(nil, comp.Bind(XsI32.With(b.xs), CountF32.With(x.startF), YsI64.With(b.ys), Shuf.With(x.n, x.seed)), p, q, r, c)
			})
		}, func(x *data) any { return partition3(x.zip3Sums(), OddI64, Mod3I64) }},
	}
}

func uniqueByKeyCases() []testCase {
	return []testCase{
		{"UniqueByKey/Transform(Counting)×Counting", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return uniqueByKeyRun(t, d, x.n, poison32, int64(-1), func(ko *runtime.Slice[int32], vo *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return UbkRuns.Run(nil, Runs.Bind(CountI32.With(x.start)).Take(x.n), CountI64.Bind(CountI64.With(100)), ko, vo, c)
			})
		}, func(x *data) any {
			return uniqueByKey(x.runs(), seq(x.n, func(i int) int64 { return 100 + int64(i) }), EqI32)
		}},
		{"UniqueByKey/Constant×Reverse", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return uniqueByKeyRun(t, d, x.n, poison32, poison32, func(ko, vo *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return UbkConst.Run(nil, ConstI32.Bind(ConstI32.With(x.c)).Take(x.n), Reversed.Bind(XsI32.With(b.xs)), ko, vo, c)
			})
		}, func(x *data) any { return uniqueByKey(x.consts(), x.reversed(), EqI32) }},
		{"UniqueByKey/Transform(Reverse)×Zip", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			keys := it.Transform(Reversed, Low2)
			return uniqueByKeyRun(t, d, x.n, poison32, Pair{-1, -1}, func(ko *runtime.Slice[int32], vo *runtime.Slice[Pair], c *runtime.Slice[int64]) error {
				return UbkLow2.Run(nil, keys.Bind(XsI32.With(b.xs)), Zipped.Bind(CountI32.With(x.start), XsF64.With(b.fs)), ko, vo, c)
			})
		}, func(x *data) any {
			return uniqueByKey(seq(x.n, func(i int) int32 { return Low2(x.xs[x.n-1-i]) }), x.zipped(), EqI32)
		}},
		{"UniqueByKey/Permutation×Shuffle", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return uniqueByKeyRun(t, d, x.n, poison32, int64(-1), func(ko *runtime.Slice[int32], vo *runtime.Slice[int64], c *runtime.Slice[int64]) error {
				return UbkGather.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), Shuf.Bind(Shuf.With(x.n, x.seed)), ko, vo, c)
			})
		}, func(x *data) any { return uniqueByKey(x.gather(), x.shuffle(), EqI32) }},
		{"UniqueByKey/Slice×Permutation", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return uniqueByKeyRun(t, d, x.n, poison32, poison32, func(ko, vo *runtime.Slice[int32], c *runtime.Slice[int64]) error {
				return UbkPlain.Run(nil, b.xs, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), ko, vo, c)
			})
		}, func(x *data) any { return uniqueByKey(x.xs, x.gather(), EqI32) }},
	}
}

// TestThreeWayPartitionIteratorsMatchCPU runs ThreeWayPartition over every
// input kind into poisoned outputs.
func TestThreeWayPartitionIteratorsMatchCPU(t *testing.T) { runCases(t, partition3Cases()) }

// TestUniqueByKeyIteratorsMatchCPU runs UniqueByKey over keys and values
// of every input kind into poisoned outputs.
func TestUniqueByKeyIteratorsMatchCPU(t *testing.T) { runCases(t, uniqueByKeyCases()) }

// TestUndeclaredPartition3UniqueByKeyComposition: ThreeWayPartition and
// UniqueByKey refuse a composition no instance declared with an error that
// spells the declaration, on a GPU and on the CPU backend alike.
func TestUndeclaredPartition3UniqueByKeyComposition(t *testing.T) {
	dut, _, _ := devices(t)
	xs, err := runtime.FromHost(dut, []int32{1, 2, 3})
	require.NoError(t, err)
	a, err := runtime.Alloc[int32](dut, 3)
	require.NoError(t, err)
	b, err := runtime.Alloc[int32](dut, 3)
	require.NoError(t, err)
	c, err := runtime.Alloc[int32](dut, 3)
	require.NoError(t, err)
	vals, err := runtime.Alloc[int64](dut, 3)
	require.NoError(t, err)
	counts, err := runtime.Alloc[int64](dut, 2)
	require.NoError(t, err)
	comp := it.Transform(XsI32, NotDeclared)
	const pkg = "github.com/gocccl/gocccl/conformance/devicetest/iterator."
	const undeclared = "iterator.Transform(iterator.Slice[int32](), " + pkg + "NotDeclared)"
	for _, tc := range []struct {
		want string
		run  func() error
	}{
		{"ThreeWayPartition(" + pkg + "Odd, " + pkg + "Mod3).Over(" + undeclared + ")", func() error {
			return Part3Gather.Run(nil, comp.Bind(XsI32.With(xs)), a, b, c, counts)
		}},
		{"UniqueByKey[int32, int64](" + pkg + "EqI32).Over(" + undeclared + ", iterator.Counting[int64]())", func() error {
			return UbkRuns.Run(nil, comp.Bind(XsI32.With(xs)), CountI64.Bind(CountI64.With(0)), a, vals, counts)
		}},
		{"UniqueByKey[int32, int32](" + pkg + "EqI32).Over(iterator.Slice[int32](), " + undeclared + ")", func() error {
			return UbkPlain.Run(nil, xs, comp.Bind(XsI32.With(xs)), a, b, counts)
		}},
	} {
		err := tc.run()
		require.ErrorIs(t, err, runtime.ErrNotGenerated)
		require.ErrorContains(t, err, tc.want)
		require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), "one prefix: %v", err)
	}
}
