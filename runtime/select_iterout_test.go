package runtime_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// KV is the struct the Select family writes through a ZipOutput.
type KV struct {
	K int32
	V float64
}

// HalfOf is the TransformOutput of the output-iterator tests.
//
//gocccl:op
func HalfOf(x int32) float64 { return float64(x) / 2 }

// KVOdd selects a KV by its key.
//
//gocccl:op
func KVOdd(x KV) bool { return x.K&1 == 1 }

// KVPositive is the second predicate of the KV three-way partition.
//
//gocccl:op
func KVPositive(x KV) bool { return x.V > 0 }

// SameKV compares KVs by key.
//
//gocccl:op
func SameKV(a, b KV) bool { return a.K == b.K }

// ByThree and ByThreeRest are the three-way partition's predicates.
//
//gocccl:op
func ByThree(x int32) bool { return x%3 == 0 }

//gocccl:op
func ByThreeRest(x int32) bool { return x%3 == 1 || x%3 == -1 }

// Output compositions of the Select family's tests.
var (
	oI32  = iterator.Slice[int32]()
	oF64  = iterator.Slice[float64]()
	oIdx  = iterator.Slice[int64]()
	oDrop = iterator.Discard[int32]()
	oHalf = iterator.TransformOutput(oF64, HalfOf)
	oRev  = iterator.ReverseOutput(oI32)
	oScat = iterator.PermutationOutput(oI32, oIdx)
	oZip  = iterator.ZipOutput[KV](oI32, oF64)
)

// Poison fills the outputs before every run: a write that should not have
// happened, or one that is missing, shows.
const (
	poisonI32 = int32(-777)
	poisonF64 = -777.25
)

// outKind is one output of a run: the composition it was declared with, a
// fresh binding to poisoned buffers, what the buffers hold after the run,
// and what they must hold when the algorithm wrote res (in index order).
type outKind[T any] struct {
	name string
	decl runtime.OutputIterator[T]
	out  runtime.Output[T]
	got  func() any
	want func(res []T) any
}

// poisoned returns a Slice of n copies of v on d.
func poisoned[T any](t *testing.T, d *runtime.Device, n int, v T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, slices.Repeat([]T{v}, n))
	require.NoError(t, err)
	return s
}

func host[T any](t *testing.T, s *runtime.Slice[T]) []T {
	t.Helper()
	h, err := s.ToHost()
	require.NoError(t, err)
	return h
}

// int32Kinds returns one fresh output of every kind that accepts int32,
// over n-element poisoned buffers; perm is a permutation of [0, n).
func int32Kinds(t *testing.T, d *runtime.Device, n int, perm []int64) []outKind[int32] {
	drop := outKind[int32]{name: "Discard", decl: oDrop, out: oDrop.Bind(), got: func() any { return nil }, want: func([]int32) any { return nil }}

	f := poisoned(t, d, n, poisonF64)
	half := outKind[int32]{name: "TransformOutput", decl: oHalf, out: oHalf.Bind(oF64.With(f)),
		got: func() any { return host(t, f) },
		want: func(res []int32) any {
			w := slices.Repeat([]float64{poisonF64}, n)
			for i, v := range res {
				w[i] = HalfOf(v)
			}
			return w
		}}

	r := poisoned(t, d, n, poisonI32)
	rev := outKind[int32]{name: "ReverseOutput", decl: oRev, out: oRev.Bind(oI32.With(r)),
		got: func() any { return host(t, r) },
		want: func(res []int32) any {
			w := slices.Repeat([]int32{poisonI32}, n)
			for i, v := range res {
				w[n-1-i] = v
			}
			return w
		}}

	p := poisoned(t, d, n, poisonI32)
	idx, err := runtime.FromHost(d, perm)
	require.NoError(t, err)
	scat := outKind[int32]{name: "PermutationOutput", decl: oScat, out: oScat.Bind(oI32.With(p), oIdx.With(idx)),
		got: func() any { return host(t, p) },
		want: func(res []int32) any {
			w := slices.Repeat([]int32{poisonI32}, n)
			for i, v := range res {
				w[perm[i]] = v
			}
			return w
		}}

	s := poisoned(t, d, n, poisonI32)
	plain := outKind[int32]{name: "Slice", decl: oI32, out: s,
		got: func() any { return host(t, s) },
		want: func(res []int32) any {
			w := slices.Repeat([]int32{poisonI32}, n)
			copy(w, res)
			return w
		}}
	return []outKind[int32]{drop, half, rev, scat, plain}
}

