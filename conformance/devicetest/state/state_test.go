package state

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/registry"
	"github.com/gocccl/gocccl/runtime"
)

// sizes cover empty, within one tile, around tiles and many tiles on sm_90.
var sizes = []int{0, 1, 2, 255, 2048, 2049, 7919, 100_003, 1_000_003}

// devices returns the devices under test, each with the oracle it is
// compared against: the GPU against the CPU backend when there is a GPU,
// else the CPU backend against itself (the loops still check it).
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

func saxpyOn(t *testing.T, d *runtime.Device, st *runtime.Stream, p Axpy, x, y []float32) []float32 {
	out := devcheck.Alloc[float32](t, d, len(x))
	require.NoError(t, Saxpy.Bind(p).Run(st, devcheck.Upload(t, d, x), devcheck.Upload(t, d, y), out))
	if st != nil {
		require.NoError(t, st.Synchronize())
	}
	return devcheck.Download(t, out)
}

// TestSaxpy runs the saxpy with several alphas, including two in flight at
// once on two streams.
func TestSaxpy(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		for _, alpha := range []float32{0, 1, -2.5, float32(r.NormFloat64()), float32(math.Inf(1))} {
			p := Axpy{Alpha: alpha}
			want := make([]float32, n)
			for i := range want {
				want[i] = p.Apply(x[i], y[i])
			}
			devcheck.RequireBitEqual(t, want, saxpyOn(t, oracle, nil, p, x, y), "CPU backend vs loop")
			devcheck.RequireBitEqual(t, want, saxpyOn(t, dut, nil, p, x, y), "device vs loop")
		}
		// Two states in flight at once, on two streams.
		s1, err := dut.NewStream()
		require.NoError(t, err)
		defer s1.Close()
		s2, err := dut.NewStream()
		require.NoError(t, err)
		defer s2.Close()
		a, b := Axpy{Alpha: 3}, Axpy{Alpha: -7}
		outA, outB := devcheck.Alloc[float32](t, dut, n), devcheck.Alloc[float32](t, dut, n)
		dx, dy := devcheck.Upload(t, dut, x), devcheck.Upload(t, dut, y)
		require.NoError(t, Saxpy.Bind(a).Run(s1, dx, dy, outA))
		require.NoError(t, Saxpy.Bind(b).Run(s2, dx, dy, outB))
		require.NoError(t, s1.Synchronize())
		require.NoError(t, s2.Synchronize())
		wantA, wantB := make([]float32, n), make([]float32, n)
		for i := range x {
			wantA[i], wantB[i] = a.Apply(x[i], y[i]), b.Apply(x[i], y[i])
		}
		devcheck.RequireBitEqual(t, wantA, devcheck.Download(t, outA), "stream 1")
		devcheck.RequireBitEqual(t, wantB, devcheck.Download(t, outB), "stream 2")
	}
}

// TestUnary runs transforms whose state needs padding (Mix) and whose state
// is a named scalar (Affine).
func TestUnary(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		xs, is := make([]float64, n), make([]int32, n)
		for i := range xs {
			xs[i], is[i] = r.NormFloat64()*1e3, int32(r.Uint32())
		}
		for range 3 {
			m := Mix{Flag: r.IntN(2) == 0, Scale: r.NormFloat64(), Bias: int8(r.Uint32()),
				Taps: [3]int16{int16(r.Uint32()), int16(r.Uint32()), int16(r.Uint32())}, Shift: r.Uint32()}
			a := Affine(r.Uint32())
			wantM, wantA := make([]float64, n), make([]int32, n)
			for i := range xs {
				wantM[i], wantA[i] = m.Map(xs[i]), a.Apply(is[i])
			}
			for _, d := range []*runtime.Device{oracle, dut} {
				outM, outA := devcheck.Alloc[float64](t, d, n), devcheck.Alloc[int32](t, d, n)
				require.NoError(t, MixMap.Bind(m).Run(nil, devcheck.Upload(t, d, xs), outM))
				require.NoError(t, AffineMap.Bind(a).Run(nil, devcheck.Upload(t, d, is), outA))
				devcheck.RequireBitEqual(t, wantM, devcheck.Download(t, outM), d.String()+": Mix.Map")
				devcheck.RequireBitEqual(t, wantA, devcheck.Download(t, outA), d.String()+": Affine.Apply")
			}
		}
	}
}

