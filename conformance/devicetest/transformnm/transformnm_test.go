package transformnm

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the lengths every arity is checked at: around the tiles of 1-,
// 4- and 8-byte items (8192, 2048, 1024) and of 12- and 16-byte ones, odd
// primes, 10^6+3, and 2^26 only on the GPU.
var sizes = []int{0, 1, 2, 511, 513, 1023, 1025, 2047, 2048, 2049, 8191, 8193, 7919, 1_000_003, 1 << 26}

// random returns n random values of T, none of them zero (floats in
// [-1000, 1000), structs with every field random and non-zero).
func random[T any](r *rand.Rand, n int) []T {
	xs := make([]T, n)
	for i := range xs {
		p := any(&xs[i])
		switch p := p.(type) {
		case *float32:
			*p = float32(r.Float64()*2000-1000) + 0.5
		case *float64:
			*p = r.Float64()*2000 - 1000 + 0.25
		case *Item:
			*p = Item{Key: r.Uint32() | 1, Weight: float32(r.Float64()*200) + 0.5, Tag: int16(r.Uint32()) | 1}
		default:
			b := unsafe.Slice((*byte)(unsafe.Pointer(&xs[i])), unsafe.Sizeof(xs[i]))
			for j := range b {
				b[j] = byte(r.Uint32()) | 1
			}
		}
	}
	return xs
}

// col is one output column of a case: the poisoned buffer of n+2
// elements whose middle n a Run writes, and the oracle's values.
type col interface {
	alloc(t *testing.T, d *runtime.Device, n int) any // the middle n, a *runtime.Slice
	check(t *testing.T, what string)
}

type column[T any] struct {
	want []T
	all  *runtime.Slice[T]
}

func (c *column[T]) alloc(t *testing.T, d *runtime.Device, n int) any {
	c.all = devcheck.Upload(t, d, devcheck.Poison[T](n+2))
	return c.all.Range(1, n+1)
}

func (c *column[T]) check(t *testing.T, what string) {
	want := devcheck.Poison[T](len(c.want) + 2)
	copy(want[1:], c.want)
	got := devcheck.Download(t, c.all)
	if _, padded := any(c.want).([]Item); padded {
		// Struct padding is not part of a value: compare fields.
		require.Equal(t, want, got, what)
		return
	}
	devcheck.RequireBitEqual(t, want, got, what)
}

func out[T any](n int) *column[T] { return &column[T]{want: make([]T, n)} }

// runCase runs run on each device into fresh poisoned outputs and checks
// every output against the oracle's columns (so the GPU against the CPU
// backend, bit for bit).
func runCase(t *testing.T, devs []*runtime.Device, name string, cols []col, run func(d *runtime.Device, outs []any) error, n int) {
	t.Helper()
	for _, d := range devs {
		outs := make([]any, len(cols))
		for i, c := range cols {
			outs[i] = c.alloc(t, d, n)
		}
		require.NoError(t, run(d, outs), "%s on %s", name, d)
		for i, c := range cols {
			c.check(t, fmt.Sprintf("%s output %d on %s", name, i+1, d))
		}
	}
}

