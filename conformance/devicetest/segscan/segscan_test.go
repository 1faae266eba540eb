package segscan

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths every scan is checked at; 2^26 only on the
// GPU.
var sizes = []int{0, 1, 2, 1023, 1024, 1025, 4095, 4096, 4097, 7919, 1_000_003, 1 << 26}

// fixedSizes are RunFixed's segment sizes: one item, odd, a tile (1024
// 4-byte items on sm_90) and one past it, several tiles.
var fixedSizes = []int{1, 7, 1024, 1025, 5000}

// number is every numeric element type under test.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// ops are one element type's instances and the operator they run.
type ops[T any] struct {
	inc *runtime.SegmentedInclusiveScanOp[T]
	exc *runtime.SegmentedExclusiveScanOp[T]
	op  func(T, T) T
}

// oracle scans every segment of xs into a copy of out, sequentially:
// inclusive (with init when has) or exclusive from init. Items outside
// every segment keep out's values.
func oracle[T any](op func(T, T) T, inclusive bool, xs, out []T, begin, end []int64, init T, has bool) []T {
	want := append([]T(nil), out...)
	for s := range begin {
		acc, started := init, has || !inclusive
		for i := begin[s]; i < end[s]; i++ {
			if inclusive {
				if started {
					acc = op(acc, xs[i])
				} else {
					acc, started = xs[i], true
				}
				want[i] = acc
			} else {
				want[i] = acc
				acc = op(acc, xs[i])
			}
		}
	}
	return want
}

// fixed returns the offsets of RunFixed's segments of size k over n items.
func fixed(n, k int) (begin, end []int64) {
	for lo := 0; lo < n; lo += k {
		begin, end = append(begin, int64(lo)), append(end, int64(min(n, lo+k)))
	}
	return begin, end
}

// cut cuts n items into segments of random lengths around k, empty ones
// included; with gaps, about one segment in five is dropped (its items
// are in no segment) and the rest are shuffled.
func cut(r *rand.Rand, n, k int, gaps bool) (begin, end []int64) {
	for lo := 0; lo < n; {
		hi := min(n, lo+r.IntN(2*k+1))
		if !gaps || r.IntN(5) != 0 {
			begin, end = append(begin, int64(lo)), append(end, int64(hi))
		}
		lo = hi
	}
	if gaps {
		r.Shuffle(len(begin), func(i, j int) {
			begin[i], begin[j] = begin[j], begin[i]
			end[i], end[j] = end[j], end[i]
		})
	}
	return begin, end
}

// runOn runs one scan on d over xs into an output poisoned as poison and
// returns what it holds after.
func runOn[T any](t *testing.T, d *runtime.Device, xs, poison []T, run func(in, out *runtime.Slice[T]) error) []T {
	t.Helper()
	out := devcheck.Upload(t, d, poison)
	require.NoError(t, run(devcheck.Upload(t, d, xs), out))
	return devcheck.Download(t, out)
}

// checkType checks one element type's scans on dut and the CPU backend
// against the oracle, for values from gen and the init values inits.
func checkType[T any](t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, o ops[T], n int, gen func() T, init T) {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = gen()
	}
	poison := devcheck.Poison[T](n)
	// Above 2^22 items the GPU is checked against the oracle alone, over
	// fewer layouts, to stay within the GPU bundle's time limit: 64-bit
	// offsets and large grids are what the largest size is for.
	big := n > 1<<22
	devs := []*runtime.Device{dut}
	if dut != cpu && !big {
		devs = append(devs, cpu)
	}
	type layout struct {
		name       string
		begin, end []int64
	}
	var layouts []layout
	for _, k := range []int{3, 40, 2000} {
		if big && k < 2000 {
			continue
		}
		b, e := cut(r, n, k, false)
		layouts = append(layouts, layout{"k=" + strconv.Itoa(k), b, e})
		b, e = cut(r, n, k, true)
		layouts = append(layouts, layout{"k=" + strconv.Itoa(k) + ",gaps", b, e})
	}
	for _, l := range layouts {
		incWant := oracle(o.op, true, xs, poison, l.begin, l.end, init, false)
		incInitWant := oracle(o.op, true, xs, poison, l.begin, l.end, init, true)
		excWant := oracle(o.op, false, xs, poison, l.begin, l.end, init, true)
		for _, d := range devs {
			bs, es := devcheck.Upload(t, d, l.begin), devcheck.Upload(t, d, l.end)
			devcheck.RequireBitEqual(t, incWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.inc.Run(nil, in, bs, es, out)
			}), "inclusive, "+l.name+" on "+d.String())
			devcheck.RequireBitEqual(t, incInitWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.inc.RunWithInit(nil, in, bs, es, out, init)
			}), "inclusive with init, "+l.name+" on "+d.String())
			devcheck.RequireBitEqual(t, excWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.exc.Run(nil, in, bs, es, out, init)
			}), "exclusive, "+l.name+" on "+d.String())
		}
	}
	for _, k := range fixedSizes {
		if big && k < 1024 {
			continue
		}
		b, e := fixed(n, k)
		incWant := oracle(o.op, true, xs, poison, b, e, init, false)
		incInitWant := oracle(o.op, true, xs, poison, b, e, init, true)
		excWant := oracle(o.op, false, xs, poison, b, e, init, true)
		name := "fixed " + strconv.Itoa(k)
		for _, d := range devs {
			devcheck.RequireBitEqual(t, incWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.inc.RunFixed(nil, in, k, out)
			}), "inclusive, "+name+" on "+d.String())
			devcheck.RequireBitEqual(t, incInitWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.inc.RunFixedWithInit(nil, in, k, out, init)
			}), "inclusive with init, "+name+" on "+d.String())
			devcheck.RequireBitEqual(t, excWant, runOn(t, d, xs, poison, func(in, out *runtime.Slice[T]) error {
				return o.exc.RunFixed(nil, in, k, out, init)
			}), "exclusive, "+name+" on "+d.String())
		}
	}
}

