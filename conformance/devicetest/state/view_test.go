package state

import (
	"errors"
	"os"
	goruntime "runtime"
	"testing"
	"time"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// tableSizes are the lengths of the lookup tables: one entry, a few, and
// more than a block reads at once.
var tableSizes = []int{1, 3, 256, 70_001}

func lutOn(t *testing.T, d *runtime.Device, scale float32, table []float32, lo, hi int, xs []uint32) []float32 {
	t.Helper()
	tab := devcheck.Upload(t, d, table)
	out := devcheck.Alloc[float32](t, d, len(xs))
	require.NoError(t, LutMap.Bind(Lut{Scale: scale, Table: tab.Range(lo, hi).View()}).Run(nil, devcheck.Upload(t, d, xs), out))
	return devcheck.Download(t, out)
}

// TestLookupTable: a transform whose state is a scalar and a device table,
// with fresh random tables per size, whole and through a Range.
func TestLookupTable(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		xs := make([]uint32, n)
		for i := range xs {
			xs[i] = r.Uint32()
		}
		for _, m := range tableSizes {
			table := make([]float32, m)
			for i := range table {
				table[i] = float32(r.NormFloat64())
			}
			scale := float32(r.NormFloat64())
			for _, rg := range [][2]int{{0, m}, {m / 2, m}} {
				want := make([]float32, n)
				for i, x := range xs {
					want[i] = scale * table[rg[0]+int(x%uint32(rg[1]-rg[0]))]
				}
				devcheck.RequireBitEqual(t, want, lutOn(t, oracle, scale, table, rg[0], rg[1], xs), "CPU backend vs loop")
				devcheck.RequireBitEqual(t, want, lutOn(t, dut, scale, table, rg[0], rg[1], xs), "device vs loop")
			}
		}
	}
}

func spansOn(t *testing.T, d *runtime.Device, tabs [2][]Span, pick uint8, xs []int32) []int32 {
	t.Helper()
	var s Spans
	for i, tab := range tabs {
		s.Inner.T[i] = devcheck.Upload(t, d, tab).View()
	}
	s.Pick = pick
	out := devcheck.Alloc[int32](t, d, len(xs))
	count := devcheck.Alloc[int64](t, d, 1)
	require.NoError(t, InSpans.Bind(s).Run(nil, devcheck.Upload(t, d, xs), out, count))
	return devcheck.Download(t, out)[:devcheck.Download(t, count)[0]]
}

// TestSelectByTable: a selection whose predicate reads a table of structs
// chosen from two views in a nested struct's array.
func TestSelectByTable(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = r.Int32N(10_000)
		}
		var tabs [2][]Span
		for k := range tabs {
			tabs[k] = make([]Span, 1+r.IntN(20))
			for i := range tabs[k] {
				lo := r.Int32N(10_000)
				tabs[k][i] = Span{Lo: lo, Hi: lo + r.Int32N(500)}
			}
		}
		for _, pick := range []uint8{0, 1} {
			want := []int32{}
			for _, x := range xs {
				for _, sp := range tabs[pick] {
					if x >= sp.Lo && x < sp.Hi {
						want = append(want, x)
						break
					}
				}
			}
			devcheck.RequireBitEqual(t, want, spansOn(t, oracle, tabs, pick, xs), "CPU backend vs loop")
			devcheck.RequireBitEqual(t, want, spansOn(t, dut, tabs, pick, xs), "device vs loop")
		}
	}
}

// TestReduceByTable: a reduction whose operator reads its modulus from a
// device table.
func TestReduceByTable(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		m := 2 + r.Uint64N(1<<40)
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = r.Uint64N(m)
		}
		init := r.Uint64N(m)
		want := init
		for _, x := range xs {
			want = (want + x) % m
		}
		for _, d := range []*runtime.Device{oracle, dut} {
			out := devcheck.Alloc[uint64](t, d, 1)
			w := Weights{M: devcheck.Upload(t, d, []uint64{m, 0}).View()}
			require.NoError(t, SumTable.Bind(w).Run(nil, devcheck.Upload(t, d, xs), out, init))
			require.Equal(t, want, devcheck.Download(t, out)[0], "%s, %d elements", d, n)
		}
	}
}

// TestViewErrors: a view of a freed slice and a view of another device's
// slice are errors of the call, before anything runs, naming the field.
func TestViewErrors(t *testing.T) {
	dut, oracle := devices(t)
	xs := devcheck.Upload(t, dut, []uint32{1, 2, 3})
	out := devcheck.Alloc[float32](t, dut, 3)
	tab, err := runtime.FromHost(dut, []float32{1, 2})
	require.NoError(t, err)
	h := LutMap.Bind(Lut{Scale: 1, Table: tab.View()})
	require.NoError(t, h.Run(nil, xs, out))
	require.NoError(t, tab.Free())
	err = h.Run(nil, xs, out)
	require.ErrorIs(t, err, runtime.ErrFreed)
	require.ErrorContains(t, err, "state state.Lut, field Table: slice was freed")
	if dut != oracle {
		err = LutMap.Bind(Lut{Table: devcheck.Upload(t, oracle, []float32{1}).View()}).Run(nil, xs, out)
		require.ErrorContains(t, err, "field Table: the view's slice is on")
	}
}