// TestReduceAndScans runs a reduction and both scans modulo a modulus
// given per call: exact in any order, so every device must match the loop.
func TestReduceAndScans(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		for _, m := range []Mod{{M: 1}, {M: 7}, {M: 1 << 40}, {M: r.Uint64N(1<<62) + 1}} {
			xs := make([]uint64, n)
			for i := range xs {
				xs[i] = r.Uint64N(m.M)
			}
			init := r.Uint64N(m.M)
			total, incl, excl := init, make([]uint64, n), make([]uint64, n)
			acc := uint64(0)
			for i, x := range xs {
				total = m.Add(total, x)
				if i == 0 {
					acc = x
				} else {
					acc = m.Add(acc, x)
				}
				incl[i] = acc
			}
			for i := range excl { // init op x[0] op … op x[i-1]
				if i == 0 {
					excl[i] = init
				} else {
					excl[i] = m.Add(init, incl[i-1])
				}
			}
			for _, d := range []*runtime.Device{oracle, dut} {
				in := devcheck.Upload(t, d, xs)
				out := devcheck.Alloc[uint64](t, d, max(n, 1))
				require.NoError(t, SumMod.Bind(m).Run(nil, in, out, init))
				require.Equal(t, total, devcheck.Download(t, out)[0], "%v: Reduce n=%d M=%d", d, n, m.M)
				if n == 0 {
					continue
				}
				out = devcheck.Alloc[uint64](t, d, n)
				require.NoError(t, ScanMod.Bind(m).Run(nil, in, out))
				devcheck.RequireBitEqual(t, incl, devcheck.Download(t, out), d.String()+": InclusiveScan")
				require.NoError(t, ExclMod.Bind(m).Run(nil, in, out, init))
				devcheck.RequireBitEqual(t, excl, devcheck.Download(t, out), d.String()+": ExclusiveScan")
			}
		}
	}
}

// TestSelect selects the values in a band given per call.
func TestSelect(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(r.NormFloat64())
		}
		for _, b := range []Band{{-1, 1}, {0, 0}, {float32(math.Inf(-1)), float32(math.Inf(1))}, {0.5, 2}} {
			var want []float32
			for _, x := range xs {
				if b.In(x) {
					want = append(want, x)
				}
			}
			for _, d := range []*runtime.Device{oracle, dut} {
				out := devcheck.Alloc[float32](t, d, n)
				count := devcheck.Alloc[int64](t, d, 1)
				require.NoError(t, InBand.Bind(b).Run(nil, devcheck.Upload(t, d, xs), out, count))
				k := devcheck.Download(t, count)[0]
				require.Equal(t, int64(len(want)), k, "%v: Select count n=%d band %v", d, n, b)
				got := devcheck.Download(t, out)[:k]
				if want == nil {
					want = []float32{}
				}
				devcheck.RequireBitEqual(t, want, got, d.String()+": Select")
			}
		}
	}
}

// TestMergeSort sorts by an order given per call: ascending and descending
// by the bits above a shift, stably.
func TestMergeSort(t *testing.T) {
	dut, oracle := devices(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		for _, o := range []Order{{Shift: 0}, {Shift: 28, Desc: true}, {Shift: 24}, {Shift: 31, Desc: true}} {
			want := slices.Clone(keys)
			slices.SortStableFunc(want, func(a, b uint32) int {
				switch {
				case o.Less(a, b):
					return -1
				case o.Less(b, a):
					return 1
				}
				return 0
			})
			for _, d := range []*runtime.Device{oracle, dut} {
				k := devcheck.Upload(t, d, keys)
				require.NoError(t, SortBy.Bind(o).Run(nil, k))
				devcheck.RequireBitEqual(t, want, devcheck.Download(t, k), d.String()+": MergeSortKeys")
			}
		}
	}
}

// TestRegistrations checks that every instance's generated registration
// fits this runtime: the state layouts recorded at generation time equal
// reflect's (the GPU would read a misplaced field otherwise).
func TestRegistrations(t *testing.T) {
	f32, f64, i32, u64, u32 := reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[int32](), reflect.TypeFor[uint64](), reflect.TypeFor[uint32]()
	for _, k := range []registry.Key{
		registry.NewKey(algo.BinaryTransform, []any{Axpy.Apply}, f32, f32, f32),
		registry.NewKey(algo.UnaryTransform, []any{Mix.Map}, f64, f64),
		registry.NewKey(algo.UnaryTransform, []any{Affine.Apply}, i32, i32),
		registry.NewKey(algo.Reduce, []any{Mod.Add}, u64),
		registry.NewKey(algo.InclusiveScan, []any{Mod.Add}, u64),
		registry.NewKey(algo.ExclusiveScan, []any{Mod.Add}, u64),
		registry.NewKey(algo.Select, []any{Band.In}, f32),
		registry.NewKey(algo.MergeSortKeys, []any{Order.Less}, u32),
	} {
		reg, err := registry.Lookup(k)
		require.NoError(t, err, k.String())
		require.NotNil(t, reg.State, k.String())
	}
}
