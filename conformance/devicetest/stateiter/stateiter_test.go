package stateiter

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes cover empty, within one tile, around tiles and many tiles on sm_90.
var sizes = []int{0, 1, 2, 255, 2048, 2049, 7919, 100_003, 1_000_003}

// devices returns the device under test and its oracle: the GPU and the
// CPU backend when there is a GPU, else the CPU backend twice (the loops
// still check it).
func devices(t *testing.T) (dut, oracle *runtime.Device) {
	t.Helper()
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, cpu.Close()) })
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU, CPU backend only: %v", err)
		return cpu, cpu
	}
	t.Cleanup(func() { require.NoError(t, gpu.Close()) })
	t.Logf("device: %s", gpu)
	return gpu, cpu
}

// poisonF and poisonI fill outputs, so that an element left unwritten shows.
var (
	poisonF = math.Float32frombits(0x7fc0dead)
	poisonI = int32(-0x5eadbeef)
)

// state returns a random state whose table is on d.
func state(t *testing.T, d *runtime.Device, r *rand.Rand, table []float32) Lut {
	return Lut{Alpha: float32(r.NormFloat64()), M: 2 + r.Int32N(1<<20), Table: devcheck.Upload(t, d, table).View()}
}

func randTable(r *rand.Rand) []float32 {
	tab := make([]float32, 1+r.IntN(300))
	for i := range tab {
		tab[i] = float32(r.NormFloat64())
	}
	return tab
}

// picked is the loop of Picked: Low(xs[idx[i]]).
func picked(xs []int32, idx []int64) []int32 {
	out := make([]int32, len(idx))
	for i, j := range idx {
		out[i] = Low(xs[j])
	}
	return out
}

func randInts(r *rand.Rand, n int) ([]int32, []int64) {
	xs, idx := make([]int32, n), make([]int64, n)
	for i := range xs {
		xs[i], idx[i] = r.Int32(), int64(r.IntN(n))
	}
	return xs, idx
}

// TestStatefulReduceOverTransform: a reduction whose operator is a method
// of the state, over a Transform of a Counting iterator with a plain
// operator.
func TestStatefulReduceOverTransform(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	tab := randTable(r)
	for _, n := range sizes {
		start := r.Int32()
		for _, d := range []*runtime.Device{oracle, dut} {
			st := state(t, d, r, tab)
			init := r.Int32N(st.M)
			want := init
			for i := range n {
				want = st.AddMod(want, Low(start+int32(i)))
			}
			out := devcheck.Upload(t, d, []int32{poisonI, poisonI})
			require.NoError(t, SumLows.Bind(st).Run(nil, Lows.Bind(Count.With(start)).Take(n), out, init))
			require.Equal(t, []int32{want, poisonI}, devcheck.Download(t, out), "%s, %d elements", d, n)
		}
	}
}

// TestStatefulSaxpyThroughIterators: a binary transform of the state's
// alpha over a gathered input and a plain one, written through a
// TransformOutput with a plain operator; the device against the CPU
// backend, bit for bit, and both against the loop.
func TestStatefulSaxpyThroughIterators(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	tab := randTable(r)
	for _, n := range sizes {
		xs, ys := make([]float32, n), make([]float32, n)
		idx := make([]int64, n)
		for i := range xs {
			xs[i], ys[i], idx[i] = float32(r.NormFloat64()), float32(r.NormFloat64()), int64(r.IntN(n))
		}
		alpha := float32(r.NormFloat64())
		want := make([]float32, n)
		for i := range want {
			want[i] = Half(Lut{Alpha: alpha}.Axpy(xs[idx[i]], ys[i]))
		}
		var got [2][]float32
		for k, d := range []*runtime.Device{oracle, dut} {
			st := state(t, d, r, tab)
			st.Alpha = alpha
			out := devcheck.Upload(t, d, slices.Repeat([]float32{poisonF}, n+1))
			in := Gathered.Bind(Fs.With(devcheck.Upload(t, d, xs)), Idx.With(devcheck.Upload(t, d, idx)))
			require.NoError(t, Saxpy.Bind(st).Run(nil, in, devcheck.Upload(t, d, ys), HalfOut.Bind(Fs.With(out.Range(0, n)))))
			o := devcheck.Download(t, out)
			require.Equal(t, math.Float32bits(poisonF), math.Float32bits(o[n]), "%s wrote past the output", d)
			got[k] = o[:n]
		}
		devcheck.RequireBitEqual(t, want, got[0], "CPU backend vs loop")
		devcheck.RequireBitEqual(t, got[0], got[1], "device vs CPU backend")
	}
}

// TestStatefulSelectOverComposition: a selection by the state's modulus
// over a transform of a gathered input.
func TestStatefulSelectOverComposition(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	tab := randTable(r)
	for _, n := range sizes {
		xs, idx := randInts(r, n)
		m := 2 + r.Int32N(100)
		seq := picked(xs, idx)
		want := []int32{}
		for _, v := range seq {
			if (Lut{M: m}).Keep(v) {
				want = append(want, v)
			}
		}
		for _, d := range []*runtime.Device{oracle, dut} {
			st := state(t, d, r, tab)
			st.M = m
			out := devcheck.Upload(t, d, slices.Repeat([]int32{poisonI}, n))
			cnt := devcheck.Upload(t, d, []int64{-1})
			in := Picked.Bind(Ints.With(devcheck.Upload(t, d, xs)), Idx.With(devcheck.Upload(t, d, idx)))
			require.NoError(t, KeepSome.Bind(st).Run(nil, in, out, cnt))
			require.Equal(t, int64(len(want)), devcheck.Download(t, cnt)[0], "%s count, %d elements", d, n)
			o := devcheck.Download(t, out)
			devcheck.RequireBitEqual(t, want, o[:len(want)], d.String())
			devcheck.RequireBitEqual(t, slices.Repeat([]int32{poisonI}, n-len(want)), o[len(want):], d.String()+": past the count")
		}
	}
}

