package devicetest

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the element counts every algorithm is checked at.
var sizes = []int{0, 1, 255, 256, 257, 1_000_003, 1 << 26}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr |
		~float32 | ~float64
}

// suite is one element type's instances with their Go operators.
type suite[T number] struct {
	name        string
	sum, max    *runtime.ReduceOp[T]
	affine      *runtime.UnaryTransformOp[T, T]
	mix         *runtime.BinaryTransformOp[T, T, T]
	addOp       func(T, T) T
	maxOp       func(T, T) T
	affineOp    func(T) T
	mixOp       func(T, T) T
	gen         func(*rand.Rand) T
	float       bool
	epsilon     float64 // unit roundoff of a float type
	maxElements int     // 0: all sizes
}

// typeCase hides a suite's element type so all suites fit in one table.
type typeCase struct {
	name string
	run  func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int)
}

func intSuite[T number](name string, sum, mx *runtime.ReduceOp[T], aff *runtime.UnaryTransformOp[T, T], mix *runtime.BinaryTransformOp[T, T, T], add, maxOp func(T, T) T, affine func(T) T, mixOp func(T, T) T) typeCase {
	s := suite[T]{name: name, sum: sum, max: mx, affine: aff, mix: mix, addOp: add, maxOp: maxOp, affineOp: affine, mixOp: mixOp,
		gen: func(r *rand.Rand) T { return T(r.Uint64()) }}
	return typeCase{name, s.run}
}

func floatSuite[T ~float32 | ~float64](name string, eps float64, sum, mx *runtime.ReduceOp[T], aff *runtime.UnaryTransformOp[T, T], mix *runtime.BinaryTransformOp[T, T, T], add, maxOp func(T, T) T, affine func(T) T, mixOp func(T, T) T) typeCase {
	s := suite[T]{name: name, sum: sum, max: mx, affine: aff, mix: mix, addOp: add, maxOp: maxOp, affineOp: affine, mixOp: mixOp,
		gen: func(r *rand.Rand) T { return T(r.Float64()*2 - 1) }, float: true, epsilon: eps}
	return typeCase{name, s.run}
}

func typeCases() []typeCase {
	return []typeCase{
		intSuite("int8", SumInt8, MaxOfInt8, AffineTInt8, MixTInt8, AddInt8, MaxInt8, AffineInt8, MixInt8),
		intSuite("int16", SumInt16, MaxOfInt16, AffineTInt16, MixTInt16, AddInt16, MaxInt16, AffineInt16, MixInt16),
		intSuite("int32", SumInt32, MaxOfInt32, AffineTInt32, MixTInt32, AddInt32, MaxInt32, AffineInt32, MixInt32),
		intSuite("int64", SumInt64, MaxOfInt64, AffineTInt64, MixTInt64, AddInt64, MaxInt64, AffineInt64, MixInt64),
		intSuite("int", SumInt, MaxOfInt, AffineTInt, MixTInt, AddInt, MaxInt, AffineInt, MixInt),
		intSuite("uint8", SumUint8, MaxOfUint8, AffineTUint8, MixTUint8, AddUint8, MaxUint8, AffineUint8, MixUint8),
		intSuite("uint16", SumUint16, MaxOfUint16, AffineTUint16, MixTUint16, AddUint16, MaxUint16, AffineUint16, MixUint16),
		intSuite("uint32", SumUint32, MaxOfUint32, AffineTUint32, MixTUint32, AddUint32, MaxUint32, AffineUint32, MixUint32),
		intSuite("uint64", SumUint64, MaxOfUint64, AffineTUint64, MixTUint64, AddUint64, MaxUint64, AffineUint64, MixUint64),
		intSuite("uint", SumUint, MaxOfUint, AffineTUint, MixTUint, AddUint, MaxUint, AffineUint, MixUint),
		intSuite("uintptr", SumUintptr, MaxOfUintptr, AffineTUintptr, MixTUintptr, AddUintptr, MaxUintptr, AffineUintptr, MixUintptr),
		floatSuite("float32", 0x1p-24, SumFloat32, MaxOfFloat32, AffineTFloat32, MixTFloat32, AddFloat32, MaxFloat32, AffineFloat32, MixFloat32),
		floatSuite("float64", 0x1p-53, SumFloat64, MaxOfFloat64, AffineTFloat64, MixTFloat64, AddFloat64, MaxFloat64, AffineFloat64, MixFloat64),
	}
}

