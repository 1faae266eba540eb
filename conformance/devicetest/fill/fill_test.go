package fill

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the lengths Fill, Generate and TransformIf are checked at:
// around the tiles of 1-, 4- and 16-byte items (8192, 2048, 512), primes,
// and 2^26 only on the GPU.
var sizes = []int{0, 1, 2, 511, 513, 2047, 2048, 2049, 8191, 8193, 7919, 1_000_003, 1 << 26}

// devices are dut and, when it is another, the CPU backend.
func devices(dut, cpu *runtime.Device) []*runtime.Device {
	if dut == cpu {
		return []*runtime.Device{cpu}
	}
	return []*runtime.Device{dut, cpu}
}

// randomBytes fills xs with random bytes (NaN payloads and struct padding
// included: the copies are compared byte for byte).
func randomBytes[T any](r *rand.Rand, xs []T) {
	if len(xs) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*int(unsafe.Sizeof(xs[0])))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// checkFill fills out.Range(1, n+1) of a poisoned buffer with v: the
// elements around it stay poison.
func checkFill[T any](t *testing.T, devs []*runtime.Device, op *runtime.FillOp[T], n int, v T) {
	t.Helper()
	want := devcheck.Poison[T](n + 2)
	for i := 1; i <= n; i++ {
		want[i] = v
	}
	for _, d := range devs {
		out := devcheck.Upload(t, d, devcheck.Poison[T](n+2))
		require.NoError(t, op.Run(nil, out.Range(1, n+1), v))
		require.Equal(t, want, devcheck.Download(t, out), "Fill on %s", d)
	}
}

// checkGenerate generates into out.Range(1, n+1) of a poisoned buffer.
func checkGenerate[T any](t *testing.T, devs []*runtime.Device, op *runtime.GenerateOp[T], f func(int64) T, n int) {
	t.Helper()
	want := devcheck.Poison[T](n + 2)
	for i := 0; i < n; i++ {
		want[i+1] = f(int64(i))
	}
	for _, d := range devs {
		out := devcheck.Upload(t, d, devcheck.Poison[T](n+2))
		require.NoError(t, op.Run(nil, out.Range(1, n+1)))
		require.Equal(t, want, devcheck.Download(t, out), "Generate on %s", d)
	}
}

// checkTransformIf runs op over xs into a buffer holding old: the selected
// elements change, the others stay old.
func checkTransformIf[In, Out any](t *testing.T, devs []*runtime.Device, op *runtime.TransformIfOp[In, Out], f func(In) Out, pred func(In) bool, xs []In, old []Out) {
	t.Helper()
	want := make([]Out, len(old))
	copy(want, old)
	for i, x := range xs {
		if pred(x) {
			want[i] = f(x)
		}
	}
	for _, d := range devs {
		out := devcheck.Upload(t, d, old)
		require.NoError(t, op.Run(nil, devcheck.Upload(t, d, xs), out))
		require.Equal(t, want, devcheck.Download(t, out), "TransformIf on %s", d)
	}
}

