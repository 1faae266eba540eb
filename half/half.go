// Package half holds gocccl's half-precision floating-point types: Float16,
// IEEE 754 binary16 (CUDA's __half), and BFloat16, bfloat16 (CUDA's
// __nv_bfloat16). Both are 16-bit patterns (defined over uint16, so a
// []Float16 is a host buffer of the bytes a device buffer of __half holds),
// and both are known to gocccl-gen: operators may take, return and compute
// with them through this package's functions and methods, which the
// generator maps to the helpers of kernels/include/gocccl/gohalf.cuh.
//
// Go has no operator overloading and the types' underlying type is uint16,
// so a + b on two Float16 values adds bit patterns; gocccl-gen rejects +, -,
// *, /, %, <, <=, >, >=, the bit operators and numeric conversions on them
// in operators (== and != compare bit patterns, as in Go). Compute with the
// methods instead:
//
//	func Axpy(a, x, y half.Float16) half.Float16 { return a.Mul(x).Add(y) }
//	func Widen(h half.Float16) float32        { return h.Float32() }
//
// Semantics, identical on the CPU and the GPU and checked bit for bit against
// CUDA's cuda_fp16.h and cuda_bf16.h host functions:
//
//   - FromFloat32 and BFloat16FromFloat32 round to nearest, ties to even, as
//     __float2half_rn and __float2bfloat16_rn do: overflow gives ±Inf,
//     subnormal results are kept (no flush to zero), and every NaN becomes
//     the canonical NaN 0x7FFF (sign and payload dropped).
//   - Float32 is exact. For Float16 a NaN becomes the float32 NaN 0x7FFFFFFF
//     (as __half2float on the host does); for BFloat16 the bits are shifted
//     left 16 (as __bfloat162float does), so a NaN keeps its sign and payload.
//   - Add, Sub, Mul and Div compute in float32 and round once to the half
//     type. float32 has 24 bits, at least 2p+2 for both formats' precision p
//     (11 and 8), so this double rounding is innocuous: the result is the
//     correctly rounded half result, equal to __hadd_rn, __hsub_rn and
//     __hmul_rn on sm_53+ (the native add.rn.f16 and friends) and to the
//     host's __hadd. Div is the correctly rounded quotient, which is what
//     __hdiv computes on the host; on the device __hdiv uses rcp.approx and
//     may differ in the last bit, so gocccl's device code divides in float32
//     with __fdiv_rn instead. A NaN result is the canonical NaN 0x7FFF.
//   - Neg and Abs flip or clear the sign bit alone (NaNs included).
//   - Eq, Lt and Le compare as IEEE floats (NaN is unordered, -0 == +0).
package half

import "math"

// Float16 is an IEEE 754 binary16 number (1 sign bit, 5 exponent bits, 10
// fraction bits): CUDA's __half. The zero value is +0. A constant Float16(x)
// is the bit pattern x, as Go converts integers; FromFloat32 gives a value.
type Float16 uint16

// BFloat16 is a bfloat16 number (1 sign bit, 8 exponent bits, 7 fraction
// bits; the upper half of a float32): CUDA's __nv_bfloat16. The zero value
// is +0. A constant BFloat16(x) is the bit pattern x.
type BFloat16 uint16

// NaN16 and NaNB16 are the canonical NaNs every operation of this package
// returns for a NaN result.
const (
	NaN16  Float16  = 0x7FFF
	NaNB16 BFloat16 = 0x7FFF
)

// FromFloat32 rounds f to the nearest Float16, ties to even
// (__float2half_rn).
func FromFloat32(f float32) Float16 {
	x := math.Float32bits(f)
	u := x & 0x7fffffff
	sign := (x >> 16) & 0x8000
	var r, rem uint32
	switch {
	case u >= 0x7f800000: // NaN, ±Inf
		if u == 0x7f800000 {
			return Float16(sign | 0x7c00)
		}
		return NaN16
	case u > 0x477fefff: // overflows to ±Inf after rounding
		return Float16(sign | 0x7c00)
	case u >= 0x38800000: // normal
		rem = u << 19
		r = sign | (u-0x38000000)>>13
	case u < 0x33000001: // rounds to ±0
		return Float16(sign)
	default: // subnormal
		shift := 0x7e - u>>23
		m := u&0x7fffff | 0x800000
		rem = m << (32 - shift)
		r = sign | m>>shift
	}
	if rem > 0x80000000 || (rem == 0x80000000 && r&1 != 0) {
		r++
	}
	return Float16(r)
}