func (s suite[T]) run(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) {
	a, b := make([]T, n), make([]T, n)
	for i := range a {
		a[i], b[i] = s.gen(r), s.gen(r)
	}
	init := s.gen(r)

	t.Run("Reduce/sum", func(t *testing.T) {
		got := reduceOn(t, dut, s.sum, a, init)
		want := reduceOn(t, oracle, s.sum, a, init)
		if !s.float {
			require.Equal(t, want, got)
			require.Equal(t, sequential(s.addOp, a, init), got, "disagrees with a sequential loop")
			return
		}
		// Floating-point sums depend on the order of additions. Every
		// ordering of n additions stays within a few units of rounding of
		// sum|x| in practice (the bound is reached only by adversarial
		// inputs), while a lost or doubled element moves the result by
		// about mean|x| = sum|x|/n × 1, far more for any n we test.
		exact, mag := float64(init), math.Abs(float64(init))
		for _, v := range a {
			exact += float64(v)
			mag += math.Abs(float64(v))
		}
		tol := 2 * s.epsilon * mag
		require.InDelta(t, exact, float64(got), tol, "device result")
		require.InDelta(t, exact, float64(want), tol, "oracle result")
	})
	if s.float {
		t.Run("Reduce/sum-exact", func(t *testing.T) {
			// Small integers have exact sums in any order: every element
			// must be counted exactly once.
			ints := make([]T, n)
			var exact T
			for i := range ints {
				ints[i] = T(int(s.gen(r) * 4)) // -3 … 3, mean 0: partial sums stay far below 2^24
				exact += ints[i]
			}
			require.Equal(t, exact+3, reduceOn(t, dut, s.sum, ints, 3))
			require.Equal(t, exact+3, reduceOn(t, oracle, s.sum, ints, 3))
		})
	}
	t.Run("Reduce/max", func(t *testing.T) {
		got := reduceOn(t, dut, s.max, a, init)
		want := reduceOn(t, oracle, s.max, a, init)
		require.Equal(t, want, got)
		require.Equal(t, sequential(s.maxOp, a, init), want, "disagrees with a sequential loop")
	})
	t.Run("UnaryTransform", func(t *testing.T) {
		got := unaryOn(t, dut, s.affine, a)
		want := unaryOn(t, oracle, s.affine, a)
		requireBitEqual(t, want, got)
		loop := make([]T, n)
		for i, x := range a {
			loop[i] = s.affineOp(x)
		}
		requireBitEqual(t, loop, want)
	})
	t.Run("BinaryTransform", func(t *testing.T) {
		got := binaryOn(t, dut, s.mix, a, b)
		want := binaryOn(t, oracle, s.mix, a, b)
		requireBitEqual(t, want, got)
		loop := make([]T, n)
		for i := range a {
			loop[i] = s.mixOp(a[i], b[i])
		}
		requireBitEqual(t, loop, want)
	})
}

func sequential[T any](op func(T, T) T, in []T, init T) T {
	acc := init
	for _, v := range in {
		acc = op(acc, v)
	}
	return acc
}

func reduceOn[T any](t *testing.T, d *runtime.Device, op *runtime.ReduceOp[T], in []T, init T) T {
	t.Helper()
	src, err := runtime.FromHost(d, in)
	require.NoError(t, err)
	defer src.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[T](1))
	require.NoError(t, err)
	defer out.Free()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, op.Run(s, src, out, init))
	require.NoError(t, s.Synchronize())
	res, err := out.ToHost()
	require.NoError(t, err)
	return res[0]
}

func unaryOn[In, Out any](t *testing.T, d *runtime.Device, op *runtime.UnaryTransformOp[In, Out], in []In) []Out {
	t.Helper()
	src, err := runtime.FromHost(d, in)
	require.NoError(t, err)
	defer src.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[Out](len(in)))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, src, out))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