func check(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, n int) {
	devs := devices(dut, cpu)
	t.Run("Fill", func(t *testing.T) {
		checkFill(t, devs, FillInt8, n, int8(-5))
		checkFill(t, devs, FillInt16, n, int16(-300))
		checkFill(t, devs, FillInt32, n, int32(r.Uint32()))
		checkFill(t, devs, FillInt64, n, int64(r.Uint64()))
		checkFill(t, devs, FillUint8, n, uint8(7))
		checkFill(t, devs, FillUint16, n, uint16(r.Uint32()))
		checkFill(t, devs, FillUint32, n, r.Uint32())
		checkFill(t, devs, FillUint64, n, r.Uint64())
		checkFill(t, devs, FillFloat32, n, float32(-1.5))
		checkFill(t, devs, FillFloat64, n, r.NormFloat64())
		checkFill(t, devs, FillItem, n, Item{Key: 7, Weight: 2.5, Tag: -3})
		checkFill(t, devs, FillPair, n, Pair{Lo: r.Uint64(), Hi: r.Uint64()})
		// Through a reversing output iterator: every element of the Slice.
		v := int32(r.Uint32())
		for _, d := range devs {
			out := devcheck.Upload(t, d, devcheck.Poison[int32](n))
			require.NoError(t, FillRev.Run(nil, RevI32.Bind(OutI32.With(out)), v))
			for i, x := range devcheck.Download(t, out) {
				if x != v {
					t.Fatalf("Fill through ReverseOutput on %s: element %d is %d, want %d", d, i, x, v)
				}
			}
		}
	})
	t.Run("Generate", func(t *testing.T) {
		checkGenerate(t, devs, GenerateInt8, GenInt8, n)
		checkGenerate(t, devs, GenerateInt16, GenInt16, n)
		checkGenerate(t, devs, GenerateInt32, GenInt32, n)
		checkGenerate(t, devs, GenerateInt64, GenInt64, n)
		checkGenerate(t, devs, GenerateUint8, GenUint8, n)
		checkGenerate(t, devs, GenerateUint32, GenUint32, n)
		checkGenerate(t, devs, GenerateUint64, GenUint64, n)
		checkGenerate(t, devs, GenerateFloat32, GenFloat32, n)
		checkGenerate(t, devs, GenerateFloat64, GenFloat64, n)
		checkGenerate(t, devs, GenerateItem, GenItem, n)
		checkGenerate(t, devs, GeneratePair, GenPair, n)
		f := Affine{A: r.Int64N(1000) - 500, B: r.Int64()}
		checkGenerate(t, devs, GenerateAffine.Bind(f), f.At, n)
		// Through a TransformOutput: out[i] = Half(GenInt32(i)).
		want := make([]float64, n)
		for i := range want {
			want[i] = Half(GenInt32(int64(i)))
		}
		for _, d := range devs {
			out := devcheck.Upload(t, d, devcheck.Poison[float64](n))
			require.NoError(t, GenerateHalved.Run(nil, Halved.Bind(OutF64.With(out))))
			require.Equal(t, want, devcheck.Download(t, out), "Generate through TransformOutput on %s", d)
		}
	})
	t.Run("TransformIf", func(t *testing.T) {
		i32 := make([]int32, n)
		randomBytes(r, i32)
		checkTransformIf(t, devs, TransformIfInt32, SquareInt32, OddInt32, i32, devcheck.Poison[int32](n))
		f64 := make([]float64, n)
		for i := range f64 {
			f64[i] = r.NormFloat64()
		}
		old := make([]float64, n)
		for i := range old {
			old[i] = float64(i)
		}
		checkTransformIf(t, devs, TransformIfFloat64, SqrtishFloat64, PositiveFloat64, f64, old)
		i8 := make([]int8, n)
		randomBytes(r, i8)
		checkTransformIf(t, devs, TransformIfWiden, WidenInt8, NegativeInt8, i8, devcheck.Poison[int64](n))
		items := make([]Item, n)
		for i := range items {
			items[i] = Item{Key: r.Uint32(), Weight: float32(r.IntN(200)), Tag: int16(r.Uint32())}
		}
		checkTransformIf(t, devs, TransformIfItem, ItemKey, HeavyItem, items, devcheck.Poison[uint64](n))
		// In place: the unselected elements keep their values.
		want := make([]int32, n)
		copy(want, i32)
		for i, x := range want {
			if OddInt32(x) {
				want[i] = SquareInt32(x)
			}
		}
		for _, d := range devs {
			xs := devcheck.Upload(t, d, i32)
			require.NoError(t, TransformIfInt32.Run(nil, xs, xs))
			require.Equal(t, want, devcheck.Download(t, xs), "TransformIf in place on %s", d)
		}
		// Into a reversing output: only selected elements are written.
		rev := devcheck.Poison[int32](n)
		for i, x := range i32 {
			if OddInt32(x) {
				rev[n-1-i] = SquareInt32(x)
			}
		}
		for _, d := range devs {
			out := devcheck.Upload(t, d, devcheck.Poison[int32](n))
			require.NoError(t, TransformIfRev.Run(nil, devcheck.Upload(t, d, i32), RevI32.Bind(OutI32.With(out))))
			require.Equal(t, rev, devcheck.Download(t, out), "TransformIf through ReverseOutput on %s", d)
		}
		// Over a Transform of a Counting input.
		mixed := devcheck.Poison[uint64](n)
		for i := range mixed {
			if x := Mix(int64(i)); OddUint64(x) {
				mixed[i] = SquareUint64(x)
			}
		}
		for _, d := range devs {
			out := devcheck.Upload(t, d, devcheck.Poison[uint64](n))
			require.NoError(t, TransformIfMixed.Run(nil, Mixed.Bind(Index.With(0)).Take(n), out))
			require.Equal(t, mixed, devcheck.Download(t, out), "TransformIf over Transform(Counting, Mix) on %s", d)
		}
	})
}