// small draws whole numbers in [0, 100) of any numeric type, so float sums
// over segments of a few thousand items are exact in any order.
func small[T number](r *rand.Rand) func() T { return func() T { return T(r.IntN(100)) } }

func check(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, n int) {
	if n > 1<<22 {
		// The largest size: a 1-, 4- and 8-byte type, a float and a struct.
		t.Run("uint8", func(t *testing.T) {
			checkType(t, r, dut, cpu, ops[uint8]{IncUint8, ExcUint8, AddUint8}, n, func() uint8 { return uint8(r.Uint32()) }, 200)
		})
		t.Run("uint32", func(t *testing.T) {
			checkType(t, r, dut, cpu, ops[uint32]{IncUint32, ExcUint32, AddUint32}, n, r.Uint32, 5)
		})
		t.Run("float64", func(t *testing.T) {
			checkType(t, r, dut, cpu, ops[float64]{IncFloat64, ExcFloat64, AddFloat64}, n, small[float64](r), -2)
		})
		t.Run("Span", func(t *testing.T) {
			i := int64(0)
			checkType(t, r, dut, cpu, ops[Span]{IncSpan, ExcSpan, Join}, n, func() Span { i++; return Span{i, i} }, Span{-1, -1})
		})
		return
	}
	t.Run("int8", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int8]{IncInt8, ExcInt8, AddInt8}, n, func() int8 { return int8(r.Uint32()) }, -3)
	})
	t.Run("int16", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int16]{IncInt16, ExcInt16, AddInt16}, n, func() int16 { return int16(r.Uint32()) }, 77)
	})
	t.Run("int32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int32]{IncInt32, ExcInt32, AddInt32}, n, func() int32 { return int32(r.Uint32()) }, -1000)
	})
	t.Run("int64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int64]{IncInt64, ExcInt64, AddInt64}, n, func() int64 { return int64(r.Uint64()) }, 1<<40)
	})
	t.Run("uint8", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint8]{IncUint8, ExcUint8, AddUint8}, n, func() uint8 { return uint8(r.Uint32()) }, 200)
	})
	t.Run("uint16", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint16]{IncUint16, ExcUint16, AddUint16}, n, func() uint16 { return uint16(r.Uint32()) }, 9)
	})
	t.Run("uint32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint32]{IncUint32, ExcUint32, AddUint32}, n, r.Uint32, 5)
	})
	t.Run("uint64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[uint64]{IncUint64, ExcUint64, AddUint64}, n, r.Uint64, 1<<63)
	})
	t.Run("float32", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[float32]{IncFloat32, ExcFloat32, AddFloat32}, n, small[float32](r), 0.5)
	})
	t.Run("float64", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[float64]{IncFloat64, ExcFloat64, AddFloat64}, n, small[float64](r), -2)
	})
	t.Run("max", func(t *testing.T) {
		checkType(t, r, dut, cpu, ops[int64]{IncMax64, ExcMax64, MaxInt64}, n, func() int64 { return int64(r.Uint64()) }, -1<<63)
	})
	t.Run("Span", func(t *testing.T) {
		// Join is not commutative: an operand order swapped anywhere shows.
		i := int64(0)
		checkType(t, r, dut, cpu, ops[Span]{IncSpan, ExcSpan, Join}, n, func() Span { i++; return Span{i, i} }, Span{-1, -1})
	})
	t.Run("State", func(t *testing.T) {
		for _, k := range []uint32{0, 3} {
			s := Scale{K: k}
			checkType(t, r, dut, cpu, ops[uint32]{IncScaled.Bind(s), ExcScaled.Bind(s), s.Op}, n, r.Uint32, 11)
		}
	})
	t.Run("Iterator", func(t *testing.T) { checkIterators(t, r, dut, cpu, n) })
}

