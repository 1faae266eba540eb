package half

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// format describes a half format for the reference rounding: the finite
// non-negative values in increasing order, as float64, by bit pattern.
type format struct {
	name   string
	values []float64 // values[i] is the value of bit pattern i, 0 <= i <= maxBits
	inf    uint16    // +Inf's bits
	nan    uint16    // canonical NaN
	bits   func(uint16) float64
}

func newFormat(name string, maxBits, inf uint16, value func(uint16) float64) *format {
	f := &format{name: name, inf: inf, nan: 0x7fff}
	for i := 0; i <= int(maxBits); i++ {
		f.values = append(f.values, value(uint16(i)))
	}
	if !sort.Float64sAreSorted(f.values) {
		panic(name + ": values not increasing")
	}
	return f
}

// f16Value computes a binary16 value from its fields, independently of
// Float32.
func f16Value(b uint16) float64 {
	e, m := int(b>>10&0x1f), float64(b&0x3ff)
	if e == 0 {
		return math.Ldexp(m, -24)
	}
	return math.Ldexp(1024+m, e-25)
}

func bf16Value(b uint16) float64 {
	e, m := int(b>>7&0xff), float64(b&0x7f)
	if e == 0 {
		return math.Ldexp(m, -133)
	}
	return math.Ldexp(128+m, e-134)
}

var (
	f16  = newFormat("Float16", 0x7bff, 0x7c00, f16Value)
	bf16 = newFormat("BFloat16", 0x7f7f, 0x7f80, bf16Value)
)

// round is the reference: x rounded to the nearest value of the format,
// ties to the even bit pattern; beyond the largest finite value plus half
// its ulp, Inf.
func (f *format) round(x float64) uint16 {
	if math.IsNaN(x) {
		return f.nan
	}
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	n := len(f.values)
	top := f.values[n-1]
	ulp := top - f.values[n-2]
	if x >= top+ulp/2 {
		return sign | f.inf
	}
	i := sort.SearchFloat64s(f.values, x) // values[i] >= x
	if i == n {
		return sign | uint16(n-1)
	}
	if f.values[i] == x || i == 0 {
		return sign | uint16(i)
	}
	lo, hi := f.values[i-1], f.values[i]
	switch {
	case x-lo < hi-x:
		return sign | uint16(i-1)
	case x-lo > hi-x:
		return sign | uint16(i)
	case i%2 == 0:
		return sign | uint16(i)
	}
	return sign | uint16(i-1)
}

// value returns the float64 value of bit pattern b (NaN for NaNs).
func (f *format) value(b uint16) float64 {
	m := b & 0x7fff
	switch {
	case m == f.inf:
		if b&0x8000 != 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case m > f.inf:
		return math.NaN()
	}
	v := f.values[m]
	if b&0x8000 != 0 {
		v = -v
	}
	return v
}

// float32s are float32 inputs for conversion tests: every pattern in a
// stride, the midpoints of both formats and their float32 neighbours, and
// edge values.
func float32s() []float32 {
	var out []float32
	for u := uint64(0); u < 1<<32; u += 4099 {
		out = append(out, math.Float32frombits(uint32(u)))
	}
	for _, f := range []*format{f16, bf16} {
		for i := 0; i+1 < len(f.values); i++ {
			mid := float32((f.values[i] + f.values[i+1]) / 2) // exact: 12 or 9 bits
			b := math.Float32bits(mid)
			for _, c := range []uint32{b - 1, b, b + 1} {
				out = append(out, math.Float32frombits(c), -math.Float32frombits(c))
			}
		}
	}
	for _, u := range []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 1, 0x80000001, 0x7f7fffff,
		0x477fe000, 0x477fefff, 0x477ff000, 0x33000000, 0x33000001, 0x337fffff, 0x33800000, 0x38800000, 0x387fffff} {
		out = append(out, math.Float32frombits(u))
	}
	return out
}