// span is one range of a batched copy, in elements.
type span struct{ src, dst, n int64 }

// layout places ranges of the given sizes: sources side by side in a
// random order after a random gap each, destinations likewise in another
// order; it returns the ranges and the lengths of both buffers.
func layout(r *rand.Rand, sz []int64) (spans []span, srcLen, dstLen int64) {
	spans = make([]span, len(sz))
	for i, k := range r.Perm(len(sz)) {
		srcLen += int64(r.IntN(3))
		spans[k].src, spans[k].n = srcLen, sz[k]
		srcLen += sz[k]
		_ = i
	}
	for _, k := range r.Perm(len(sz)) {
		dstLen += int64(r.IntN(3))
		spans[k].dst = dstLen
		dstLen += sz[k]
	}
	return spans, srcLen + int64(r.IntN(5)), dstLen + int64(r.IntN(5))
}

// oracleCopy copies the ranges one after another.
func oracleCopy[T any](src, dst []T, spans []span) {
	for _, s := range spans {
		copy(dst[s.dst:s.dst+s.n], src[s.src:s.src+s.n])
	}
}

func columns(spans []span) (src, dst, n []int64) {
	for _, s := range spans {
		src, dst, n = append(src, s.src), append(dst, s.dst), append(n, s.n)
	}
	return src, dst, n
}

// checkBatched copies the ranges from random data into a poisoned
// destination on every device and compares the bytes with oracleCopy's.
func checkBatched[T any](t *testing.T, r *rand.Rand, devs []*runtime.Device, op *runtime.BatchedCopyOp[T], spans []span, srcLen, dstLen int64) {
	t.Helper()
	src := make([]T, srcLen)
	randomBytes(r, src)
	want := devcheck.Poison[T](int(dstLen))
	oracleCopy(src, want, spans)
	so, do, sz := columns(spans)
	for _, d := range devs {
		out := devcheck.Upload(t, d, devcheck.Poison[T](int(dstLen)))
		require.NoError(t, op.Run(nil, devcheck.Upload(t, d, src), out, devcheck.Upload(t, d, so), devcheck.Upload(t, d, do), devcheck.Upload(t, d, sz)))
		devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), "BatchedCopy on "+d.String())
	}
}

// sizesIn draws k sizes of at most maxBytes bytes of T (at least 1 element
// when nonEmpty), a tenth of them empty otherwise.
func sizesIn[T any](r *rand.Rand, k int, maxBytes int) []int64 {
	e := int(unsafe.Sizeof(*new(T)))
	out := make([]int64, k)
	for i := range out {
		if r.IntN(10) != 0 {
			out[i] = int64(1 + r.IntN(max(1, maxBytes/e)))
		}
	}
	return out
}

// batchedShapes are the range counts and largest range sizes (bytes).
func batchedShapes(gpu bool) []struct{ ranges, maxBytes int } {
	s := []struct{ ranges, maxBytes int }{{0, 64}, {1, 15}, {1, 100}, {2, 4096}, {33, 40}, {1000, 4096}, {5000, 600}}
	if gpu {
		s = append(s, struct{ ranges, maxBytes int }{1 << 16, 4096}, struct{ ranges, maxBytes int }{300, 1 << 20})
	}
	return s
}