// Float32 returns h as a float32, exactly; a NaN gives 0x7FFFFFFF.
func (h Float16) Float32() float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h&0x3ff) << 13
	switch {
	case exp == 0x1f:
		if man != 0 {
			return math.Float32frombits(0x7fffffff)
		}
		return math.Float32frombits(sign | 0x7f800000)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		exp = 0x71
		for man&0x400000 == 0 {
			man <<= 1
			exp--
		}
		man = man << 1 & 0x7fffff
		exp--
		return math.Float32frombits(sign | exp<<23 | man)
	}
	return math.Float32frombits(sign | (exp+0x70)<<23 | man)
}

// Bits returns h's bit pattern.
func (h Float16) Bits() uint16 { return uint16(h) }

// Add returns h + x, correctly rounded.
func (h Float16) Add(x Float16) Float16 { return FromFloat32(h.Float32() + x.Float32()) }

// Sub returns h - x, correctly rounded.
func (h Float16) Sub(x Float16) Float16 { return FromFloat32(h.Float32() - x.Float32()) }

// Mul returns h * x, correctly rounded.
func (h Float16) Mul(x Float16) Float16 { return FromFloat32(h.Float32() * x.Float32()) }

// Div returns h / x, correctly rounded.
func (h Float16) Div(x Float16) Float16 { return FromFloat32(h.Float32() / x.Float32()) }

// Neg returns -h: h with its sign bit flipped.
func (h Float16) Neg() Float16 { return h ^ 0x8000 }

// Abs returns |h|: h with its sign bit cleared.
func (h Float16) Abs() Float16 { return h &^ 0x8000 }

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return h&0x7fff > 0x7c00 }

// Eq reports whether h == x as floats: false if either is NaN, true for
// -0 and +0.
func (h Float16) Eq(x Float16) bool { return h.Float32() == x.Float32() }

// Lt reports whether h < x as floats.
func (h Float16) Lt(x Float16) bool { return h.Float32() < x.Float32() }

// Le reports whether h <= x as floats.
func (h Float16) Le(x Float16) bool { return h.Float32() <= x.Float32() }

// BFloat16FromFloat32 rounds f to the nearest BFloat16, ties to even
// (__float2bfloat16_rn).
func BFloat16FromFloat32(f float32) BFloat16 {
	x := math.Float32bits(f)
	if x&0x7fffffff > 0x7f800000 {
		return NaNB16
	}
	r := x >> 16
	rem := x << 16
	if rem > 0x80000000 || (rem == 0x80000000 && r&1 != 0) {
		r++
	}
	return BFloat16(r)
}

// Float32 returns b as a float32, exactly: its bits shifted left 16.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// Bits returns b's bit pattern.
func (b BFloat16) Bits() uint16 { return uint16(b) }

// Add returns b + x, correctly rounded.
func (b BFloat16) Add(x BFloat16) BFloat16 { return BFloat16FromFloat32(b.Float32() + x.Float32()) }

// Sub returns b - x, correctly rounded.
func (b BFloat16) Sub(x BFloat16) BFloat16 { return BFloat16FromFloat32(b.Float32() - x.Float32()) }

// Mul returns b * x, correctly rounded.
func (b BFloat16) Mul(x BFloat16) BFloat16 { return BFloat16FromFloat32(b.Float32() * x.Float32()) }

// Div returns b / x, correctly rounded.
func (b BFloat16) Div(x BFloat16) BFloat16 { return BFloat16FromFloat32(b.Float32() / x.Float32()) }

// Neg returns -b: b with its sign bit flipped.
func (b BFloat16) Neg() BFloat16 { return b ^ 0x8000 }

// Abs returns |b|: b with its sign bit cleared.
func (b BFloat16) Abs() BFloat16 { return b &^ 0x8000 }

// IsNaN reports whether b is a NaN.
func (b BFloat16) IsNaN() bool { return b&0x7fff > 0x7f80 }

// Eq reports whether b == x as floats.
func (b BFloat16) Eq(x BFloat16) bool { return b.Float32() == x.Float32() }

// Lt reports whether b < x as floats.
func (b BFloat16) Lt(x BFloat16) bool { return b.Float32() < x.Float32() }

// Le reports whether b <= x as floats.
func (b BFloat16) Le(x BFloat16) bool { return b.Float32() <= x.Float32() }
