// Package accept_intrinsics calls the built-ins min and max and every
// supported function of math and math/bits.
package accept_intrinsics

import (
	"math"
	"math/bits"
)

// Celsius is a named float type.
type Celsius float64

//gocccl:op
func MinMax(a, b float32, i, j int8, c Celsius) float32 {
	k := min(i, j, 3)
	d := max(c, 1)
	if e := min(c); k > 0 && d > e {
		return a
	}
	return max(min(a, b), 0.5, a)
}

//gocccl:op
func Exact(x, y, z float64, s int) float64 {
	r := math.Abs(x) + math.Sqrt(x) + math.Floor(x) + math.Ceil(x) + math.Trunc(x)
	r += math.Round(x) + math.RoundToEven(x) + math.Copysign(x, y) + math.FMA(x, y, z)
	r += math.Inf(s) + math.NaN() + math.Mod(x, y) + math.Remainder(x, y)
	r += math.Min(x, y) + math.Max(x, y) + math.Dim(x, y) + math.Hypot(x, y) + math.Ldexp(x, s)
	if math.IsNaN(x) || math.IsInf(x, s) || math.Signbit(y) {
		return 0
	}
	r += math.Float64frombits(math.Float64bits(x)) + float64(math.Float32frombits(math.Float32bits(float32(y))))
	return r
}

//gocccl:op
func Transcendental(x, y float64) float64 {
	r := math.Cbrt(x) + math.Exp(x) + math.Exp2(x) + math.Expm1(x) + math.Log(x) + math.Log2(x) + math.Log10(x) + math.Log1p(x)
	r += math.Pow(x, y) + math.Sin(x) + math.Cos(x) + math.Tan(x) + math.Asin(x) + math.Acos(x) + math.Atan(x) + math.Atan2(y, x)
	r += math.Sinh(x) + math.Cosh(x) + math.Tanh(x) + math.Asinh(x) + math.Acosh(x) + math.Atanh(x) + math.Erf(x) + math.Erfc(x)
	return r
}

//gocccl:op
func Folded(x float64) float64 {
	return x + math.Sqrt(2) + math.Exp(1) + math.Abs(-3) + float64(bits.OnesCount8(0xF0)) + math.Inf(1)
}

//gocccl:op
func Bits(x uint64, y uint32, h uint16, b uint8, u uint, k int) int {
	n := bits.OnesCount(u) + bits.OnesCount8(b) + bits.OnesCount16(h) + bits.OnesCount32(y) + bits.OnesCount64(x)
	n += bits.LeadingZeros(u) + bits.LeadingZeros8(b) + bits.LeadingZeros16(h) + bits.LeadingZeros32(y) + bits.LeadingZeros64(x)
	n += bits.TrailingZeros(u) + bits.TrailingZeros8(b) + bits.TrailingZeros16(h) + bits.TrailingZeros32(y) + bits.TrailingZeros64(x)
	n += bits.Len(u) + bits.Len8(b) + bits.Len16(h) + bits.Len32(y) + bits.Len64(x)
	x = bits.RotateLeft64(x, k) + bits.Reverse64(x) + bits.ReverseBytes64(x)
	y = bits.RotateLeft32(y, -3) + bits.Reverse32(y) + bits.ReverseBytes32(y)
	h = bits.RotateLeft16(h, k) + bits.Reverse16(h) + bits.ReverseBytes16(h)
	b = bits.RotateLeft8(b, k) + bits.Reverse8(b)
	u = bits.RotateLeft(u, k) + bits.Reverse(u) + bits.ReverseBytes(u)
	return n + int(x) + int(y) + int(h) + int(b) + int(u)
}

//gocccl:op
func Carry(x, y uint64, a, b uint32, u, v uint, f float64) uint64 {
	s, c := bits.Add64(x, y, 0)
	d, e := bits.Sub64(x, y, c)
	hi, lo := bits.Mul64(s, d)
	s32, c32 := bits.Add32(a, b, 1)
	d32, e32 := bits.Sub32(a, b, c32)
	h32, l32 := bits.Mul32(s32, d32)
	su, cu := bits.Add(u, v, 0)
	du, eu := bits.Sub(u, v, cu)
	hu, lu := bits.Mul(su, du)
	fr, ex := math.Frexp(f)
	ip, fp := math.Modf(fr)
	return e + hi + lo + uint64(e32+h32+l32) + uint64(eu+hu+lu) + uint64(ex) + uint64(ip+fp)
}