func checkBatchedAll(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device) {
	devs := devices(dut, cpu)
	for _, sh := range batchedShapes(dut != cpu) {
		t.Run("ranges="+strconv.Itoa(sh.ranges)+",bytes<="+strconv.Itoa(sh.maxBytes), func(t *testing.T) {
			run := func(name string, f func(t *testing.T)) { t.Run(name, f) }
			run("uint8", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[uint8](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyUint8, sp, a, b)
			})
			run("uint16", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[uint16](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyUint16, sp, a, b)
			})
			run("int32", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[int32](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyInt32, sp, a, b)
			})
			run("float64", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[float64](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyFloat64, sp, a, b)
			})
			run("Item", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[Item](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyItem, sp, a, b)
			})
			run("Pair", func(t *testing.T) {
				sp, a, b := layout(r, sizesIn[Pair](r, sh.ranges, sh.maxBytes))
				checkBatched(t, r, devs, BatchedCopyPair, sp, a, b)
			})
		})
	}
	t.Run("large", func(t *testing.T) {
		// Ranges of 32 KiB and more (the large kernel's) among small ones.
		sz := sizesIn[uint8](r, 200, 2000)
		for i := 0; i < len(sz); i += 7 {
			sz[i] = int64(32<<10 + r.IntN(1<<20))
		}
		sz[3] = 32 << 10
		sz[4] = 32<<10 - 1
		sp, a, b := layout(r, sz)
		checkBatched(t, r, devs, BatchedCopyUint8, sp, a, b)
		sp, a, b = layout(r, sizesIn[float64](r, 40, 1<<19))
		checkBatched(t, r, devs, BatchedCopyFloat64, sp, a, b)
	})
	t.Run("within", func(t *testing.T) {
		// One Slice: ranges of the first half copied into the third
		// quarter, and a large one into the fourth.
		const half = 1 << 18
		sz := sizesIn[int32](r, 300, 2000)
		var spans []span
		at, to := int64(0), int64(half)
		for _, k := range sz {
			if at+k > half || to+k > half+half/2 {
				break
			}
			spans = append(spans, span{at, to, k})
			at += k + int64(r.IntN(3))
			to += k + int64(r.IntN(5))
		}
		spans = append(spans, span{int64(r.IntN(1000)), half + half/2 + int64(r.IntN(1000)), 40 << 10})
		data := make([]int32, 2*half)
		randomBytes(r, data)
		want := append([]int32(nil), data...)
		oracleCopy(want, want, spans)
		so, do, n := columns(spans)
		for _, d := range devs {
			buf := devcheck.Upload(t, d, data)
			require.NoError(t, BatchedCopyInt32.Run(nil, buf, buf, devcheck.Upload(t, d, so), devcheck.Upload(t, d, do), devcheck.Upload(t, d, n)))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, buf), "BatchedCopy within one Slice on "+d.String())
		}
	})
	t.Run("overfull queue", func(t *testing.T) {
		// Ten large ranges onto the same destination bytes, from the same
		// source bytes: more than the queue holds (the destination fits
		// two side by side), so most go to warps; all write the same.
		var spans []span
		for range 10 {
			spans = append(spans, span{0, 1000, 40 << 10})
		}
		checkBatched(t, r, devs, BatchedCopyUint8, spans, 40<<10, 64<<10+r.Int64N(100))
	})
	t.Run("strided", func(t *testing.T) {
		// Sources at i*1000 (a Transform of a Counting), sizes a Constant:
		// only the destination offsets are a buffer.
		const k = 700
		src := make([]uint8, k*1000)
		randomBytes(r, src)
		var spans []span
		for i, p := range r.Perm(k) {
			spans = append(spans, span{int64(i) * 1000, int64(p) * 1000, 1000})
		}
		want := devcheck.Poison[uint8](k * 1000)
		oracleCopy(src, want, spans)
		_, do, _ := columns(spans)
		for _, d := range devs {
			out := devcheck.Upload(t, d, devcheck.Poison[uint8](k*1000))
			require.NoError(t, BatchedCopyStrided.Run(nil, devcheck.Upload(t, d, src), out, Strided.Bind(Index.With(0)), devcheck.Upload(t, d, do), Size.Bind(Size.With(1000))))
			devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), "BatchedCopy over Strided on "+d.String())
		}
	})
}