// TestViewAllocations: a call whose state holds views allocates nothing on
// the Go heap on a GPU (the views' checks included).
func TestViewAllocations(t *testing.T) {
	dut, oracle := devices(t)
	if dut == oracle {
		t.Skip("the CPU backend allocates for its goroutines")
	}
	s, err := dut.NewStream()
	require.NoError(t, err)
	defer s.Close()
	xs := devcheck.Upload(t, dut, make([]uint32, 4096))
	out := devcheck.Alloc[float32](t, dut, 4096)
	h := LutMap.Bind(Lut{Scale: 2, Table: devcheck.Upload(t, dut, []float32{1, 2, 3}).View()})
	var spans Spans
	for i := range spans.Inner.T {
		spans.Inner.T[i] = devcheck.Upload(t, dut, []Span{{1, 2}}).View()
	}
	sel := InSpans.Bind(spans)
	ins, outs, count := devcheck.Upload(t, dut, make([]int32, 4096)), devcheck.Alloc[int32](t, dut, 4096), devcheck.Alloc[int64](t, dut, 1)
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"UnaryTransformWith(Lut.Get)", func() error { return h.Run(s, xs, out) }},
		{"SelectWith(Spans.In)", func() error { return sel.Run(s, ins, outs, count) }},
	} {
		require.NoError(t, c.run(), c.name)
		var failed error
		allocs := testing.AllocsPerRun(50, func() {
			if err := c.run(); err != nil && failed == nil {
				failed = err
			}
		})
		require.NoError(t, failed, c.name)
		require.Zero(t, allocs, "%s allocates on the Go heap per call", c.name)
	}
	require.NoError(t, s.Synchronize())
}

// TestStateHoldingBufferIsDropped is the seed issue's reproducer for an
// operator whose state held a buffer: every round binds a state with a view
// of a fresh 256 MiB table, runs, then drops the handle and the table
// without Free. Weak pointers to the tables are cleared (nothing in gocccl,
// the device's record of its last launch included, holds a state), and on
// a GPU the device memory returns to its baseline.
func TestStateHoldingBufferIsDropped(t *testing.T) {
	dut, _ := devices(t)
	gpu := dut.Info().Backend == runtime.GPU
	elems := 1 << 10
	if gpu {
		elems = 64 << 20 // float32: 256 MiB
	}
	xs := devcheck.Upload(t, dut, []uint32{0, 1, 2, 3})
	out := devcheck.Alloc[float32](t, dut, 4)
	warm := devcheck.Upload(t, dut, []float32{1})
	require.NoError(t, LutMap.Bind(Lut{Scale: 1, Table: warm.View()}).Run(nil, xs, out)) // loads the module
	var free0 int64
	base, _ := dut.LiveAllocations()
	if gpu {
		var err error
		free0, _, err = dut.MemInfo()
		require.NoError(t, err)
	}
	for round := range 8 {
		tab, err := runtime.Alloc[float32](dut, elems)
		require.NoError(t, err, "round %d", round)
		h := LutMap.Bind(Lut{Scale: float32(round), Table: tab.View()})
		require.NoError(t, h.Run(nil, xs, out), "round %d", round)
		_, err = out.ToHost() // waits for the call
		require.NoError(t, err)
		w := weak.Make(tab)
		tab, h = nil, nil
		require.True(t, collected(w), "round %d: the state's table is still referenced after the call", round)
	}
	var live int
	for range 100 {
		goruntime.GC()
		if live, _ = dut.LiveAllocations(); live <= base {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	require.LessOrEqual(t, live, base, "slices still live after collection")
	if gpu {
		free1, _, err := dut.MemInfo()
		require.NoError(t, err)
		t.Logf("free before %d MiB, after %d MiB", free0>>20, free1>>20)
		require.InDelta(t, float64(free0), float64(free1), 64<<20, "device memory did not return to its baseline")
	}
}

// collected reports whether p is cleared after a few collections.
func collected[T any](p weak.Pointer[T]) bool {
	for range 50 {
		goruntime.GC()
		if p.Value() == nil {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// TestViewOutOfRange: At out of range is the panic it is in Go: on the CPU
// backend the call's error. On a GPU the kernel traps and the device's
// context is lost for the rest of the process, so that half runs only with
// GOCCCL_TEST_TRAP=1, in a process of its own.
func TestViewOutOfRange(t *testing.T) {
	oracle, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, oracle.Close()) })
	in := devcheck.Upload(t, oracle, []int32{0, 1, 2})
	err = ProbeMap.Bind(Probe{T: devcheck.Upload(t, oracle, []int32{7, 8}).View()}).Run(nil, in, devcheck.Alloc[int32](t, oracle, 3))
	require.ErrorContains(t, err, "index out of range")
	if os.Getenv("GOCCCL_TEST_TRAP") != "1" {
		return
	}
	dut, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	// Close after the fault releases the context and returns the fault.
	t.Cleanup(func() { require.ErrorIs(t, dut.Close(), runtime.ErrDeviceFaulted) })
	tab := devcheck.Upload(t, dut, []int32{7, 8})
	out := devcheck.Alloc[int32](t, dut, 3)
	require.NoError(t, ProbeMap.Bind(Probe{T: tab.View()}).Run(nil, devcheck.Upload(t, dut, []int32{0, 1, 1}), out))
	require.Equal(t, []int32{7, 8, 8}, devcheck.Download(t, out))
	err = ProbeMap.Bind(Probe{T: tab.View()}).Run(nil, devcheck.Upload(t, dut, []int32{0, 1, 2}), out)
	if err == nil {
		_, err = out.ToHost()
	}
	require.Error(t, err)
	require.True(t, errors.Is(err, runtime.ErrDeviceFaulted), "%v", err)
	require.ErrorContains(t, err, "Probe.At")
}
