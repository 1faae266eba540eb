package scan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime"
)

// mode is one way to call a scan.
type mode struct {
	name      string
	inclusive bool
	hasInit   bool
	from      bool // the init value is read from a device buffer
}

var modes = []mode{
	{"Inclusive", true, false, false},
	{"InclusiveInit", true, true, false},
	{"InclusiveInitFrom", true, true, true},
	{"Exclusive", false, true, false},
	{"ExclusiveInitFrom", false, true, true},
}

// instances is one operator's pair of scans with its Go function.
type instances[T any] struct {
	op   func(T, T) T
	incl *runtime.InclusiveScanOp[T]
	excl *runtime.ExclusiveScanOp[T]
}

// suite is one element type: its scans and how to draw and compare values.
type suite[T any] struct {
	name  string
	ops   map[string]instances[T] // by operator name
	gen   func(*rand.Rand) T
	float float64 // unit roundoff for float sums (0: compare exactly)
	toF   func(T) float64
}

// typeCase hides a suite's element type.
type typeCase struct {
	name string
	size int64
	run  func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int)
}

func (s suite[T]) typeCase() typeCase {
	var zero T
	return typeCase{s.name, int64(unsafe.Sizeof(zero)), s.run}
}

func intSuite[T int8 | uint8 | int16 | int32 | uint32 | int64 | uint64](name string, add, mx instances[T]) typeCase {
	return suite[T]{name: name, ops: map[string]instances[T]{"add": add, "max": mx},
		gen: func(r *rand.Rand) T { return T(r.Uint64()) }}.typeCase()
}

func floatSuite[T float32 | float64](name string, eps float64, add, mx instances[T]) typeCase {
	return suite[T]{name: name, ops: map[string]instances[T]{"add": add, "max": mx},
		gen: func(r *rand.Rand) T { return T(r.Float64()*2 - 1) }, float: eps, toF: func(x T) float64 { return float64(x) }}.typeCase()
}

func typeCases() []typeCase {
	return []typeCase{
		intSuite("int8", instances[int8]{AddInt8, InclAddInt8, ExclAddInt8}, instances[int8]{MaxInt8, InclMaxInt8, ExclMaxInt8}),
		intSuite("uint8", instances[uint8]{AddUint8, InclAddUint8, ExclAddUint8}, instances[uint8]{MaxUint8, InclMaxUint8, ExclMaxUint8}),
		intSuite("int16", instances[int16]{AddInt16, InclAddInt16, ExclAddInt16}, instances[int16]{MaxInt16, InclMaxInt16, ExclMaxInt16}),
		intSuite("int32", instances[int32]{AddInt32, InclAddInt32, ExclAddInt32}, instances[int32]{MaxInt32, InclMaxInt32, ExclMaxInt32}),
		intSuite("uint32", instances[uint32]{AddUint32, InclAddUint32, ExclAddUint32}, instances[uint32]{MaxUint32, InclMaxUint32, ExclMaxUint32}),
		intSuite("int64", instances[int64]{AddInt64, InclAddInt64, ExclAddInt64}, instances[int64]{MaxInt64, InclMaxInt64, ExclMaxInt64}),
		intSuite("uint64", instances[uint64]{AddUint64, InclAddUint64, ExclAddUint64}, instances[uint64]{MaxUint64, InclMaxUint64, ExclMaxUint64}),
		floatSuite("float32", 0x1p-24, instances[float32]{AddFloat32, InclAddFloat32, ExclAddFloat32}, instances[float32]{MaxFloat32, InclMaxFloat32, ExclMaxFloat32}),
		floatSuite("float64", 0x1p-53, instances[float64]{AddFloat64, InclAddFloat64, ExclAddFloat64}, instances[float64]{MaxFloat64, InclMaxFloat64, ExclMaxFloat64}),
		suite[Affine]{name: "Affine", ops: map[string]instances[Affine]{"then": {Then, InclThen, ExclThen}},
			gen: func(r *rand.Rand) Affine { return Affine{r.Uint32() | 1, r.Uint32()} }}.typeCase(),
		// Sums of small integers are exact in float64, in any order.
		suite[Stats]{name: "Stats", ops: map[string]instances[Stats]{"merge": {Merge, InclMerge, ExclMerge}},
			gen: func(r *rand.Rand) Stats {
				return Stats{N: int64(r.Uint64() >> 1), Sum: float64(r.IntN(2001) - 1000), Max: int32(r.Uint32())}
			}}.typeCase(),
	}
}

