package runtime

import (
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"unsafe"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Views in states: a lookup table with a scalar, an allow-list, a table of
// structs, views in an array and a nested struct.
type (
	vtLUT struct {
		Scale float32
		Table View[float32]
	}
	vtAllow struct{ OK View[bool] }
	vtPair  struct {
		Lo, Hi int32
	}
	vtRanges struct{ R View[vtPair] }
	vtInner  struct{ Tabs [2]View[int64] }
	vtNested struct {
		K     int64
		Inner vtInner
	}
)

func (l vtLUT) apply(i uint8) float32 { return l.Scale * l.Table.At(int(i)%l.Table.Len()) }
func (a vtAllow) keep(x int32) bool   { return a.OK.At(int(x)) }
func (r vtRanges) clamp(x int32) int32 {
	p := r.R.At(int(x) & (r.R.Len() - 1))
	return min(max(x, p.Lo), p.Hi)
}
func (n vtNested) pick(a, b int64) int64 {
	return a + b + n.Inner.Tabs[(a+b)&1].At(int((a+b)&3))*n.K
}

// TestViewLayout: a View is three words, the layout gocccl::go::view has.
func TestViewLayout(t *testing.T) {
	var v View[[3]uint8]
	assert.Equal(t, uintptr(24), unsafe.Sizeof(v))
	assert.Equal(t, uintptr(8), unsafe.Alignof(v))
	assert.Equal(t, uintptr(0), unsafe.Offsetof(v.ptr))
	assert.Equal(t, uintptr(8), unsafe.Offsetof(v.n))
	assert.Equal(t, uintptr(16), unsafe.Offsetof(v.s))
}

// TestStatefulViewCPU: a lookup-table transform, a selection whose
// predicate reads a table, a transform over a table of structs and a
// reduction reading views in a nested struct's array, each with fresh random
// tables, against loops that call the method.
func TestStatefulViewCPU(t *testing.T) {
	d := cpuDevice(t)
	rng := rand.New(rand.NewPCG(9, 1))
	xs := make([]uint8, 5003)
	for i := range xs {
		xs[i] = uint8(rng.Uint32())
	}
	in := mustFromHost(t, d, xs)
	out := mustAlloc[float32](t, d, len(xs))
	lut := UnaryTransformWith(vtLUT.apply)
	for _, n := range []int{1, 7, 256} {
		table := make([]float32, n)
		for i := range table {
			table[i] = rng.Float32()*10 - 5
		}
		tab := mustFromHost(t, d, table)
		s := vtLUT{Scale: 1.5, Table: tab.View()}
		require.NoError(t, lut.Bind(s).Run(nil, in, out))
		got, err := out.ToHost()
		require.NoError(t, err)
		for i, x := range xs {
			require.Equal(t, 1.5*table[int(x)%n], got[i], "table of %d, element %d", n, i)
		}
		// A view of a Range reads just that range.
		s.Table = tab.Range(n/2, n).View()
		require.NoError(t, lut.Bind(s).Run(nil, in, out))
		got, err = out.ToHost()
		require.NoError(t, err)
		for i, x := range xs {
			require.Equal(t, 1.5*table[n/2+int(x)%(n-n/2)], got[i])
		}
	}

	vals := make([]int32, 4000)
	for i := range vals {
		vals[i] = rng.Int32N(64)
	}
	allow := make([]bool, 64)
	for i := range allow {
		allow[i] = rng.IntN(3) == 0
	}
	var want []int32
	for _, v := range vals {
		if allow[v] {
			want = append(want, v)
		}
	}
	vin := mustFromHost(t, d, vals)
	vout := mustAlloc[int32](t, d, len(vals))
	count := mustAlloc[int64](t, d, 1)
	ok := mustFromHost(t, d, allow)
	require.NoError(t, SelectWith(vtAllow.keep).Bind(vtAllow{OK: ok.View()}).Run(nil, vin, vout, count))
	n, err := count.ToHost()
	require.NoError(t, err)
	got, err := vout.ToHost()
	require.NoError(t, err)
	require.Equal(t, want, got[:n[0]])

	pairs := make([]vtPair, 8)
	for i := range pairs {
		lo := rng.Int32N(32)
		pairs[i] = vtPair{Lo: lo, Hi: lo + rng.Int32N(32)}
	}
	rs := vtRanges{R: mustFromHost(t, d, pairs).View()}
	require.NoError(t, UnaryTransformWith(vtRanges.clamp).Bind(rs).Run(nil, vin, vout))
	got, err = vout.ToHost()
	require.NoError(t, err)
	for i, v := range vals {
		require.Equal(t, rs.clamp(v), got[i])
	}

	ints := make([]int64, 1000)
	for i := range ints {
		ints[i] = rng.Int64N(100)
	}
	nest := vtNested{K: 3}
	for i := range nest.Inner.Tabs {
		nest.Inner.Tabs[i] = mustFromHost(t, d, []int64{int64(i), 10, 20, 30}).View()
	}
	sum := mustAlloc[int64](t, d, 1)
	// pick is not associative: reduce a single element with the init, which
	// is exactly pick(init, x).
	require.NoError(t, ReduceWith(vtNested.pick).Bind(nest).Run(nil, mustFromHost(t, d, ints[:1]), sum, 5))
	s, err := sum.ToHost()
	require.NoError(t, err)
	require.Equal(t, nest.pick(5, ints[0]), s[0])
}

// TestStatefulViewErrors: a call whose state holds a view of a freed slice,
// of a slice of another device, or the zero View fails before it runs,
// naming the field; an index out of range is the call's error on the CPU
// backend, as the panic it is in Go.
func TestStatefulViewErrors(t *testing.T) {
	d := cpuDevice(t)
	in := mustFromHost(t, d, []uint8{1, 2, 3})
	out := mustAlloc[float32](t, d, 3)
	lut := UnaryTransformWith(vtLUT.apply)

	tab := mustFromHost(t, d, []float32{1, 2})
	bound := lut.Bind(vtLUT{Scale: 1, Table: tab.View()})
	require.NoError(t, bound.Run(nil, in, out))
	require.NoError(t, tab.Free())
	err := bound.Run(nil, in, out)
	require.ErrorIs(t, err, ErrFreed)
	assert.ErrorContains(t, err, "gocccl: UnaryTransform(github.com/gocccl/gocccl/runtime.vtLUT.apply): state runtime.vtLUT, field Table: slice was freed")
	assert.ErrorContains(t, err, "field Table")
	assert.Equal(t, 1, countPrefix(err.Error()), err.Error())

	view := mustFromHost(t, d, []float32{1, 2, 3}).Range(0, 2).View()
	_ = view.s.root.Free()
	require.ErrorIs(t, lut.Bind(vtLUT{Table: view}).Run(nil, in, out), ErrFreed, "a view of a Range of a freed slice")

	other := cpuDevice(t)
	err = lut.Bind(vtLUT{Table: mustFromHost(t, other, []float32{1}).View()}).Run(nil, in, out)
	require.Error(t, err)
	assert.ErrorContains(t, err, "field Table: the view's slice is on")

	err = lut.Bind(vtLUT{Scale: 1}).Run(nil, in, out)
	assert.ErrorContains(t, err, "field Table: the zero View")

	var nest vtNested
	nest.Inner.Tabs[0] = mustFromHost(t, d, []int64{1}).View()
	err = ReduceWith(vtNested.pick).Bind(nest).Run(nil, mustFromHost(t, d, []int64{1}), mustAlloc[int64](t, d, 1), 0)
	assert.ErrorContains(t, err, "field Inner.Tabs[1]: the zero View")

	err = UnaryTransformWith(vtRanges.clamp).Bind(vtRanges{R: mustFromHost(t, d, []vtPair{{0, 1}, {1, 2}, {2, 3}}).View()}).
		Run(nil, mustFromHost(t, d, []int32{3}), mustAlloc[int32](t, d, 1))
	require.NoError(t, err, "3 & (3-1) is in range")
	err = SelectWith(vtAllow.keep).Bind(vtAllow{OK: mustFromHost(t, d, []bool{true}).View()}).
		Run(nil, mustFromHost(t, d, []int32{0, 1}), mustAlloc[int32](t, d, 2), mustAlloc[int64](t, d, 1))
	require.Error(t, err)
	assert.ErrorContains(t, err, "index out of range")
}

// countPrefix counts "gocccl: " in s.
func countPrefix(s string) int {
	n := 0
	for i := 0; i+8 <= len(s); i++ {
		if s[i:i+8] == "gocccl: " {
			n++
		}
	}
	return n
}

// TestViewAt: At reads a CPU slice, panics out of range as an index does,
// and says why it cannot read device memory or a freed slice.
func TestViewAt(t *testing.T) {
	d := cpuDevice(t)
	s := mustFromHost(t, d, []int32{4, 5, 6})
	v := s.Range(1, 3).View()
	assert.Equal(t, 2, v.Len())
	assert.Equal(t, int32(5), v.At(0))
	assert.Equal(t, int32(6), v.At(1))
	assert.Panics(t, func() { v.At(2) })
	assert.Panics(t, func() { v.At(-1) })
	var zero View[int32]
	assert.Equal(t, 0, zero.Len())
	assert.PanicsWithValue(t, "gocccl: View.At: index 0 out of range [0:0]", func() { zero.At(0) })
	assert.Equal(t, View[int32]{}, (*Slice[int32])(nil).View())
	dv := View[int32]{ptr: 1 << 20, n: 4, s: &Slice[int32]{dev: d, n: 4, ptr: 1 << 20}}
	assert.PanicsWithValue(t, "gocccl: View.At: the view's slice is in device memory: only a kernel, or the CPU backend's own slices, can be read through At", func() { dv.At(1) })
	w := s.View()
	require.NoError(t, s.Free())
	assert.PanicsWithValue(t, "gocccl: View.At: slice was freed", func() { w.At(0) })
}

// TestViewChecksDoNotAllocate: checking the views of a bound state costs no
// allocation when they are good.
func TestViewChecksDoNotAllocate(t *testing.T) {
	d := cpuDevice(t)
	var nest vtNested
	for i := range nest.Inner.Tabs {
		nest.Inner.Tabs[i] = mustFromHost(t, d, []int64{1, 2, 3, 4}).View()
	}
	h := ReduceWith(vtNested.pick).Bind(nest)
	require.Len(t, h.state.views, 2)
	allocs := testing.AllocsPerRun(100, func() {
		if err := h.checkViews(d); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "allocations per check")
}

// TestStateWithBufferKeepsNothing is the seed issue's reproducer for state:
// an operator whose state held a buffer. After each call and once the
// handle and the slices are dropped, weak pointers to the slices are
// cleared: neither the instance, nor the registry, nor the device (its last
// launch included) holds the state.
func TestStateWithBufferKeepsNothing(t *testing.T) {
	d := cpuDevice(t)
	lut := UnaryTransformWith(vtLUT.apply)
	for round := range 6 {
		tab := mustFromHost(t, d, make([]float32, 64+round))
		in := mustFromHost(t, d, []uint8{1, 2, 3})
		out := mustAlloc[float32](t, d, 3)
		h := lut.Bind(vtLUT{Scale: 2, Table: tab.View()})
		require.NoError(t, h.Run(nil, in, out))
		wTab := weak.Make(tab)
		tab, h = nil, nil
		require.True(t, collectedSoonAny(wTab), "round %d: the state's table is still referenced after the call", round)
		goruntime.KeepAlive(in)
		goruntime.KeepAlive(out)
	}
}

// collectedSoonAny is collectedSoon for a slice of any element type.
func collectedSoonAny[T any](p weak.Pointer[Slice[T]]) bool {
	for range 20 {
		goruntime.GC()
		if p.Value() == nil {
			return true
		}
	}
	return false
}