// TestGPUMatchesCPU checks the GPU against the CPU backend and the oracles.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if testing.Short() && n > 1<<20 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, gpu, cpu, n) })
	}
	t.Run("BatchedCopy", func(t *testing.T) { checkBatchedAll(t, r, gpu, cpu) })
}

// TestCPUBackend checks the CPU backend against sequential loops; it runs
// everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if n > 1<<20 || testing.Short() && n > 10_000 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, cpu, cpu, n) })
	}
	t.Run("BatchedCopy", func(t *testing.T) { checkBatchedAll(t, r, cpu, cpu) })
}

// TestBadArguments requires misuse to be reported before any launch, naming
// the instance.
func TestBadArguments(t *testing.T) {
	d := devcheck.OpenCPU(t)
	xs := devcheck.Upload(t, d, []int32{1, 2, 3})
	var nilFill *runtime.FillOp[int32]
	require.ErrorContains(t, nilFill.Run(nil, xs, 1), "Fill")
	require.ErrorContains(t, FillInt32.Run(nil, nil, 1), "Fill[int32] output")
	require.ErrorContains(t, FillInt32.Run(nil, xs.Range(2, 5), 1), "out of bounds")
	require.ErrorContains(t, GenerateInt32.Run(nil, nil), "fill.GenInt32) output")
	require.ErrorContains(t, TransformIfInt32.Run(nil, xs, devcheck.Alloc[int32](t, d, 2)), "fill.OddInt32): input has 3 elements, output 2")
	require.ErrorContains(t, TransformIfInt32.Run(nil, nil, xs), "fill.OddInt32) input")

	src := devcheck.Upload(t, d, []uint8{1, 2, 3, 4, 5, 6, 7, 8})
	dst := devcheck.Upload(t, d, devcheck.Poison[uint8](8))
	ints := func(v ...int64) *runtime.Slice[int64] { return devcheck.Upload(t, d, v) }
	bad := func(so, do, n *runtime.Slice[int64], msg string) {
		t.Helper()
		err := BatchedCopyUint8.Run(nil, src, dst, so, do, n)
		require.ErrorContains(t, err, "BatchedCopy[uint8]")
		require.ErrorContains(t, err, msg)
		require.Equal(t, devcheck.Poison[uint8](8), devcheck.Download(t, dst), "nothing copied after %q", msg)
	}
	bad(ints(0, 6), ints(0, 0), ints(2, 3), "range 1: source elements [6, 9) are outside the source's 8")
	bad(ints(0, 0), ints(0, 7), ints(2, 2), "range 1: destination elements [7, 9) are outside the destination's 8")
	bad(ints(0, -1), ints(0, 0), ints(2, 1), "range 1: source elements [-1, 0)")
	bad(ints(0), ints(0), ints(-1), "range 0 has size -1")
	bad(ints(0, 1), ints(0), ints(1, 1), "2 source offsets, 1 destination offsets and 2 sizes")
	require.ErrorContains(t, BatchedCopyUint8.Run(nil, nil, dst, ints(0), ints(0), ints(1)), "BatchedCopy[uint8] source")
	require.ErrorContains(t, BatchedCopyUint8.Run(nil, src, nil, ints(0), ints(0), ints(1)), "BatchedCopy[uint8] destination")
	require.ErrorContains(t, BatchedCopyUint8.Run(nil, src, dst, nil, ints(0), ints(1)), "BatchedCopy[uint8] source offsets")
	// A range of size 0 may sit at a buffer's end.
	require.NoError(t, BatchedCopyUint8.Run(nil, src, dst, ints(8), ints(8), ints(0)))
	_, err := BatchedCopyUint8.TempStorageBytes(d, -1, 8)
	require.ErrorContains(t, err, "BatchedCopy[uint8]")
}