// sizesFor are the element counts a type is checked at: around its tile
// on sm_90 and at one, two and many tiles.
func sizesFor(size int64) []int {
	tile := algo.InclusiveScan.Policy(size, 90).Tile()
	return []int{0, 1, 2, tile - 1, tile, tile + 1, 2*tile + 1, 7919, 1_000_003, 1 << 26}
}

func (s suite[T]) run(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = s.gen(r)
	}
	init := s.gen(r)
	ms := modes
	if n > 1<<22 {
		ms = []mode{modes[0], modes[4]} // large inputs: no init, and the future init
	}
	for opName, inst := range s.ops {
		for _, m := range ms {
			t.Run(opName+"/"+m.name, func(t *testing.T) {
				got := scanOn(t, dut, inst, m, xs, init)
				want := scanOn(t, oracle, inst, m, xs, init)
				loop := sequential(inst.op, xs, init, m)
				if s.float == 0 || opName == "max" {
					requireBitEqual(t, want, got, "device vs CPU backend")
					requireBitEqual(t, loop, want, "CPU backend vs a sequential loop")
					return
				}
				s.requireClose(t, xs, init, m, got, "device")
				s.requireClose(t, xs, init, m, want, "CPU backend")
			})
		}
	}
	if s.float != 0 {
		// Small integers have exact prefix sums in any order: every
		// element must be counted exactly once, in its place.
		t.Run("add/exact", func(t *testing.T) {
			ints := make([]T, n)
			for i := range ints {
				ints[i] = s.fromInt(r.IntN(7) - 3)
			}
			inst := s.ops["add"]
			for _, m := range ms {
				init := s.fromInt(3)
				requireBitEqual(t, sequential(inst.op, ints, init, m), scanOn(t, dut, inst, m, ints, init), m.name)
			}
		})
	}
}

// fromInt converts a small integer to T (a float type).
func (s suite[T]) fromInt(i int) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(i)
	case *float64:
		*p = float64(i)
	}
	return v
}

// requireClose compares a float scan with the exact prefix sums: each
// output within a few units of rounding of the sum of the magnitudes before
// it (any order of additions stays there in practice, while a lost or
// doubled element moves it by about one element's magnitude).
func (s suite[T]) requireClose(t *testing.T, xs []T, init T, m mode, got []T, what string) {
	t.Helper()
	exact, mag := 0.0, 0.0
	if m.hasInit {
		exact, mag = s.toF(init), math.Abs(s.toF(init))
	}
	check := func(i int) {
		if g := s.toF(got[i]); !(math.Abs(g-exact) <= 8*s.float*mag) {
			t.Fatalf("%s: element %d of %d is %g, want %g within %g", what, i, len(xs), g, exact, 8*s.float*mag)
		}
	}
	for i, x := range xs {
		if !m.inclusive {
			check(i)
		}
		exact += s.toF(x)
		mag += math.Abs(s.toF(x))
		if m.inclusive {
			check(i)
		}
	}
}

// sequential is the oracle: a plain loop.
func sequential[T any](op func(T, T) T, xs []T, init T, m mode) []T {
	out := make([]T, len(xs))
	acc, has := init, m.hasInit
	for i, v := range xs {
		if !m.inclusive {
			out[i] = acc
		}
		if has {
			acc = op(acc, v)
		} else {
			acc, has = v, true
		}
		if m.inclusive {
			out[i] = acc
		}
	}
	return out
}

// scanOn runs inst's scan in mode m over xs on d into a poisoned output.
func scanOn[T any](t *testing.T, d *runtime.Device, inst instances[T], m mode, xs []T, init T) []T {
	t.Helper()
	in, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[T](len(xs)))
	require.NoError(t, err)
	defer out.Free()
	initBuf, err := runtime.FromHost(d, []T{init})
	require.NoError(t, err)
	defer initBuf.Free()
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, inst.run(s, m, in, out, initBuf, init))
	require.NoError(t, s.Synchronize())
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

