package runtime_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Mult4 is the second predicate of the runtime-level three-way partition
// tests.
//
//gocccl:op
func Mult4(x int32) bool { return x%4 == 0 }

var (
	tPos       = iterator.Counting[int64]()
	tReversed  = iterator.Reverse(tIdx)
	tPart3     = runtime.ThreeWayPartition(IsOdd, Mult4).Over(tTripled)
	tUniqByPos = runtime.UniqueByKey[int32, int64](Same).Over(tTripled, tPos)
	tUniqByRev = runtime.UniqueByKey[int32, int64](Same).Over(tTripled, tReversed)
)

// TestPartition3UniqueByKeyOverIteratorsCPU checks ThreeWayPartition and
// UniqueByKey through compositions on the CPU backend against loops over
// the same compositions, on random inputs, into poisoned outputs.
func TestPartition3UniqueByKeyOverIteratorsCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 5))
	for _, n := range []int{0, 1, 2, 1000, 70000} {
		xs, idx := make([]int32, n), make([]int64, n)
		for i := range xs {
			xs[i], idx[i] = int32(r.IntN(16)), int64(r.IntN(n))
		}
		seq := make([]int32, n)
		for i := range seq {
			seq[i] = Twice3(xs[idx[i]])
		}
		src, ix := must(d, xs), must(d, idx)
		bound := func() *iterator.Bound[int32] { return tTripled.Bind(tSrc.With(src), tIdx.With(ix)) }
		poison := func() *runtime.Slice[int32] { return must(d, slices.Repeat([]int32{-1}, n)) }

		a, b, c, cnt := poison(), poison(), poison(), must(d, []int64{-1, -1})
		require.NoError(t, tPart3.Run(nil, bound(), a, b, c, cnt))
		first, second, rest := []int32{}, []int32{}, []int32{}
		for _, v := range seq {
			switch {
			case IsOdd(v):
				first = append(first, v)
			case Mult4(v):
				second = append(second, v)
			default:
				rest = append(rest, v)
			}
		}
		for _, p := range []struct {
			name string
			out  *runtime.Slice[int32]
			want []int32
			k    int64
		}{{"first", a, first, count(cnt, 0)}, {"second", b, second, count(cnt, 1)}, {"unselected", c, rest, int64(n) - count(cnt, 0) - count(cnt, 1)}} {
			got, _ := p.out.ToHost()
			require.Equal(t, int64(len(p.want)), p.k, "ThreeWayPartition %s count, n=%d", p.name, n)
			require.Equal(t, append(p.want, slices.Repeat([]int32{-1}, n-len(p.want))...), got, "ThreeWayPartition %s, n=%d", p.name, n)
		}

		heads, at, rev := []int32{}, []int64{}, []int64{}
		for i, v := range seq {
			if i == 0 || seq[i-1] != v {
				heads, at, rev = append(heads, v), append(at, 7+int64(i)), append(rev, idx[n-1-i])
			}
		}
		for _, u := range []struct {
			name   string
			run    func(ko *runtime.Slice[int32], vo *runtime.Slice[int64], cnt *runtime.Slice[int64]) error
			values []int64
		}{
			{"Counting values", func(ko *runtime.Slice[int32], vo, cnt *runtime.Slice[int64]) error {
				return tUniqByPos.Run(nil, bound(), tPos.Bind(tPos.With(7)), ko, vo, cnt)
			}, at},
			{"Reverse values", func(ko *runtime.Slice[int32], vo, cnt *runtime.Slice[int64]) error {
				return tUniqByRev.Run(nil, bound(), tReversed.Bind(tIdx.With(ix)), ko, vo, cnt)
			}, rev},
		} {
			ko, vo, cnt := poison(), must(d, slices.Repeat([]int64{-1}, n)), must(d, []int64{-1})
			require.NoError(t, u.run(ko, vo, cnt), "UniqueByKey, %s, n=%d", u.name, n)
			require.Equal(t, int64(len(heads)), count(cnt, 0), "UniqueByKey count, %s, n=%d", u.name, n)
			gk, _ := ko.ToHost()
			gv, _ := vo.ToHost()
			require.Equal(t, append(slices.Clone(heads), slices.Repeat([]int32{-1}, n-len(heads))...), gk, "UniqueByKey keys, %s, n=%d", u.name, n)
			require.Equal(t, append(slices.Clone(u.values), slices.Repeat([]int64{-1}, n-len(heads))...), gv, "UniqueByKey values, %s, n=%d", u.name, n)
		}
	}
}

// TestPartition3UniqueByKeyIteratorMisuse: length, overlap and nil
// mistakes of the iterator forms are errors with one gocccl: prefix, never
// a panic.
func TestPartition3UniqueByKeyIteratorMisuse(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs := must(d, []int32{5, 3, 8, 1})
	idx := must(d, []int64{0, 1, 2, 3})
	out, out2, out3 := must(d, make([]int32, 4)), must(d, make([]int32, 4)), must(d, make([]int32, 4))
	cnt, cnts := must(d, []int64{0}), must(d, []int64{0, 0})
	vals := must(d, make([]int64, 4))
	short := must(d, make([]int32, 3))
	bound := func() *iterator.Bound[int32] { return tTripled.Bind(tSrc.With(xs), tIdx.With(idx)) }
	pos := func() *iterator.Bound[int64] { return tPos.Bind(tPos.With(0)) }
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"ThreeWayPartition into a short output", "fewer than the 4", tPart3.Run(nil, bound(), out, short, out3, cnts)},
		{"ThreeWayPartition with one count", "fewer than the 2", tPart3.Run(nil, bound(), out, out2, out3, cnt)},
		{"ThreeWayPartition of a counting sequence without Take", "give it one with Take(n)",
			runtime.ThreeWayPartition(IsOdd, Mult4).Run(nil, tCount32.Bind(tCount32.With(0)), out, out2, out3, cnts)},
		{"ThreeWayPartition with overlapping outputs", "overlap", tPart3.Run(nil, bound(), out, out, out3, cnts)},
		{"ThreeWayPartition with a nil output", "nil slice", tPart3.Run(nil, bound(), out, nil, out3, cnts)},
		{"UniqueByKey of unequal keys and values", "4 keys but 3 values", tUniqByRev.Run(nil, bound(), idx.Range(0, 3), out, vals, cnt)},
		{"UniqueByKey of keys without Take", "give it one with Take(n)",
			runtime.UniqueByKey[int32, int64](Same).Run(nil, tCount32.Bind(tCount32.With(0)), idx, out, vals, cnt)},
		{"UniqueByKey of nil keys", "nil slice", tUniqByPos.Run(nil, nil, pos(), out, vals, cnt)},
		{"UniqueByKey of nil values", "nil slice", tUniqByPos.Run(nil, bound(), nil, out, vals, cnt)},
		{"UniqueByKey into a short output", "fewer than the 4", tUniqByPos.Run(nil, bound(), pos(), short, vals, cnt)},
		{"UniqueByKey writing over its plain keys", "overlap", tUniqByPos.Run(nil, xs, pos(), xs, vals, cnt)},
		{"UniqueByKey without a count", "fewer than the 1", tUniqByPos.Run(nil, bound(), pos(), out, vals, cnts.Range(0, 0))},
	} {
		require.Error(t, c.err, c.name)
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}

	// Plain Slices stay plain: the values are read as they are.
	require.NoError(t, tUniqByPos.Run(nil, xs, pos(), out, vals, cnt))
	require.Equal(t, int64(4), count(cnt, 0))
	got, _ := vals.ToHost()
	require.Equal(t, []int64{0, 1, 2, 3}, got)
}