// kvKinds returns a fresh ZipOutput, a Discard and a Slice of KV.
func kvKinds(t *testing.T, d *runtime.Device, n int) []outKind[KV] {
	ks, vs := poisoned(t, d, n, poisonI32), poisoned(t, d, n, poisonF64)
	zip := outKind[KV]{name: "ZipOutput", decl: oZip, out: oZip.Bind(oI32.With(ks), oF64.With(vs)),
		got: func() any { return []any{host(t, ks), host(t, vs)} },
		want: func(res []KV) any {
			wk, wv := slices.Repeat([]int32{poisonI32}, n), slices.Repeat([]float64{poisonF64}, n)
			for i, x := range res {
				wk[i], wv[i] = x.K, x.V
			}
			return []any{wk, wv}
		}}
	drop := iterator.Discard[KV]()
	discard := outKind[KV]{name: "Discard", decl: drop, out: drop.Bind(), got: func() any { return nil }, want: func([]KV) any { return nil }}
	s := poisoned(t, d, n, KV{poisonI32, poisonF64})
	plain := outKind[KV]{name: "Slice", decl: iterator.Slice[KV](), out: s,
		got: func() any { return host(t, s) },
		want: func(res []KV) any {
			w := slices.Repeat([]KV{{poisonI32, poisonF64}}, n)
			copy(w, res)
			return w
		}}
	return []outKind[KV]{zip, discard, plain}
}

// Sequential oracles.

func keep[T any](pred func(T) bool, xs []T) []T {
	out := []T{}
	for _, x := range xs {
		if pred(x) {
			out = append(out, x)
		}
	}
	return out
}

func parted[T any](pred func(T) bool, xs []T) []T {
	out := keep(pred, xs)
	for i := len(xs) - 1; i >= 0; i-- {
		if !pred(xs[i]) {
			out = append(out, xs[i])
		}
	}
	return out
}

func threeWay[T any](first, second func(T) bool, xs []T) (a, b, rest []T) {
	a, b, rest = []T{}, []T{}, []T{}
	for _, x := range xs {
		switch {
		case first(x):
			a = append(a, x)
		case second(x):
			b = append(b, x)
		default:
			rest = append(rest, x)
		}
	}
	return a, b, rest
}

func heads[K, V any](eq func(K, K) bool, keys []K, values []V) ([]K, []V) {
	ks, vs := []K{}, []V{}
	for i := range keys {
		if i == 0 || !eq(keys[i-1], keys[i]) {
			ks, vs = append(ks, keys[i]), append(vs, values[i])
		}
	}
	return ks, vs
}

// draws returns n random int32s in ±[1, span], never zero, and a random
// permutation of [0, n).
func draws(r *rand.Rand, n, span int) ([]int32, []int64) {
	xs, perm := make([]int32, n), make([]int64, n)
	for i := range xs {
		xs[i] = int32(r.IntN(span) + 1)
		if r.IntN(2) == 0 {
			xs[i] = -xs[i]
		}
		perm[i] = int64(i)
	}
	r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	return xs, perm
}

func kvs(r *rand.Rand, n, span int) []KV {
	xs, _ := draws(r, n, span)
	out := make([]KV, n)
	for i, x := range xs {
		out[i] = KV{x, float64(r.IntN(2001)-1000) + 0.5}
	}
	return out
}