// run enqueues inst's scan in mode m over in into out on s: the init value
// is init, or initBuf[0] when m reads it from device memory.
func (inst instances[T]) run(s *runtime.Stream, m mode, in, out, initBuf *runtime.Slice[T], init T) error {
	switch {
	case m.inclusive && !m.hasInit:
		return inst.incl.Run(s, in, out)
	case m.inclusive && m.from:
		return inst.incl.RunWithInitFrom(s, in, out, initBuf)
	case m.inclusive:
		return inst.incl.RunWithInit(s, in, out, init)
	case m.from:
		return inst.excl.RunWithInitFrom(s, in, out, initBuf)
	default:
		return inst.excl.Run(s, in, out, init)
	}
}

// requireBitEqual compares element by element: numbers byte for byte (so
// float results must be bit-identical), structs field by field (their
// padding bytes are not results).
// It is not devcheck.RequireBitEqual, which compares structs' padding too.
func requireBitEqual[T any](t *testing.T, want, got []T, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	if len(want) == 0 {
		return
	}
	if reflect.TypeFor[T]().Kind() == reflect.Struct {
		for i := range want {
			if any(want[i]) != any(got[i]) {
				t.Fatalf("%s: element %d of %d differs: want %+v, got %+v", what, i, len(want), want[i], got[i])
			}
		}
		return
	}
	size := int(unsafe.Sizeof(want[0]))
	wb := unsafe.Slice((*byte)(unsafe.Pointer(&want[0])), len(want)*size)
	gb := unsafe.Slice((*byte)(unsafe.Pointer(&got[0])), len(got)*size)
	for i := range wb {
		if wb[i] != gb[i] {
			k := i / size
			t.Fatalf("%s: element %d of %d differs: want %v, got %v", what, k, len(want), want[k], got[k])
		}
	}
}

// devices returns the device under test and the oracle: the GPU and the
// CPU backend, or the CPU backend twice when there is no GPU.
func devices(t *testing.T) (dut, oracle *runtime.Device, gpu bool) {
	t.Helper()
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { cpu.Close() })
	g, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU (%v): comparing the CPU backend with itself and with sequential loops", err)
		return cpu, cpu, false
	}
	t.Cleanup(func() { g.Close() })
	t.Logf("device: %s", g)
	return g, cpu, true
}

// TestScanMatchesCPU runs every scan on the GPU and on the CPU backend over
// fresh random inputs and requires the same results, and both to match a
// sequential loop.
func TestScanMatchesCPU(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, tc := range typeCases() {
		for _, n := range sizesFor(tc.size) {
			if n > 1<<20 && (testing.Short() || !gpu) {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", tc.name, n), func(t *testing.T) { tc.run(t, r, dut, oracle, n) })
		}
	}
	if gpu {
		target, reason, ok := dut.LoadedImage("github.com/gocccl/gocccl/conformance/devicetest/scan")
		require.True(t, ok)
		t.Logf("loaded image %s: %s", target, reason)
	}
}

// TestExclusiveMaxWithInit is cuda.compute's known failure (an exclusive
// MAXIMUM scan): the init seeds the scan, whatever the values, on every
// tile of a multi-tile input.
func TestExclusiveMaxWithInit(t *testing.T) {
	dut, _, _ := devices(t)
	n := 5*algo.ExclusiveScan.Policy(4, 90).Tile() + 3
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = -1_000_000 + int32(i%1000) // all below the init but rising
	}
	xs[n/2] = 7 // above it
	for _, init := range []int32{math.MinInt32, -5} {
		got := scanOn(t, dut, instances[int32]{MaxInt32, InclMaxInt32, ExclMaxInt32}, modes[3], xs, init)
		requireBitEqual(t, sequential(MaxInt32, xs, init, modes[3]), got, fmt.Sprint("init ", init))
	}
}

