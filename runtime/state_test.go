package runtime

import (
	"reflect"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/registry"
)

// stScale is a scalar state; stPad a state with padding between fields.
type (
	stScale struct{ K int64 }
	stPad   struct {
		On    bool
		Scale float64
		Add   int8
	}
)

func (s stScale) mul(x int64) int64       { return s.K * x }
func (s stScale) axpy(x, y int64) int64   { return s.K*x + y }
func (s stScale) addMod(a, b int64) int64 { return (a + b) % s.K }
func (s stScale) atLeast(x int64) bool    { return x >= s.K }
func (s stScale) lessMod(a, b int64) bool { return a%s.K < b%s.K }
func (p stPad) apply(x float64) float64 {
	if p.On {
		return x*p.Scale + float64(p.Add)
	}
	return x
}

// TestStatefulCPU runs every stateful constructor on the CPU backend with
// several states, against loops that call the method.
func TestStatefulCPU(t *testing.T) {
	d := cpuDevice(t)
	xs := make([]int64, 10_007)
	for i := range xs {
		xs[i] = int64(i*7919%1000) - 300
	}
	in := must(FromHost(d, xs))
	out := must(Alloc[int64](d, len(xs)))
	ys := must(FromHost(d, slices.Repeat([]int64{5}, len(xs))))
	mul := UnaryTransformWith(stScale.mul)
	axpy := BinaryTransformWith(stScale.axpy)
	for _, k := range []int64{1, 3, -2, 1000} {
		s := stScale{K: k}
		require.NoError(t, mul.Bind(s).Run(nil, in, out))
		got := must(out.ToHost())
		for i, x := range xs {
			require.Equal(t, s.mul(x), got[i])
		}
		require.NoError(t, axpy.Bind(s).Run(nil, in, ys, out))
		got = must(out.ToHost())
		for i, x := range xs {
			require.Equal(t, s.axpy(x, 5), got[i])
		}
	}

	nonneg := make([]int64, len(xs))
	for i, x := range xs {
		nonneg[i] = (x + 300) % 97
	}
	nin := must(FromHost(d, nonneg))
	sum, incl, excl := ReduceWith(stScale.addMod), InclusiveScanWith(stScale.addMod), ExclusiveScanWith(stScale.addMod)
	for _, m := range []int64{97, 101, 1 << 40} {
		s := stScale{K: m}
		one := must(Alloc[int64](d, 1))
		require.NoError(t, sum.Bind(s).Run(nil, nin, one, 3))
		want := int64(3)
		for _, x := range nonneg {
			want = s.addMod(want, x)
		}
		assert.Equal(t, want, must(one.ToHost())[0])

		require.NoError(t, incl.Bind(s).Run(nil, nin, out))
		got := must(out.ToHost())
		acc := int64(0)
		for i, x := range nonneg {
			acc = s.addMod(acc, x)
			require.Equal(t, acc, got[i], "inclusive %d", i)
		}
		require.NoError(t, excl.Bind(s).Run(nil, nin, out, 3))
		got = must(out.ToHost())
		acc = 3
		for i, x := range nonneg {
			require.Equal(t, acc, got[i], "exclusive %d", i)
			acc = s.addMod(acc, x)
		}
	}

	sel, part := SelectWith(stScale.atLeast), PartitionWith(stScale.atLeast)
	count := must(Alloc[int64](d, 1))
	for _, k := range []int64{-1000, 0, 500, 1000} {
		s := stScale{K: k}
		want := []int64{}
		for _, x := range xs {
			if s.atLeast(x) {
				want = append(want, x)
			}
		}
		require.NoError(t, sel.Bind(s).Run(nil, in, out, count))
		n := must(count.ToHost())[0]
		require.Equal(t, int64(len(want)), n)
		assert.Equal(t, want, must(out.ToHost())[:n])
		require.NoError(t, part.Bind(s).Run(nil, in, out, count))
		require.Equal(t, int64(len(want)), must(count.ToHost())[0])
	}

	sortBy := MergeSortKeysWith(stScale.lessMod)
	for _, m := range []int64{7, 1 << 20} {
		s := stScale{K: m}
		keys := must(FromHost(d, nonneg))
		require.NoError(t, sortBy.Bind(s).Run(nil, keys))
		want := slices.Clone(nonneg)
		slices.SortStableFunc(want, func(a, b int64) int {
			switch {
			case s.lessMod(a, b):
				return -1
			case s.lessMod(b, a):
				return 1
			}
			return 0
		})
		assert.Equal(t, want, must(keys.ToHost()))
	}

	pad := UnaryTransformWith(stPad.apply)
	fs := must(FromHost(d, []float64{1, 2.5, -4}))
	fout := must(Alloc[float64](d, 3))
	require.NoError(t, pad.Bind(stPad{On: true, Scale: 2, Add: -1}).Run(nil, fs, fout))
	assert.Equal(t, []float64{1, 4, -9}, must(fout.ToHost()))
}