func binaryOn[A, B, Out any](t *testing.T, d *runtime.Device, op *runtime.BinaryTransformOp[A, B, Out], a []A, b []B) []Out {
	t.Helper()
	x, err := runtime.FromHost(d, a)
	require.NoError(t, err)
	defer x.Free()
	y, err := runtime.FromHost(d, b)
	require.NoError(t, err)
	defer y.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[Out](len(a)))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, x, y, out))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

// requireBitEqual compares element by element, reporting the first
// difference, byte for byte (so float results must be bit-identical).
func requireBitEqual[T any](t *testing.T, want, got []T) {
	t.Helper()
	require.Len(t, got, len(want))
	if len(want) == 0 {
		return
	}
	size := int(unsafe.Sizeof(want[0]))
	wb := unsafe.Slice((*byte)(unsafe.Pointer(&want[0])), len(want)*size)
	gb := unsafe.Slice((*byte)(unsafe.Pointer(&got[0])), len(got)*size)
	for i := range wb {
		if wb[i] != gb[i] {
			k := i / size
			t.Fatalf("element %d of %d differs: want %v, got %v", k, len(want), want[k], got[k])
		}
	}
}

// TestGPUMatchesCPU runs every instance on the GPU and on the CPU backend over
// fresh random inputs and requires the same results.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, tc := range typeCases() {
		for _, n := range sizes {
			if testing.Short() && n > 1<<20 {
				continue
			}
			t.Run(tc.name+"/n="+devcheck.SizeName(n), func(t *testing.T) { tc.run(t, r, gpu, cpu, n) })
		}
	}
	target, reason, ok := gpu.LoadedImage("github.com/gocccl/gocccl/conformance/devicetest")
	require.True(t, ok)
	t.Logf("loaded image %s: %s", target, reason)
}

// TestCPUBackend checks the CPU backend, the oracle of the GPU tests, against
// sequential loops; it runs everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, tc := range typeCases() {
		for _, n := range sizes {
			if n > 1<<20 {
				continue
			}
			t.Run(tc.name+"/n="+devcheck.SizeName(n), func(t *testing.T) { tc.run(t, r, cpu, cpu, n) })
		}
	}
}

// TestMixedTypes covers transforms whose input and output types differ.
func TestMixedTypes(t *testing.T) {
	devs := []*runtime.Device{devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	} else {
		t.Logf("no CUDA GPU, CPU backend only: %v", err)
	}
	r := devcheck.Rand(t)
	for _, n := range []int{1, 257, 1_000_003} {
		xs := make([]int32, n)
		us := make([]uint8, n)
		fs := make([]float32, n)
		for i := range xs {
			xs[i], us[i], fs[i] = int32(r.Uint32()), uint8(r.Uint32()), float32(r.NormFloat64())
		}
		wantS := make([]int64, n)
		for i := range xs {
			wantS[i] = Shifty(int64(xs[i])<<32 | int64(us[i]))
		}
		wantW := make([]float64, n)
		wantB := make([]float32, n)
		for i := range xs {
			wantW[i] = Widen(xs[i])
			wantB[i] = Blend(us[i], fs[i])
		}
		shiftIn := make([]int64, n)
		for i := range xs {
			shiftIn[i] = int64(xs[i])<<32 | int64(us[i])
		}
		for _, d := range devs {
			requireBitEqual(t, wantS, unaryOn(t, d, ShiftyT, shiftIn))
			requireBitEqual(t, wantW, unaryOn(t, d, WidenT, xs))
			requireBitEqual(t, wantB, binaryOn(t, d, BlendT, us, fs))
		}
	}
}

// notAnOperator has no generated kernels.
func notAnOperator(a, b int32) int32 { return a - b }