func TestFromFloat32(t *testing.T) {
	bad := 0
	for _, x := range float32s() {
		if got, want := uint16(FromFloat32(x)), f16.round(float64(x)); got != want && bad < 20 {
			bad++
			t.Errorf("FromFloat32(%g = %#08x) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
		if got, want := uint16(BFloat16FromFloat32(x)), bf16.round(float64(x)); got != want && bad < 20 {
			bad++
			t.Errorf("BFloat16FromFloat32(%g = %#08x) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
	}
}

// TestRoundTrip converts every bit pattern of both types to float32 and
// back: the same pattern, except that NaNs become the canonical NaN.
func TestRoundTrip(t *testing.T) {
	for i := range 1 << 16 {
		h := Float16(i)
		f := h.Float32()
		v := f16.value(uint16(i))
		if math.IsNaN(v) {
			if math.Float32bits(f) != 0x7fffffff || !h.IsNaN() || FromFloat32(f) != NaN16 {
				t.Errorf("Float16 %#04x: NaN gives %#08x", i, math.Float32bits(f))
			}
			continue
		}
		if float64(f) != v || math.Signbit(float64(f)) != (i&0x8000 != 0) || h.IsNaN() {
			t.Errorf("Float16(%#04x).Float32() = %g, want %g", i, f, v)
		}
		if FromFloat32(f) != h {
			t.Errorf("FromFloat32(Float16(%#04x).Float32()) = %#04x", i, FromFloat32(f))
		}

		b := BFloat16(i)
		g := b.Float32()
		if math.Float32bits(g) != uint32(i)<<16 {
			t.Errorf("BFloat16(%#04x).Float32() has bits %#08x", i, math.Float32bits(g))
		}
		w := bf16.value(uint16(i))
		if math.IsNaN(w) {
			if !b.IsNaN() || BFloat16FromFloat32(g) != NaNB16 {
				t.Errorf("BFloat16 %#04x: NaN handling", i)
			}
			continue
		}
		if float64(g) != w || b.IsNaN() || BFloat16FromFloat32(g) != b {
			t.Errorf("BFloat16 %#04x: value %g, want %g", i, g, w)
		}
	}
}

// edges are bit patterns whose pairs the arithmetic tests cover all of.
var edges = []uint16{0, 0x8000, 1, 0x8001, 2, 0x3ff, 0x400, 0x401, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x4000, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
	0x7e00, 0xfe00, 0x7c01, 0x7fff, 0x3555, 0x0080, 0x0081, 0x007f, 0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x4049, 0x0f00, 0x1000}

func pairs() [][2]uint16 {
	var out [][2]uint16
	for _, a := range edges {
		for _, b := range edges {
			out = append(out, [2]uint16{a, b})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 400000 {
		out = append(out, [2]uint16{uint16(r.Uint32()), uint16(r.Uint32())})
	}
	// Near cancellations and products close to the subnormal range.
	for range 100000 {
		a := uint16(r.Uint32())
		out = append(out, [2]uint16{a, a ^ 0x8000 + uint16(r.IntN(9)) - 4}, [2]uint16{a&0x87ff | 0x1000, uint16(r.Uint32())&0x87ff | 0x1000})
	}
	return out
}

// TestArithmetic compares the four operations with the reference: the
// float64 result (exact for + - *, and correctly rounded for /, which
// 53 >= 2*11+2 makes innocuous) rounded to the format.
func TestArithmetic(t *testing.T) {
	ops := []struct {
		name string
		f    func(x, y float64) float64
		h    func(x, y Float16) Float16
		b    func(x, y BFloat16) BFloat16
	}{
		{"Add", func(x, y float64) float64 { return x + y }, Float16.Add, BFloat16.Add},
		{"Sub", func(x, y float64) float64 { return x - y }, Float16.Sub, BFloat16.Sub},
		{"Mul", func(x, y float64) float64 { return x * y }, Float16.Mul, BFloat16.Mul},
		{"Div", func(x, y float64) float64 { return x / y }, Float16.Div, BFloat16.Div},
	}
	bad := 0
	for _, p := range pairs() {
		for _, op := range ops {
			if got, want := uint16(op.h(Float16(p[0]), Float16(p[1]))), f16.round(op.f(f16.value(p[0]), f16.value(p[1]))); got != want && bad < 20 {
				bad++
				t.Errorf("Float16(%#04x).%s(%#04x) = %#04x, want %#04x", p[0], op.name, p[1], got, want)
			}
			if got, want := uint16(op.b(BFloat16(p[0]), BFloat16(p[1]))), bf16.round(op.f(bf16.value(p[0]), bf16.value(p[1]))); got != want && bad < 20 {
				bad++
				t.Errorf("BFloat16(%#04x).%s(%#04x) = %#04x, want %#04x", p[0], op.name, p[1], got, want)
			}
		}
		a, b := Float16(p[0]), Float16(p[1])
		x, y := f16.value(p[0]), f16.value(p[1])
		if a.Eq(b) != (x == y) || a.Lt(b) != (x < y) || a.Le(b) != (x <= y) {
			t.Errorf("Float16 comparisons of %#04x and %#04x", p[0], p[1])
		}
		c, d := BFloat16(p[0]), BFloat16(p[1])
		x, y = bf16.value(p[0]), bf16.value(p[1])
		if c.Eq(d) != (x == y) || c.Lt(d) != (x < y) || c.Le(d) != (x <= y) {
			t.Errorf("BFloat16 comparisons of %#04x and %#04x", p[0], p[1])
		}
	}
}

func TestSignOps(t *testing.T) {
	for i := range 1 << 16 {
		h, b := Float16(i), BFloat16(i)
		if uint16(h.Neg()) != uint16(i)^0x8000 || uint16(h.Abs()) != uint16(i)&0x7fff || h.Bits() != uint16(i) {
			t.Fatalf("Float16 %#04x: Neg %#04x Abs %#04x", i, h.Neg(), h.Abs())
		}
		if uint16(b.Neg()) != uint16(i)^0x8000 || uint16(b.Abs()) != uint16(i)&0x7fff || b.Bits() != uint16(i) {
			t.Fatalf("BFloat16 %#04x: Neg %#04x Abs %#04x", i, b.Neg(), b.Abs())
		}
	}
}