// TestInitFromIsReadWhenTheKernelRuns makes the init buffer the output of
// the previous call on the same stream: a scan that read it when enqueued
// would see the old value.
func TestInitFromIsReadWhenTheKernelRuns(t *testing.T) {
	dut, _, _ := devices(t)
	s, err := dut.NewStream()
	require.NoError(t, err)
	defer s.Close()
	n := 3*algo.ExclusiveScan.Policy(8, 90).Tile() + 1
	ones := make([]int64, n)
	for i := range ones {
		ones[i] = 1
	}
	in, err := runtime.FromHost(dut, ones)
	require.NoError(t, err)
	defer in.Free()
	prefix, err := runtime.FromHost(dut, devcheck.Poison[int64](n))
	require.NoError(t, err)
	defer prefix.Free()
	out, err := runtime.FromHost(dut, devcheck.Poison[int64](n))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, InclAddInt64.Run(s, in, prefix))                                // prefix[n-1] = n
	require.NoError(t, ExclAddInt64.RunWithInitFrom(s, in, out, prefix.Range(n-1, n))) // starts at n
	require.ErrorContains(t, InclAddInt64.RunWithInitFrom(s, in, prefix, prefix.Range(0, 1)), "overlaps the output")
	require.NoError(t, s.Synchronize())
	got, err := out.ToHost()
	require.NoError(t, err)
	for i, v := range got {
		require.Equal(t, int64(n+i), v, "element %d", i)
	}
}

// TestScanInPlace scans a buffer into itself across many tiles.
func TestScanInPlace(t *testing.T) {
	dut, _, _ := devices(t)
	r := devcheck.Rand(t)
	n := 1_000_003
	xs := make([]uint32, n)
	for i := range xs {
		xs[i] = r.Uint32()
	}
	for _, m := range []mode{modes[1], modes[3]} {
		buf, err := runtime.FromHost(dut, xs)
		require.NoError(t, err)
		if m.inclusive {
			require.NoError(t, InclAddUint32.RunWithInit(nil, buf, buf, 11))
		} else {
			require.NoError(t, ExclAddUint32.Run(nil, buf, buf, 11))
		}
		got, err := buf.ToHost()
		require.NoError(t, err)
		require.NoError(t, buf.Free())
		requireBitEqual(t, sequential(AddUint32, xs, 11, m), got, m.name)
	}
}

// TestScanHuge scans 2^31 + k one-byte elements on the GPU: offsets past
// 2^31 must not wrap (2 GiB in, 2 GiB out). It needs -short=false and a GPU
// with about 5 GiB free.
func TestScanHuge(t *testing.T) {
	if testing.Short() {
		t.Skip("2^31-element scans need -short=false")
	}
	dut, _, gpu := devices(t)
	if !gpu {
		t.Skip("2^31-element scans need a GPU")
	}
	const n = 1<<31 + 4099
	r := devcheck.Rand(t)
	xs := make([]uint8, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64() | 0x0101010101010101 // no zeros
		for j := 0; j < 8 && i+j < n; j++ {
			xs[i+j] = uint8(v >> (8 * j))
		}
	}
	in, err := runtime.FromHost(dut, xs)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[uint8](dut, n)
	require.NoError(t, err)
	defer out.Free()
	got := make([]uint8, n)

	t.Run("uint8/InclusiveInit", func(t *testing.T) {
		require.NoError(t, InclAddUint8.RunWithInit(nil, in, out, 5))
		require.NoError(t, out.CopyToHost(got))
		acc := uint8(5)
		for i, v := range xs {
			acc += v
			if got[i] != acc {
				t.Fatalf("element %d: got %d, want %d", i, got[i], acc)
			}
		}
	})
	t.Run("int8/ExclusiveInitFrom", func(t *testing.T) {
		// The same bytes read as int8: a view of the same allocation is
		// not possible across types, so copy them through the host.
		ys := unsafe.Slice((*int8)(unsafe.Pointer(&xs[0])), n)
		in8, err := runtime.FromHost(dut, ys)
		require.NoError(t, err)
		defer in8.Free()
		out8, err := runtime.Alloc[int8](dut, n)
		require.NoError(t, err)
		defer out8.Free()
		init, err := runtime.FromHost(dut, []int8{-3})
		require.NoError(t, err)
		defer init.Free()
		require.NoError(t, ExclAddInt8.RunWithInitFrom(nil, in8, out8, init))
		got8 := unsafe.Slice((*int8)(unsafe.Pointer(&got[0])), n)
		require.NoError(t, out8.CopyToHost(got8))
		acc := int8(-3)
		for i, v := range ys {
			if got8[i] != acc {
				t.Fatalf("element %d: got %d, want %d", i, got8[i], acc)
			}
			acc += v
		}
	})
	t.Run("uint8/MaxInclusive", func(t *testing.T) {
		// A rising max over all 2^31 + k elements: the maximum 255 first
		// appears past 2^31.
		for i := range xs {
			xs[i] = uint8(min(252, i>>23)) + 1 // 1 … 253
		}
		xs[n-7] = 255 // index 2^31 + 4092
		in2, err := runtime.FromHost(dut, xs)
		require.NoError(t, err)
		defer in2.Free()
		require.NoError(t, InclMaxUint8.Run(nil, in2, out))
		require.NoError(t, out.CopyToHost(got))
		acc := uint8(0)
		for i, v := range xs {
			acc = max(acc, v)
			if got[i] != acc {
				t.Fatalf("element %d: got %d, want %d", i, got[i], acc)
			}
		}
	})
}

