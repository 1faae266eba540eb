package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func detAddI32(a, b int32) int32   { return a + b }
func detAddU64(a, b uint64) uint64 { return a + b }
func detAddF32(a, b float32) float32 {
	return a + b
}
func detAddF64(a, b float64) float64 { return a + b }
func detExpr(a, b string) string     { return "(" + a + "," + b + ")" }

// detRef is GPUToGPU's tree written out level by level as reduce.cuh
// describes it, independently of detTileValue: lanes filled item by item
// in input order, the halving tree as a sequence of new slices.
func detRef[T any](op func(T, T) T, xs []T, init T) T {
	if len(xs) == 0 {
		return init
	}
	tile := func(xs []T) T {
		lanes := make([]T, 0, 256)
		for i, x := range xs {
			if i < 256 {
				lanes = append(lanes, x)
			} else {
				lanes[i%256] = op(lanes[i%256], x)
			}
		}
		for s := 128; s >= 1; s /= 2 {
			next := append([]T(nil), lanes[:min(len(lanes), s)]...)
			for l := range next {
				if l+s < len(lanes) {
					next[l] = op(lanes[l], lanes[l+s])
				}
			}
			lanes = next
		}
		return lanes[0]
	}
	level := xs
	for len(level) > 1 {
		var next []T
		for lo := 0; lo < len(level); lo += 4096 {
			next = append(next, tile(level[lo:min(len(level), lo+4096)]))
		}
		level = next
	}
	return op(init, level[0])
}

func TestGPUToGPUTreeShape(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, "i"},
		{1, "(i,x0)"},
		{2, "(i,(x0,x1))"},
		{3, "(i,((x0,x2),x1))"},
		{4, "(i,((x0,x2),(x1,x3)))"},
		{5, "(i,(((x0,x4),x2),(x1,x3)))"},
	} {
		xs := make([]string, c.n)
		for i := range xs {
			xs[i] = fmt.Sprintf("x%d", i)
		}
		got, err := reduceDetCPU(identity[string], detExpr, xs, "i", 4)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "n=%d", c.n)
		require.Equal(t, c.want, detRef(detExpr, xs, "i"), "reference, n=%d", c.n)
	}
	// Item 256 joins lane 0 before the tree; two tiles are combined as a
	// level of two values.
	xs := make([]string, 4097)
	for i := range xs {
		xs[i] = fmt.Sprint(i)
	}
	for _, n := range []int{257, 300, 4096, 4097} {
		got, err := reduceDetCPU(identity[string], detExpr, xs[:n], "i", 3)
		require.NoError(t, err)
		require.Equal(t, detRef(detExpr, xs[:n], "i"), got, "n=%d", n)
	}
}

// wideFloats returns n floats of random sign over a wide exponent range,
// so that a sum's bits depend on its order.
func wideFloats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Ldexp(r.Float64()+0.5, r.IntN(80)-40)
		if r.IntN(2) == 0 {
			xs[i] = -xs[i]
		}
	}
	return xs
}

var detSizes = []int{0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 8191, 8193, 7919, 65521, 4096*4096 + 1, 1_000_003}

func detRunCPU[T any](t *testing.T, d *Device, op *ReduceOp[T], xs []T, init T) T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := Alloc[T](d, 1)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, out, init))
	got, err := out.ToHost()
	require.NoError(t, err)
	return got[0]
}

// detCheck runs op over xs in the three modes on d with several worker
// counts: GPUToGPU equals the reference tree bit for bit and is the same
// for every worker count; RunToRun is the default handle's; NotGuaranteed
// is within tol of the reference (tol < 0: equal).
func detCheck[T comparable](t *testing.T, d *Device, op func(T, T) T, xs []T, init T, near func(a, b T) bool) {
	t.Helper()
	n := len(xs)
	ref := detRef(op, xs, init)
	base := Reduce(op)
	g2g := base.WithDeterminism(GPUToGPU)
	require.Equal(t, GPUToGPU, g2g.Determinism())
	require.Equal(t, RunToRun, base.Determinism())
	workers := d.info.Workers
	defer func() { d.info.Workers = workers }()
	for _, w := range []int{1, 2, 3, 7, 16} {
		d.info.Workers = w
		got := detRunCPU(t, d, g2g, xs, init)
		require.Equal(t, ref, got, "GPUToGPU, n=%d, workers=%d", n, w)
		require.Equal(t, detRunCPU(t, d, base, xs, init), detRunCPU(t, d, base.WithDeterminism(RunToRun), xs, init), "RunToRun, n=%d", n)
		require.True(t, near(ref, detRunCPU(t, d, base.WithDeterminism(NotGuaranteed), xs, init)), "NotGuaranteed, n=%d", n)
		if n > 100_000 {
			break // one worker count is enough for the slow sizes beyond the first
		}
	}
}

func TestReduceDeterminismCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(7, 37))
	for _, n := range detSizes {
		wide := wideFloats(r, n)
		f32 := make([]float32, n)
		i32 := make([]int32, n)
		u64 := make([]uint64, n)
		mag := 0.0
		for i, x := range wide {
			f32[i], i32[i], u64[i] = float32(x), int32(r.Uint32()), r.Uint64()
			mag += math.Abs(x)
		}
		eq32 := func(a, b int32) bool { return a == b }
		eqU := func(a, b uint64) bool { return a == b }
		detCheck(t, d, detAddI32, i32, 5, eq32)
		detCheck(t, d, detAddU64, u64, 5, eqU)
		detCheck(t, d, detAddF32, f32, 0.5, func(a, b float32) bool { return math.Abs(float64(a)-float64(b)) <= 1e-5*(mag+1) })
		detCheck(t, d, detAddF64, wide, 0.5, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(mag+1) })
	}
}

// TestReduceGPUToGPUBitsDiffer guards the test above: on these inputs the
// GPUToGPU tree and a serial sum round differently, so equal bits mean
// the same tree, not a lucky sum.
func TestReduceGPUToGPUBitsDiffer(t *testing.T) {
	xs := wideFloats(rand.New(rand.NewPCG(7, 38)), 1_000_003)
	f32 := make([]float32, len(xs))
	serial := float32(0)
	for i, x := range xs {
		f32[i] = float32(x)
		serial += f32[i]
	}
	got, err := reduceDetCPU(identity[float32], detAddF32, f32, 0, 4)
	require.NoError(t, err)
	require.NotEqual(t, math.Float32bits(serial), math.Float32bits(got))
}

func TestReduceGPUToGPUNaN(t *testing.T) {
	d := cpuDevice(t)
	xs := make([]float64, 10_000)
	for i := range xs {
		xs[i] = float64(i)
	}
	xs[5000] = math.Float64frombits(0x7ff8_0000_0000_0123)
	got := detRunCPU(t, d, Reduce(detAddF64).WithDeterminism(GPUToGPU), xs, 0)
	require.Equal(t, math.Float64bits(detRef(detAddF64, xs, 0)), math.Float64bits(got))
}

func TestTransformReduceDeterminismCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(7, 39))
	for _, n := range detSizes {
		wide := wideFloats(r, n)
		f32 := make([]float32, n)
		sq := make([]float64, n)
		for i, x := range wide {
			f32[i] = float32(x)
			sq[i] = trSquare(f32[i])
		}
		ref := detRef(detAddF64, sq, 0.25)
		op := TransformReduce(trSquare, detAddF64).WithDeterminism(GPUToGPU)
		for _, w := range []int{1, 3, 8} {
			d.info.Workers = w
			require.Equal(t, math.Float64bits(ref), math.Float64bits(trRun(t, d, op, f32, 0.25)), "n=%d workers=%d", n, w)
		}
	}
}

func TestDeterminismInvalid(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []int32{1, 2})
	require.NoError(t, err)
	defer in.Free()
	out, err := Alloc[int32](d, 1)
	require.NoError(t, err)
	defer out.Free()
	require.ErrorContains(t, Reduce(detAddI32).WithDeterminism(Determinism(9)).Run(nil, in, out, 0), "unknown determinism")
	require.Equal(t, "GPUToGPU", GPUToGPU.String())
}