// TestSelectFamilyIntoCPU runs Select, Partition, ThreeWayPartition, Unique
// and UniqueByKey on the CPU backend into every output kind (Discard,
// TransformOutput, ReverseOutput, PermutationOutput, ZipOutput and a plain
// Slice) bound to poisoned buffers, against sequential loops, on random
// inputs.
func TestSelectFamilyIntoCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	r := rand.New(rand.NewPCG(uint64(rand.Int64()), 11))
	for _, n := range []int{0, 1, 2, 777, 70000} {
		xs, perm := draws(r, n, 1000)
		runs, _ := draws(r, n, 3) // short runs of equal keys
		recs, recRuns := kvs(r, n, 1000), kvs(r, n, 2)
		in, inRuns, inRecs, inRecRuns := must(d, xs), must(d, runs), must(d, recs), must(d, recRuns)
		cnt := func() *runtime.Slice[int64] { return poisoned(t, d, 2, int64(-1)) }

		for _, k := range int32Kinds(t, d, n, perm) {
			c := cnt()
			require.NoError(t, runtime.Select(IsOdd).Into(k.decl).Run(nil, in, k.out, c), "Select into %s, n=%d", k.name, n)
			want := keep(IsOdd, xs)
			require.Equal(t, int64(len(want)), host(t, c)[0], "Select into %s: count, n=%d", k.name, n)
			require.Equal(t, k.want(want), k.got(), "Select into %s, n=%d", k.name, n)
		}
		for _, k := range int32Kinds(t, d, n, perm) {
			c := cnt()
			require.NoError(t, runtime.Partition(IsOdd).Into(k.decl).Run(nil, in, k.out, c), "Partition into %s, n=%d", k.name, n)
			require.Equal(t, int64(len(keep(IsOdd, xs))), host(t, c)[0], "Partition into %s: count, n=%d", k.name, n)
			require.Equal(t, k.want(parted(IsOdd, xs)), k.got(), "Partition into %s, n=%d", k.name, n)
		}
		for _, k := range int32Kinds(t, d, n, perm) {
			c := cnt()
			require.NoError(t, runtime.Unique(Same).Into(k.decl).Run(nil, inRuns, k.out, c), "Unique into %s, n=%d", k.name, n)
			want, _ := heads(Same, runs, runs)
			require.Equal(t, int64(len(want)), host(t, c)[0], "Unique into %s: count, n=%d", k.name, n)
			require.Equal(t, k.want(want), k.got(), "Unique into %s, n=%d", k.name, n)
		}
		// The KV kinds: ZipOutput (and a Discard and a Slice) of structs.
		for _, k := range kvKinds(t, d, n) {
			c := cnt()
			require.NoError(t, runtime.Select(KVOdd).Into(k.decl).Run(nil, inRecs, k.out, c), "Select into %s, n=%d", k.name, n)
			require.Equal(t, k.want(keep(KVOdd, recs)), k.got(), "Select into %s, n=%d", k.name, n)
		}
		for _, k := range kvKinds(t, d, n) {
			c := cnt()
			require.NoError(t, runtime.Partition(KVOdd).Into(k.decl).Run(nil, inRecs, k.out, c), "Partition into %s, n=%d", k.name, n)
			require.Equal(t, k.want(parted(KVOdd, recs)), k.got(), "Partition into %s, n=%d", k.name, n)
		}
		for _, k := range kvKinds(t, d, n) {
			c := cnt()
			require.NoError(t, runtime.Unique(SameKV).Into(k.decl).Run(nil, inRecRuns, k.out, c), "Unique into %s, n=%d", k.name, n)
			want, _ := heads(SameKV, recRuns, recRuns)
			require.Equal(t, int64(len(want)), host(t, c)[0], "Unique into %s: count, n=%d", k.name, n)
			require.Equal(t, k.want(want), k.got(), "Unique into %s, n=%d", k.name, n)
		}

		// ThreeWayPartition: every kind in every position.
		a, b, rest := threeWay(ByThree, ByThreeRest, xs)
		for i := range int32Kinds(t, d, 0, nil) {
			ks := [3][]outKind[int32]{int32Kinds(t, d, n, perm), int32Kinds(t, d, n, perm), int32Kinds(t, d, n, perm)}
			k1, k2, k3 := ks[0][i], ks[1][(i+1)%len(ks[1])], ks[2][(i+2)%len(ks[2])]
			name := k1.name + ", " + k2.name + ", " + k3.name
			c := cnt()
			require.NoError(t, runtime.ThreeWayPartition(ByThree, ByThreeRest).Into(k1.decl, k2.decl, k3.decl).Run(nil, in, k1.out, k2.out, k3.out, c),
				"ThreeWayPartition into %s, n=%d", name, n)
			require.Equal(t, []int64{int64(len(a)), int64(len(b))}, host(t, c), "ThreeWayPartition into %s: counts, n=%d", name, n)
			require.Equal(t, []any{k1.want(a), k2.want(b), k3.want(rest)}, []any{k1.got(), k2.got(), k3.got()}, "ThreeWayPartition into %s, n=%d", name, n)
		}
		ka, kb, krest := threeWay(KVOdd, KVPositive, recs)
		for i := range kvKinds(t, d, 0) {
			ks := [3][]outKind[KV]{kvKinds(t, d, n), kvKinds(t, d, n), kvKinds(t, d, n)}
			k1, k2, k3 := ks[0][i], ks[1][(i+1)%len(ks[1])], ks[2][(i+2)%len(ks[2])]
			name := k1.name + ", " + k2.name + ", " + k3.name
			c := cnt()
			require.NoError(t, runtime.ThreeWayPartition(KVOdd, KVPositive).Into(k1.decl, k2.decl, k3.decl).Run(nil, inRecs, k1.out, k2.out, k3.out, c),
				"ThreeWayPartition into %s, n=%d", name, n)
			require.Equal(t, []any{k1.want(ka), k2.want(kb), k3.want(krest)}, []any{k1.got(), k2.got(), k3.got()}, "ThreeWayPartition into %s, n=%d", name, n)
		}

		// UniqueByKey: every int32 kind for the keys beside another for the
		// values, then ZipOutputs of KV keys and of KV values.
		for i := range int32Kinds(t, d, 0, nil) {
			kk, vk := int32Kinds(t, d, n, perm)[i], int32Kinds(t, d, n, perm)
			vkind := vk[(i+1)%len(vk)]
			name := kk.name + ", " + vkind.name
			c := cnt()
			require.NoError(t, runtime.UniqueByKey[int32, int32](Same).Into(kk.decl, vkind.decl).Run(nil, inRuns, in, kk.out, vkind.out, c),
				"UniqueByKey into %s, n=%d", name, n)
			wk, wv := heads(Same, runs, xs)
			require.Equal(t, int64(len(wk)), host(t, c)[0], "UniqueByKey into %s: count, n=%d", name, n)
			require.Equal(t, []any{kk.want(wk), vkind.want(wv)}, []any{kk.got(), vkind.got()}, "UniqueByKey into %s, n=%d", name, n)
		}
		for i, vkind := range kvKinds(t, d, n) {
			kk := int32Kinds(t, d, n, perm)[i]
			name := kk.name + ", " + vkind.name
			c := cnt()
			require.NoError(t, runtime.UniqueByKey[int32, KV](Same).Into(kk.decl, vkind.decl).Run(nil, inRuns, inRecs, kk.out, vkind.out, c),
				"UniqueByKey into %s, n=%d", name, n)
			wk, wv := heads(Same, runs, recs)
			require.Equal(t, []any{kk.want(wk), vkind.want(wv)}, []any{kk.got(), vkind.got()}, "UniqueByKey into %s, n=%d", name, n)
		}
		for i, kk := range kvKinds(t, d, n) {
			vkind := int32Kinds(t, d, n, perm)[i+1]
			name := kk.name + ", " + vkind.name
			c := cnt()
			require.NoError(t, runtime.UniqueByKey[KV, int32](SameKV).Into(kk.decl, vkind.decl).Run(nil, inRecRuns, in, kk.out, vkind.out, c),
				"UniqueByKey into %s, n=%d", name, n)
			wk, wv := heads(SameKV, recRuns, xs)
			require.Equal(t, int64(len(wk)), host(t, c)[0], "UniqueByKey into %s: count, n=%d", name, n)
			require.Equal(t, []any{kk.want(wk), vkind.want(wv)}, []any{kk.got(), vkind.got()}, "UniqueByKey into %s, n=%d", name, n)
		}
	}
}