// checkIterators runs the compositions: values doubled on the way in over
// 1024-item segments from counting offsets, and results doubled on the way
// out.
func checkIterators(t *testing.T, r *rand.Rand, dut, cpu *runtime.Device, n int) {
	xs := make([]uint32, n)
	twice := make([]uint32, n)
	for i := range xs {
		xs[i] = r.Uint32()
		twice[i] = Twice(xs[i])
	}
	segs := n / 1024
	b, e := fixed(segs*1024, 1024)
	poison := devcheck.Poison[uint32](n)
	wantOver := oracle(AddUint32, true, twice, poison, b, e, 0, false)
	b, e = cut(r, n, 40, true)
	exc := oracle(AddUint32, false, xs, make([]uint32, n), b, e, 7, true)
	for _, d := range []*runtime.Device{dut, cpu} {
		got := runOn(t, d, xs, poison, func(in, out *runtime.Slice[uint32]) error {
			return IncIter.Run(nil, Doubled.Bind(InU32.With(in)),
				Starts.Bind(Seg.With(0)).Take(segs), Starts.Bind(Seg.With(1)).Take(segs), out)
		})
		devcheck.RequireBitEqual(t, wantOver, got, "inclusive over Doubled and counting offsets on "+d.String())

		// Into writes only the items inside segments, doubled: the gaps
		// keep the output's zeros.
		want := make([]uint32, n)
		for s := range b {
			for i := b[s]; i < e[s]; i++ {
				want[i] = Twice(exc[i])
			}
		}
		out := devcheck.Upload(t, d, make([]uint32, n))
		require.NoError(t, ExcInto.Run(nil, devcheck.Upload(t, d, xs), devcheck.Upload(t, d, b), devcheck.Upload(t, d, e), Written.Bind(OutU32.With(out)), 7))
		devcheck.RequireBitEqual(t, want, devcheck.Download(t, out), "exclusive into Written on "+d.String())
	}
}

// TestGPUMatchesCPU checks the GPU against the CPU backend and the oracle.
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
}

// TestCPUBackend checks the CPU backend against the oracle; it runs
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
}

// TestBadArguments requires misuse to be reported, naming what is wrong,
// before anything is written.
func TestBadArguments(t *testing.T) {
	d := devcheck.OpenCPU(t)
	xs := devcheck.Upload(t, d, []int32{1, 2, 3, 4, 5})
	out := func() *runtime.Slice[int32] { return devcheck.Upload(t, d, []int32{9, 9, 9, 9, 9}) }
	offs := func(v ...int64) *runtime.Slice[int64] { return devcheck.Upload(t, d, v) }
	for _, c := range []struct {
		name, want string
		run        func(out *runtime.Slice[int32]) error
	}{
		{"short output", "output 4", func(*runtime.Slice[int32]) error {
			return IncInt32.Run(nil, xs, offs(0), offs(5), devcheck.Alloc[int32](t, d, 4))
		}},
		{"offsets of different lengths", "2 begin offsets but 1 end", func(o *runtime.Slice[int32]) error {
			return IncInt32.Run(nil, xs, offs(0, 2), offs(2), o)
		}},
		{"a segment past the end", "", func(o *runtime.Slice[int32]) error {
			return IncInt32.Run(nil, xs, offs(0, 2), offs(2, 6), o)
		}},
		{"a segment ending before it begins", "", func(o *runtime.Slice[int32]) error {
			return ExcInt32.Run(nil, xs, offs(3), offs(2), o, 0)
		}},
		{"overlapping segments", "", func(o *runtime.Slice[int32]) error {
			return IncInt32.Run(nil, xs, offs(0, 1), offs(3, 4), o)
		}},
		{"zero segment size", "segment size 0", func(o *runtime.Slice[int32]) error {
			return IncInt32.RunFixed(nil, xs, 0, o)
		}},
		{"negative segment size", "segment size -2", func(o *runtime.Slice[int32]) error {
			return ExcInt32.RunFixed(nil, xs, -2, o, 0)
		}},
		{"nil operator", "nil operator", func(o *runtime.Slice[int32]) error {
			var nilOp *runtime.SegmentedInclusiveScanOp[int32]
			return nilOp.RunFixed(nil, xs, 2, o)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := out()
			err := c.run(o)
			require.Error(t, err)
			require.ErrorContains(t, err, c.want)
			require.Equal(t, []int32{9, 9, 9, 9, 9}, devcheck.Download(t, o), "nothing written")
		})
	}
}