// TestNotGenerated requires a clear error, not a crash, for an instance
// gocccl-gen never saw.
func TestNotGenerated(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	op := runtime.Reduce(notAnOperator)
	in, err := runtime.FromHost(gpu, []int32{1, 2, 3})
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[int32](gpu, 1)
	require.NoError(t, err)
	defer out.Free()
	err = op.Run(nil, in, out, 0)
	require.ErrorIs(t, err, runtime.ErrNotGenerated)
	require.Contains(t, err.Error(), "notAnOperator")
	require.Contains(t, err.Error(), "go generate")
}

// TestFreedSlice requires use after Free to be an error on every device.
func TestFreedSlice(t *testing.T) {
	devs := []*runtime.Device{devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	}
	for _, d := range devs {
		in, err := runtime.FromHost(d, []float32{1, 2, 3})
		require.NoError(t, err)
		out, err := runtime.Alloc[float32](d, 1)
		require.NoError(t, err)
		require.NoError(t, in.Free())
		require.ErrorIs(t, in.Free(), runtime.ErrFreed)
		require.ErrorIs(t, SumFloat32.Run(nil, in, out, 0), runtime.ErrFreed)
		_, err = in.ToHost()
		require.ErrorIs(t, err, runtime.ErrFreed)
		require.NoError(t, out.Free())
	}
}

// TestGPUDispatchAllocations measures the Go heap allocations of one Reduce
// (two launches and stream-ordered scratch) and of one transform after the
// first call: the dispatch path is meant to allocate nothing.
func TestGPUDispatchAllocations(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	r := devcheck.Rand(t)
	xs := make([]float32, 1<<20)
	for i := range xs {
		xs[i] = float32(r.NormFloat64())
	}
	in, err := runtime.FromHost(gpu, xs)
	require.NoError(t, err)
	defer in.Free()
	sum, err := runtime.Alloc[float32](gpu, 1)
	require.NoError(t, err)
	defer sum.Free()
	out, err := runtime.Alloc[float32](gpu, 1<<20)
	require.NoError(t, err)
	defer out.Free()
	s, err := gpu.NewStream()
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, SumFloat32.Run(s, in, sum, 0))
	require.NoError(t, AffineTFloat32.Run(s, in, out))
	var errs []error
	reduce := testing.AllocsPerRun(100, func() {
		if err := SumFloat32.Run(s, in, sum, 1); err != nil && len(errs) == 0 {
			errs = append(errs, err)
		}
	})
	transform := testing.AllocsPerRun(100, func() {
		if err := AffineTFloat32.Run(s, in, out); err != nil && len(errs) == 0 {
			errs = append(errs, err)
		}
	})
	require.Empty(t, errs, "a call failed, so its allocations were not measured")
	require.NoError(t, s.Synchronize())
	t.Logf("allocations per call: Reduce %.1f, UnaryTransform %.1f", reduce, transform)
	require.Zero(t, reduce, "Reduce allocates on the dispatch path")
	require.Zero(t, transform, "UnaryTransform allocates on the dispatch path")
}

// TestGPUCloseDuringRuns closes a GPU device while goroutines launch on it,
// each on its own stream: every call completes or reports ErrDeviceClosed,
// and Close frees the slices and streams left open.
func TestGPUCloseDuringRuns(t *testing.T) {
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	r := devcheck.Rand(t)
	xs := make([]float32, 1<<20)
	for i := range xs {
		xs[i] = float32(r.NormFloat64())
	}
	in, err := runtime.FromHost(gpu, xs)
	require.NoError(t, err)
	errs := make(chan error, 8*100)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := gpu.NewStream()
			if err != nil {
				errs <- err
				return
			}
			out, err := runtime.Alloc[float32](gpu, 1)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 100; i++ {
				errs <- SumFloat32.Run(s, in, out, 0)
			}
		}()
	}
	time.Sleep(time.Millisecond)
	require.NoError(t, gpu.Close())
	wg.Wait()
	close(errs)
	ran := 0
	for err := range errs {
		if err == nil {
			ran++
			continue
		}
		require.ErrorIs(t, err, runtime.ErrDeviceClosed)
	}
	t.Logf("%d calls ran before Close", ran)
	_, err = in.ToHost()
	require.ErrorIs(t, err, runtime.ErrDeviceClosed)
}