func check(t *testing.T, r *rand.Rand, devs []*runtime.Device, n int) {
	f1, f2, f3 := random[float32](r, n), random[float32](r, n), random[float32](r, n)
	{
		o := out[float32](n)
		for i := range n {
			o.want[i] = Axpb(f1[i], f2[i], f3[i])
		}
		runCase(t, devs, "Transform3(Axpb)", []col{o}, func(d *runtime.Device, os []any) error {
			return Transform3F32.Run(nil, devcheck.Upload(t, d, f1), devcheck.Upload(t, d, f2), devcheck.Upload(t, d, f3), os[0].(*runtime.Slice[float32]))
		}, n)
	}
	{
		a, b, c, items := random[int8](r, n), random[uint16](r, n), random[float64](r, n), random[Item](r, n)
		o := out[float64](n)
		for i := range n {
			o.want[i] = Mix4(a[i], b[i], c[i], items[i])
		}
		runCase(t, devs, "Transform4(Mix4)", []col{o}, func(d *runtime.Device, os []any) error {
			return Transform4Mixed.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), devcheck.Upload(t, d, c), devcheck.Upload(t, d, items), os[0].(*runtime.Slice[float64]))
		}, n)
	}
	{
		x := random[uint64](r, n)
		o1, o2 := out[uint32](n), out[uint32](n)
		for i := range n {
			o1.want[i], o2.want[i] = Split(x[i])
		}
		runCase(t, devs, "Transform1x2(Split)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform1x2U64.Run(nil, devcheck.Upload(t, d, x), os[0].(*runtime.Slice[uint32]), os[1].(*runtime.Slice[uint32]))
		}, n)
	}
	a32, b32 := random[int32](r, n), random[int32](r, n)
	{
		o1, o2 := out[int32](n), out[int32](n)
		for i := range n {
			o1.want[i], o2.want[i] = DivMod(a32[i], b32[i])
		}
		runCase(t, devs, "Transform2x2(DivMod)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform2x2I32.Run(nil, devcheck.Upload(t, d, a32), devcheck.Upload(t, d, b32), os[0].(*runtime.Slice[int32]), os[1].(*runtime.Slice[int32]))
		}, n)
		// In place: the quotients over a, the remainders over b.
		for _, d := range devs {
			x, y := devcheck.Upload(t, d, a32), devcheck.Upload(t, d, b32)
			require.NoError(t, Transform2x2I32.Run(nil, x, y, x, y), "in place on %s", d)
			require.Equal(t, o1.want, devcheck.Download(t, x), "Transform2x2 in place, quotients, on %s", d)
			require.Equal(t, o2.want, devcheck.Download(t, y), "Transform2x2 in place, remainders, on %s", d)
		}
	}
	{
		o1, o2 := out[float32](n), out[float32](n)
		for i := range n {
			o1.want[i], o2.want[i] = Lerp2(f1[i], f2[i], f3[i])
		}
		runCase(t, devs, "Transform3x2(Lerp2)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform3x2F32.Run(nil, devcheck.Upload(t, d, f1), devcheck.Upload(t, d, f2), devcheck.Upload(t, d, f3), os[0].(*runtime.Slice[float32]), os[1].(*runtime.Slice[float32]))
		}, n)
		st := Blend{W: 0.375, Offset: -3.5}
		for i := range n {
			o1.want[i], o2.want[i] = st.Apply(f1[i], f2[i], f3[i])
		}
		runCase(t, devs, "Transform3x2With(Blend.Apply)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform3x2Blend.Bind(st).Run(nil, devcheck.Upload(t, d, f1), devcheck.Upload(t, d, f2), devcheck.Upload(t, d, f3), os[0].(*runtime.Slice[float32]), os[1].(*runtime.Slice[float32]))
		}, n)
	}
	{
		a, b, c := random[uint32](r, n), random[float32](r, n), random[int16](r, n)
		o1, o2 := out[Item](n), out[float64](n)
		for i := range n {
			o1.want[i], o2.want[i] = Weigh(a[i], b[i], c[i])
		}
		runCase(t, devs, "Transform3x2(Weigh)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform3x2Itm.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), devcheck.Upload(t, d, c), os[0].(*runtime.Slice[Item]), os[1].(*runtime.Slice[float64]))
		}, n)
	}
	{
		a, b, c, dd := random[uint8](r, n), random[uint8](r, n), random[uint16](r, n), random[uint32](r, n)
		o1, o2 := out[uint64](n), out[uint32](n)
		for i := range n {
			o1.want[i], o2.want[i] = Pack4(a[i], b[i], c[i], dd[i])
		}
		runCase(t, devs, "Transform4x2(Pack4)", []col{o1, o2}, func(d *runtime.Device, os []any) error {
			return Transform4x2U8.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), devcheck.Upload(t, d, c), devcheck.Upload(t, d, dd), os[0].(*runtime.Slice[uint64]), os[1].(*runtime.Slice[uint32]))
		}, n)
	}
	{
		x := random[uint8](r, n)
		o1, o2, o3 := out[uint8](n), out[int16](n), out[float32](n)
		for i := range n {
			o1.want[i], o2.want[i], o3.want[i] = Spread3(x[i])
		}
		runCase(t, devs, "Transform1x3(Spread3)", []col{o1, o2, o3}, func(d *runtime.Device, os []any) error {
			return Transform1x3U8.Run(nil, devcheck.Upload(t, d, x), os[0].(*runtime.Slice[uint8]), os[1].(*runtime.Slice[int16]), os[2].(*runtime.Slice[float32]))
		}, n)
	}
	{
		a, b := random[int64](r, n), random[float32](r, n)
		o1, o2, o3 := out[int8](n), out[float64](n), out[Pair](n)
		for i := range n {
			o1.want[i], o2.want[i], o3.want[i] = Fan3(a[i], b[i])
		}
		runCase(t, devs, "Transform2x3(Fan3)", []col{o1, o2, o3}, func(d *runtime.Device, os []any) error {
			return Transform2x3Fan.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), os[0].(*runtime.Slice[int8]), os[1].(*runtime.Slice[float64]), os[2].(*runtime.Slice[Pair]))
		}, n)
	}
	{
		a, b, c := random[float64](r, n), random[float64](r, n), random[float64](r, n)
		o1, o2, o3 := out[float64](n), out[float64](n), out[float64](n)
		for i := range n {
			o1.want[i], o2.want[i], o3.want[i] = Stats3(a[i], b[i], c[i])
		}
		runCase(t, devs, "Transform3x3(Stats3)", []col{o1, o2, o3}, func(d *runtime.Device, os []any) error {
			return Transform3x3F64.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), devcheck.Upload(t, d, c), os[0].(*runtime.Slice[float64]), os[1].(*runtime.Slice[float64]), os[2].(*runtime.Slice[float64]))
		}, n)
	}
	{
		a, b, c, items := random[int32](r, n), random[int64](r, n), random[float32](r, n), random[Item](r, n)
		o1, o2, o3 := out[int64](n), out[float32](n), out[uint16](n)
		for i := range n {
			o1.want[i], o2.want[i], o3.want[i] = Four3(a[i], b[i], c[i], items[i])
		}
		runCase(t, devs, "Transform4x3(Four3)", []col{o1, o2, o3}, func(d *runtime.Device, os []any) error {
			return Transform4x3Mix.Run(nil, devcheck.Upload(t, d, a), devcheck.Upload(t, d, b), devcheck.Upload(t, d, c), devcheck.Upload(t, d, items), os[0].(*runtime.Slice[int64]), os[1].(*runtime.Slice[float32]), os[2].(*runtime.Slice[uint16]))
		}, n)
	}
	{
		// DivMod of start+i by b[i]: the quotients written backwards, the
		// remainders dropped; the counting input takes b's length.
		const start = -12345
		o := out[int32](n)
		for i := range n {
			q, _ := DivMod(int32(start+i), b32[i])
			o.want[n-1-i] = q
		}
		runCase(t, devs, "Transform2x2(DivMod) over Counting into ReverseOutput, Discard", []col{o}, func(d *runtime.Device, os []any) error {
			return Transform2x2Iter.Run(nil, Index.Bind(Index.With(start)), devcheck.Upload(t, d, b32), RevI32.Bind(OutI32.With(os[0].(*runtime.Slice[int32]))), Drop.Bind())
		}, n)
	}
	{
		w := Window{Lo: -1 << 29, Hi: 1 << 30, K: -0.5}
		all := make([][]float64, len(devs))
		for k, d := range devs {
			buf := devcheck.Upload(t, d, devcheck.Poison[float64](n))
			require.NoError(t, TransformIfWindow.Bind(w).Run(nil, devcheck.Upload(t, d, a32), buf), "TransformIfWith on %s", d)
			all[k] = devcheck.Download(t, buf)
		}
		want := devcheck.Poison[float64](n)
		for i, x := range a32 {
			if w.Inside(x) {
				want[i] = w.Scale(x)
			}
		}
		for k, d := range devs {
			devcheck.RequireBitEqual(t, want, all[k], "TransformIfWith(Window.Scale, Window.Inside) on "+d.String())
		}
	}
}