// TestStatefulViewWithComposition: a transform whose state holds a View of
// a table, read at the values of a composition.
func TestStatefulViewWithComposition(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		xs, idx := randInts(r, n)
		tab := randTable(r)
		alpha := float32(r.NormFloat64())
		seq := picked(xs, idx)
		want := make([]float32, n)
		for i, v := range seq {
			want[i] = alpha * tab[int(v)%len(tab)]
		}
		var got [2][]float32
		for k, d := range []*runtime.Device{oracle, dut} {
			st := Lut{Alpha: alpha, M: 7, Table: devcheck.Upload(t, d, tab).View()}
			out := devcheck.Upload(t, d, slices.Repeat([]float32{poisonF}, n))
			in := Picked.Bind(Ints.With(devcheck.Upload(t, d, xs)), Idx.With(devcheck.Upload(t, d, idx)))
			require.NoError(t, LookUp.Bind(st).Run(nil, in, out))
			got[k] = devcheck.Download(t, out)
		}
		devcheck.RequireBitEqual(t, want, got[0], "CPU backend vs loop")
		devcheck.RequireBitEqual(t, got[0], got[1], "device vs CPU backend")
	}
}

// TestStatefulScanIntoReverse: an inclusive scan by the state's modulus
// over a transformed counting sequence, written backwards.
func TestStatefulScanIntoReverse(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	tab := randTable(r)
	for _, n := range sizes {
		start := r.Int32()
		for _, d := range []*runtime.Device{oracle, dut} {
			st := state(t, d, r, tab)
			want := make([]int32, n)
			acc := int32(0)
			for i := range n {
				v := Low(start + int32(i))
				if i == 0 {
					acc = v
				} else {
					acc = st.AddMod(acc, v)
				}
				want[n-1-i] = acc
			}
			out := devcheck.Upload(t, d, slices.Repeat([]int32{poisonI}, n))
			require.NoError(t, ScanBack.Bind(st).Run(nil, Lows.Bind(Count.With(start)).Take(n), Back.Bind(Ints.With(out))))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), d.String())
		}
	}
}

// TestStatefulSortCopy: the copy form of a merge sort whose order is the
// state's modulus, reading its keys through a composition: stable, so the
// result is the loop's exactly.
func TestStatefulSortCopy(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	tab := randTable(r)
	for _, n := range sizes {
		xs, idx := randInts(r, n)
		m := 2 + r.Int32N(1000)
		want := picked(xs, idx)
		slices.SortStableFunc(want, func(a, b int32) int { return int(a%m) - int(b%m) })
		for _, d := range []*runtime.Device{oracle, dut} {
			st := state(t, d, r, tab)
			st.M = m
			src := devcheck.Upload(t, d, xs)
			out := devcheck.Upload(t, d, slices.Repeat([]int32{poisonI}, n))
			require.NoError(t, SortBy.Bind(st).RunCopy(nil, Picked.Bind(Ints.With(src), Idx.With(devcheck.Upload(t, d, idx))), out))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), d.String())
			devcheck.RequireBitEqual(t, xs, devcheck.Download(t, src), d.String()+": the input")
		}
	}
}

// TestStatefulIteratorErrors: a composition no instance declared is
// runtime.ErrNotGenerated naming the declaration to add, with the stateful
// constructor; a state whose View's slice was freed is an error of the
// call through a composition too, before anything runs; on the GPU and the
// CPU backend alike.
func TestStatefulIteratorErrors(t *testing.T) {
	dut, oracle := devices(t)
	for _, d := range []*runtime.Device{oracle, dut} {
		tab, err := runtime.FromHost(d, []float32{1, 2})
		require.NoError(t, err)
		st := Lut{Alpha: 1, M: 5, Table: tab.View()}
		xs, idx := devcheck.Upload(t, d, []int32{1, 2, 3}), devcheck.Upload(t, d, []int64{2, 1, 0})
		out := devcheck.Upload(t, d, []int32{0, 0, 0})

		err = SumLows.Bind(st).Run(nil, Picked.Bind(Ints.With(xs), Idx.With(idx)), out, 0)
		require.ErrorIs(t, err, runtime.ErrNotGenerated, d.String())
		msg := err.Error()
		require.Contains(t, msg, "declare the instance with them where it is declared, runtime.ReduceWith(github.com/gocccl/gocccl/conformance/devicetest/stateiter.Lut.AddMod).Over(", d.String())
		require.Contains(t, msg, "iterator.Permutation(", d.String())
		require.Equal(t, 1, strings.Count(msg, "gocccl: "), "prefixed once: %s", msg)

		fs := devcheck.Upload(t, d, []float32{0, 0, 0})
		require.NoError(t, LookUp.Bind(st).Run(nil, Picked.Bind(Ints.With(xs), Idx.With(idx)), fs))
		require.NoError(t, tab.Free())
		err = LookUp.Bind(st).Run(nil, Picked.Bind(Ints.With(xs), Idx.With(idx)), fs)
		require.ErrorIs(t, err, runtime.ErrFreed, d.String())
		require.Contains(t, err.Error(), "field Table", d.String())
		require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), "prefixed once: %s", err)
	}
}