// TestStatefulConcurrentBinds runs many states of one instance at once:
// each bound handle keeps its own.
func TestStatefulConcurrentBinds(t *testing.T) {
	d := cpuDevice(t)
	mul := UnaryTransformWith(stScale.mul)
	xs := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for g := range 16 {
		wg.Go(func() {
			in := must(FromHost(d, xs))
			out := must(Alloc[int64](d, len(xs)))
			h := mul.Bind(stScale{K: int64(g)})
			for range 50 {
				if err := h.Run(nil, in, out); err != nil {
					errs[g] = err
					return
				}
				for i, v := range must(out.ToHost()) {
					if v != int64(g)*xs[i] {
						errs[g] = assert.AnError
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

// TestStatefulNil: a nil Stateful binds a nil handle, whose Run reports a
// nil operator instead of panicking.
func TestStatefulNil(t *testing.T) {
	var st *Stateful[stScale, *ReduceOp[int64]]
	h := st.Bind(stScale{K: 1})
	require.Nil(t, h)
	d := cpuDevice(t)
	in := must(FromHost(d, []int64{1}))
	assert.ErrorContains(t, h.Run(nil, in, in, 0), "nil operator")
}

// TestStateArgument checks how a bound state is packed after a kernel's own
// parameters: at its Go alignment, and not at all without a Bind.
func TestStateArgument(t *testing.T) {
	in := newStatefulInstance[stPad](algo.Reduce, []any{stScale.addMod}, reflect.TypeFor[int64]())
	var args cuda.Args
	args.Int32(7)
	_, err := in.appendState(&args)
	assert.ErrorContains(t, err, "no state bound")
	assert.Equal(t, 4, args.Len())

	p := stPad{On: true, Scale: 2, Add: 3}
	b := bound(in, &p)
	n, err := b.appendState(&args)
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	assert.Equal(t, 8+int(unsafe.Sizeof(p)), args.Len(), "the state starts at its alignment, 8")
	args.Truncate(n)
	assert.Equal(t, 4, args.Len())
}

// TestStateMismatch: kernels registered without state do not run an
// instance with state (and the other way round): go generate is named.
func TestStateMismatch(t *testing.T) {
	m := registry.NewModule("example.com/statemismatch", "hash", nil)
	op := func(s stScale, a, b int64) int64 { return a + b }
	registry.Register(m, registry.Instance{Algorithm: "Reduce", Ops: []any{op}, Types: []reflect.Type{reflect.TypeFor[int64]()},
		Kernels: []string{"a", "b", "c"}})
	in := newStatefulInstance[stScale](algo.Reduce, []any{op}, reflect.TypeFor[int64]())
	_, err := in.kernels(nil)
	assert.ErrorContains(t, err, "generated without state, the instance has state runtime.stScale: run go generate")

	op2 := func(a, b int64) int64 { return a - b }
	registry.Register(m, registry.Instance{Algorithm: "Reduce", Ops: []any{op2}, Types: []reflect.Type{reflect.TypeFor[int64]()},
		Kernels: []string{"a", "b", "c"}, State: reflect.TypeFor[stPad]()})
	plain := newInstance(algo.Reduce, []any{op2}, reflect.TypeFor[int64]())
	_, err = plain.kernels(nil)
	assert.ErrorContains(t, err, "generated with state runtime.stPad, the instance has none")
}

func (s stScale) near(a, b int64) bool  { return a/s.K == b/s.K }
func (s stScale) diff(a, b int64) int64 { return s.K * (a - b) }

// TestStatefulCPUMore runs the other stateful constructors on the CPU
// backend with several states, against loops that call the method.
func TestStatefulCPUMore(t *testing.T) {
	d := cpuDevice(t)
	xs := make([]int64, 5_003)
	for i := range xs {
		xs[i] = int64(i*7919%1000) - 300
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	forEach, adj, uniq := ForEachWith(stScale.mul), AdjacentDifferenceWith(stScale.diff), UniqueWith(stScale.near)
	segred := SegmentedReduceWith(stScale.addMod)
	lower, upper := LowerBoundWith(stScale.lessMod), UpperBoundWith(stScale.lessMod)
	pairs := MergeSortPairsWith[stScale, int64, int32](stScale.lessMod)
	for _, k := range []int64{3, 7, 1000} {
		s := stScale{K: k}

		data := must(FromHost(d, xs))
		require.NoError(t, forEach.Bind(s).Run(nil, data))
		got := must(data.ToHost())
		for i, x := range xs {
			require.Equal(t, s.mul(x), got[i], "ForEach %d", i)
		}

		in := must(FromHost(d, xs))
		out := must(Alloc[int64](d, len(xs)))
		require.NoError(t, adj.Bind(s).Run(nil, in, out))
		got = must(out.ToHost())
		require.Equal(t, xs[0], got[0])
		for i := 1; i < len(xs); i++ {
			require.Equal(t, s.diff(xs[i], xs[i-1]), got[i], "AdjacentDifference %d", i)
		}

		sin := must(FromHost(d, sorted))
		count := must(Alloc[int64](d, 1))
		require.NoError(t, uniq.Bind(s).Run(nil, sin, out, count))
		want := []int64{}
		for i, x := range sorted {
			if i == 0 || !s.near(sorted[i-1], x) {
				want = append(want, x)
			}
		}
		n := must(count.ToHost())[0]
		require.Equal(t, int64(len(want)), n, "Unique count")
		assert.Equal(t, want, must(out.ToHost())[:n])

		begin := must(FromHost(d, []int64{0, 10, 10, 2000}))
		end := must(FromHost(d, []int64{10, 10, 2000, int64(len(xs))}))
		sums := must(Alloc[int64](d, 4))
		m := stScale{K: 1 << 40}
		require.NoError(t, segred.Bind(m).Run(nil, in, begin, end, sums, 1))
		gotSums := must(sums.ToHost())
		for j, r := range [][2]int{{0, 10}, {10, 10}, {10, 2000}, {2000, len(xs)}} {
			acc := int64(1)
			for _, x := range xs[r[0]:r[1]] {
				acc = m.addMod(acc, x)
			}
			require.Equal(t, acc, gotSums[j], "SegmentedReduce segment %d", j)
		}

		byMod := slices.Clone(xs)
		cmpMod := func(a, b int64) int {
			switch {
			case s.lessMod(a, b):
				return -1
			case s.lessMod(b, a):
				return 1
			}
			return 0
		}
		slices.SortStableFunc(byMod, cmpMod)
		hay := must(FromHost(d, byMod))
		needles := []int64{-5, 0, 1, 2, 500, 999}
		nd := must(FromHost(d, needles))
		pos := must(Alloc[int64](d, len(needles)))
		for _, c := range []struct {
			op    *Stateful[stScale, *SearchOp[int64]]
			upper bool
		}{{lower, false}, {upper, true}} {
			require.NoError(t, c.op.Bind(s).Run(nil, hay, nd, pos))
			gotPos := must(pos.ToHost())
			for j, v := range needles {
				want, _ := slices.BinarySearchFunc(byMod, v, cmpMod)
				if c.upper {
					for want < len(byMod) && cmpMod(byMod[want], v) == 0 {
						want++
					}
				}
				require.Equal(t, int64(want), gotPos[j], "upper=%v needle %d", c.upper, v)
			}
		}

		keys := must(FromHost(d, xs))
		idx := make([]int32, len(xs))
		for i := range idx {
			idx[i] = int32(i)
		}
		vals := must(FromHost(d, idx))
		require.NoError(t, pairs.Bind(s).Run(nil, keys, vals))
		gotKeys, gotVals := must(keys.ToHost()), must(vals.ToHost())
		assert.Equal(t, byMod, gotKeys, "MergeSortPairs keys")
		for i, v := range gotVals {
			require.Equal(t, xs[v], gotKeys[i], "MergeSortPairs value %d names its key's position", i)
			if i > 0 && cmpMod(gotKeys[i-1], gotKeys[i]) == 0 {
				require.Less(t, gotVals[i-1], v, "stable at %d", i)
			}
		}
	}
}