// devices are dut and, when it is another, the CPU backend.
func devices(dut, cpu *runtime.Device) []*runtime.Device {
	if dut == cpu {
		return []*runtime.Device{cpu}
	}
	return []*runtime.Device{dut, cpu}
}

// TestGPUMatchesCPU checks every arity on the GPU against the CPU backend
// and both against sequential loops.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if testing.Short() && n > 1<<20 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, devices(gpu, cpu), n) })
	}
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
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, devices(cpu, cpu), n) })
	}
}

// TestBadArguments requires misuse to be reported before any launch, naming
// the instance, on every device.
func TestBadArguments(t *testing.T) {
	devs := []*runtime.Device{devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		t.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	}
	for _, d := range devs {
		xs := devcheck.Upload(t, d, []int32{1, 2, 3})
		ys := devcheck.Upload(t, d, []int32{4, 5, 6})
		long := devcheck.Upload(t, d, []int32{1, 2, 3, 4, 5})
		require.ErrorContains(t, Transform2x2I32.Run(nil, xs, long, xs, ys), "DivMod): inputs of different lengths: 3, 5")
		require.ErrorContains(t, Transform2x2I32.Run(nil, xs, ys, long, ys), "inputs have 3 elements, output 1 5")
		require.ErrorContains(t, Transform2x2I32.Run(nil, xs, ys, long.Range(0, 3), long.Range(1, 4)), "outputs 1 and 2 overlap")
		require.ErrorContains(t, Transform2x2I32.Run(nil, long.Range(0, 3), ys, long.Range(1, 4), xs), "output 1 overlaps the first input partially")
		require.ErrorContains(t, Transform2x2I32.Run(nil, nil, ys, xs, ys), "first input: nil slice")
		require.ErrorContains(t, Transform2x2Iter.Run(nil, Index.Bind(Index.With(0)), Index.Bind(Index.With(0)), RevI32.Bind(OutI32.With(xs)), Drop.Bind()), "Take(n)")
		require.Equal(t, []int32{1, 2, 3}, devcheck.Download(t, xs), "no call wrote on %s", d)
		require.Equal(t, []int32{4, 5, 6}, devcheck.Download(t, ys), "no call wrote on %s", d)
		require.Equal(t, []int32{1, 2, 3, 4, 5}, devcheck.Download(t, long), "no call wrote on %s", d)
	}
}