// TestBenchTSV prints Bench's rows as TSV when GOCCCL_SCAN_BENCH is set and
// a GPU is present, for the table beside bench/cub/scan.cu's.
func TestBenchTSV(t *testing.T) {
	if os.Getenv("GOCCCL_SCAN_BENCH") == "" {
		t.Skip("set GOCCCL_SCAN_BENCH=1 to time the scans")
	}
	dut, _, gpu := devices(t)
	if !gpu {
		t.Skip("timing needs a GPU")
	}
	rows, err := Bench(dut, BenchSizes, 20)
	require.NoError(t, err)
	for _, row := range rows {
		fmt.Println(row.TSV())
	}
}

// TestBenchOnCPU runs Bench's code path on the CPU backend at small sizes,
// so that it is exercised everywhere.
func TestBenchOnCPU(t *testing.T) {
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer cpu.Close()
	rows, err := Bench(cpu, []int{1000, 1 << 15}, 3)
	require.NoError(t, err)
	require.Len(t, rows, 16)
	require.Contains(t, rows[0].TSV(), "gocccl\tInclusiveScan\tuint32\t1000\t")
}

// TestGPUDispatchAllocations reports the Go heap allocations of one
// multi-tile scan after the first call (two launches and stream-ordered
// scratch); the dispatch path is meant to allocate nothing.
func TestGPUDispatchAllocations(t *testing.T) {
	dut, _, gpu := devices(t)
	if !gpu {
		t.Skip("needs a GPU")
	}
	in, err := runtime.Alloc[float32](dut, 1<<20)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[float32](dut, 1<<20)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, InclAddFloat32.Run(nil, in, out))
	incl := testing.AllocsPerRun(100, func() { InclAddFloat32.Run(nil, in, out) })
	excl := testing.AllocsPerRun(100, func() { ExclAddFloat32.Run(nil, in, out, 1) })
	t.Logf("allocations per call: InclusiveScan %.1f, ExclusiveScan %.1f", incl, excl)
}

// notAnOperator has no generated kernels.
func notAnOperator(a, b int32) int32 { return a - b }

// TestNotGenerated requires a clear error, not a crash, for scans
// gocccl-gen never saw, even over no elements, on every backend: the CPU
// backend refuses them as a GPU does.
func TestNotGenerated(t *testing.T) {
	dut, _, _ := devices(t)
	in, err := runtime.FromHost(dut, []int32{1, 2, 3})
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[int32](dut, 3)
	require.NoError(t, err)
	defer out.Free()
	for _, err := range []error{
		runtime.InclusiveScan(notAnOperator).Run(nil, in, out),
		runtime.ExclusiveScan(notAnOperator).Run(nil, in.Range(0, 0), out.Range(0, 0), 0),
		runtime.InclusiveScanByKey(EqInt32, notAnOperator).Run(nil, in, in, out),
	} {
		require.ErrorIs(t, err, runtime.ErrNotGenerated)
		require.Contains(t, err.Error(), "go generate")
	}
}