// TestSelectFamilyIntoOverCPU: an input composition and an output
// composition together.
func TestSelectFamilyIntoOverCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	from := iterator.Counting[int32]()
	cubes := iterator.Transform(from, Cube)
	const n = 1000
	f := poisoned(t, d, n, poisonF64)
	c := poisoned(t, d, 1, int64(-1))
	require.NoError(t, runtime.Select(IsOdd).Over(cubes).Into(oHalf).Run(nil, cubes.Bind(from.With(-500)).Take(n), oHalf.Bind(oF64.With(f)), c))
	want := slices.Repeat([]float64{poisonF64}, n)
	k := 0
	for i := range n {
		if v := Cube(int32(i - 500)); IsOdd(v) {
			want[k] = HalfOf(v)
			k++
		}
	}
	require.Equal(t, []int64{int64(k)}, host(t, c))
	require.Equal(t, want, host(t, f))
}

// TestSelectFamilyIntoMisuse: outputs too short for the input, nil
// outputs, and compositions no instance declared are errors with one
// gocccl: prefix that say what is wrong, never a panic.
func TestSelectFamilyIntoMisuse(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	xs := must(d, []int32{5, 3, 8, 1})
	fs3, is3, perm3 := must(d, make([]float64, 3)), must(d, make([]int32, 3)), must(d, []int64{2, 0, 1})
	out, cnt, cnt2 := must(d, make([]int32, 4)), must(d, []int64{0}), must(d, []int64{0, 0})
	half3 := oHalf.Bind(oF64.With(fs3))
	for _, c := range []struct {
		name, want string
		err        error
	}{
		{"Select into a short TransformOutput", "the output has 3 elements, fewer than the 4 input elements it may receive",
			runtime.Select(IsOdd).Run(nil, xs, half3, cnt)},
		{"Partition into a short ReverseOutput", "the output has 3 elements, fewer than the 4",
			runtime.Partition(IsOdd).Run(nil, xs, oRev.Bind(oI32.With(is3)), cnt)},
		{"Unique into a short PermutationOutput", "the output has 3 elements, fewer than the 4",
			runtime.Unique(Same).Run(nil, xs, oScat.Bind(oI32.With(out), oIdx.With(perm3)), cnt)},
		{"ThreeWayPartition into a short second output", "the second output has 3 elements, fewer than the 4",
			runtime.ThreeWayPartition(ByThree, ByThreeRest).Run(nil, xs, oDrop.Bind(), half3, out, cnt2)},
		{"UniqueByKey into a short values output", "the values output has 3 elements, fewer than the 4 keys it may receive",
			runtime.UniqueByKey[int32, float64](Same).Run(nil, xs, must(d, make([]float64, 4)), oDrop.Bind(), iterator.ReverseOutput(oF64).Bind(oF64.With(fs3)), cnt)},
		{"Select into a nil output", "nil slice", runtime.Select(IsOdd).Run(nil, xs, nil, cnt)},
		{"UniqueByKey into a nil values output", "nil slice",
			runtime.UniqueByKey[int32, int32](Same).Run(nil, xs, xs, oDrop.Bind(), nil, cnt)},
		{"Select into a Discard without a count", "fewer than the 1 count it receives",
			runtime.Select(IsOdd).Run(nil, xs, oDrop.Bind(), cnt.Range(0, 0))},
	} {
		require.ErrorContains(t, c.err, c.want, c.name)
		require.Equal(t, 1, countPrefix(c.err.Error()), "%s: one prefix: %v", c.name, c.err)
	}

	// A composition no instance declared: the CPU backend refuses it as a
	// GPU does, and spells the declaration to add (Into takes no count).
	t.Setenv(runtime.EnvUngenerated, "")
	strict, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer strict.Close()
	sxs, sout, scnt, scnt2 := must(strict, []int32{5, 3, 8, 1}), must(strict, make([]int32, 4)), must(strict, []int64{0}), must(strict, []int64{0, 0})
	sfs := must(strict, make([]float64, 4))
	const pkg = "github.com/gocccl/gocccl/runtime_test."
	for _, c := range []struct {
		want string
		err  error
	}{
		{"Select(" + pkg + "IsOdd).Into(iterator.TransformOutput(iterator.Slice[float64](), " + pkg + "HalfOf))",
			runtime.Select(IsOdd).Run(nil, sxs, oHalf.Bind(oF64.With(sfs)), scnt)},
		{"Partition(" + pkg + "IsOdd).Into(iterator.Discard[int32]())",
			runtime.Partition(IsOdd).Run(nil, sxs, oDrop.Bind(), scnt)},
		{"Unique(" + pkg + "Same).Into(iterator.ReverseOutput(iterator.Slice[int32]()))",
			runtime.Unique(Same).Run(nil, sxs, oRev.Bind(oI32.With(sout)), scnt)},
		{"ThreeWayPartition(" + pkg + "ByThree, " + pkg + "ByThreeRest).Into(iterator.Slice[int32](), iterator.Discard[int32](), iterator.Slice[int32]())",
			runtime.ThreeWayPartition(ByThree, ByThreeRest).Run(nil, sxs, sout, oDrop.Bind(), must(strict, make([]int32, 4)), scnt2)},
		{"UniqueByKey[int32, float64](" + pkg + "Same).Into(iterator.Discard[int32](), iterator.Discard[float64]())",
			runtime.UniqueByKey[int32, float64](Same).Run(nil, sxs, sfs, oDrop.Bind(), iterator.Discard[float64]().Bind(), scnt)},
	} {
		require.ErrorIs(t, c.err, runtime.ErrNotGenerated, c.want)
		require.ErrorContains(t, c.err, "declare the instance with them where it is declared, runtime."+c.want, c.want)
		require.Equal(t, 1, strings.Count(c.err.Error(), "gocccl: "), "one prefix: %v", c.err)
	}
}
