package determinism

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocccl/gocccl/runtime"
	"github.com/stretchr/testify/require"
)

// devices returns the device under test (the GPU, or the CPU backend when
// there is none) and the CPU backend.
func devices(t *testing.T) (dut, cpu *runtime.Device, gpu bool) {
	t.Helper()
	c, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	g, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU (%v): comparing the CPU backend with itself", err)
		return c, c, false
	}
	t.Cleanup(func() { g.Close() })
	t.Logf("device: %s", g)
	return g, c, true
}

var sizes = []int{0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 7919, 8191, 8193, 65521, 1_000_003, 4096*4096 + 1, 3*4096*4096 + 4099}

// wide returns n floats of random sign over a wide exponent range, so a
// sum's bits depend on its order.
func wide(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Ldexp(r.Float64()+0.5, r.IntN(100)-50)
		if r.IntN(2) == 0 {
			xs[i] = -xs[i]
		}
	}
	return xs
}

func run[T any](t *testing.T, d *runtime.Device, op *runtime.ReduceOp[T], xs []T, init T) T {
	t.Helper()
	in, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[T](d, 1)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got[0]
}

func runTR(t *testing.T, d *runtime.Device, op *runtime.TransformReduceOp[float32, float64], xs []float32, init float64) float64 {
	t.Helper()
	in, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[float64](d, 1)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got[0]
}

type inputs struct {
	f64 []float64
	f32 []float32
	i32 []int32
	u64 []uint64
	sum float64 // exact enough: the float64 sum of f32 in a float64 Kahan loop
	mag float64 // the sum of |f32[i]|
}

func makeInputs(r *rand.Rand, n int) inputs {
	in := inputs{f64: wide(r, n), f32: make([]float32, n), i32: make([]int32, n), u64: make([]uint64, n)}
	var c float64
	for i, x := range in.f64 {
		in.f32[i], in.i32[i], in.u64[i] = float32(x), int32(r.Uint32()), r.Uint64()
		y := float64(in.f32[i]) - c
		s := in.sum + y
		c = (s - in.sum) - y
		in.sum = s
		in.mag += math.Abs(float64(in.f32[i]))
	}
	return in
}

// TestGPUMatchesCPU: in GPUToGPU mode the GPU's results equal the CPU
// backend's bit for bit, for float sums over a wide exponent range and for
// Mix, which is neither associative nor commutative.
func TestGPUMatchesCPU(t *testing.T) {
	dut, cpu, _ := devices(t)
	r := rand.New(rand.NewPCG(37, 1))
	g := runtime.GPUToGPU
	for _, n := range sizes {
		in := makeInputs(r, n)
		require.Equal(t, run(t, cpu, SumInt32.WithDeterminism(g), in.i32, 3), run(t, dut, SumInt32.WithDeterminism(g), in.i32, 3), "int32 n=%d", n)
		require.Equal(t, run(t, cpu, SumUint64.WithDeterminism(g), in.u64, 3), run(t, dut, SumUint64.WithDeterminism(g), in.u64, 3), "uint64 n=%d", n)
		require.Equal(t, run(t, cpu, MixUint64.WithDeterminism(g), in.u64, 3), run(t, dut, MixUint64.WithDeterminism(g), in.u64, 3), "Mix n=%d", n)
		want32 := run(t, cpu, SumFloat32.WithDeterminism(g), in.f32, 0.5)
		require.Equal(t, math.Float32bits(want32), math.Float32bits(run(t, dut, SumFloat32.WithDeterminism(g), in.f32, 0.5)), "float32 n=%d", n)
		require.Equal(t, math.Float32bits(want32), math.Float32bits(run(t, dut, ExactSumFloat32, in.f32, 0.5)), "ExactSumFloat32 n=%d", n)
		want64 := run(t, cpu, SumFloat64.WithDeterminism(g), in.f64, 0.5)
		require.Equal(t, math.Float64bits(want64), math.Float64bits(run(t, dut, SumFloat64.WithDeterminism(g), in.f64, 0.5)), "float64 n=%d", n)
		wantSq := runTR(t, cpu, SumSquares.WithDeterminism(g), in.f32, 0.25)
		require.Equal(t, math.Float64bits(wantSq), math.Float64bits(runTR(t, dut, SumSquares.WithDeterminism(g), in.f32, 0.25)), "TransformReduce n=%d", n)
	}
}

// TestGPUToGPUNaN: a NaN's payload is the CPU's too. One NaN only: where
// two NaNs meet, gc's register allocation decides which one Go's + returns
// (README, "NaN results"), so the GPU cannot promise that payload.
func TestGPUToGPUNaN(t *testing.T) {
	dut, cpu, _ := devices(t)
	for _, n := range []int{300, 10_000, 1_000_003} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i % 1000)
		}
		xs[n/3] = math.Float64frombits(0x7ff8_0000_0000_0123)
		op := SumFloat64.WithDeterminism(runtime.GPUToGPU)
		require.Equal(t, math.Float64bits(run(t, cpu, op, xs, 0)), math.Float64bits(run(t, dut, op, xs, 0)), "n=%d", n)
	}
}

// TestRunToRunRepeats: the default mode gives the same bits on every run
// on one device.
func TestRunToRunRepeats(t *testing.T) {
	dut, _, _ := devices(t)
	r := rand.New(rand.NewPCG(37, 2))
	for _, n := range sizes {
		in := makeInputs(r, n)
		first32 := run(t, dut, SumFloat32, in.f32, 0.5)
		first64 := run(t, dut, SumFloat64, in.f64, 0.5)
		for range 4 {
			require.Equal(t, math.Float32bits(first32), math.Float32bits(run(t, dut, SumFloat32.WithDeterminism(runtime.RunToRun), in.f32, 0.5)), "float32 n=%d", n)
			require.Equal(t, math.Float64bits(first64), math.Float64bits(run(t, dut, SumFloat64, in.f64, 0.5)), "float64 n=%d", n)
		}
	}
}

// TestNotGuaranteed: within rounding of the exact sum (integers exactly).
func TestNotGuaranteed(t *testing.T) {
	dut, cpu, _ := devices(t)
	r := rand.New(rand.NewPCG(37, 3))
	ng := runtime.NotGuaranteed
	for _, n := range sizes {
		in := makeInputs(r, n)
		require.Equal(t, run(t, cpu, SumInt32, in.i32, 3), run(t, dut, SumInt32.WithDeterminism(ng), in.i32, 3), "int32 n=%d", n)
		got := run(t, dut, SumFloat32.WithDeterminism(ng), in.f32, 0.5)
		require.InDelta(t, in.sum+0.5, float64(got), 1e-5*(in.mag+1), "float32 n=%d", n)
	}
}
