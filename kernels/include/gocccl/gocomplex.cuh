// gocomplex.cuh: Go's complex64 and complex128 for operator code generated
// by gocccl-gen, and the supported functions of package math/cmplx.
//
// The generated code includes this header only when an operator or an
// instance uses a complex type, so that no other package's inputs depend on
// it. It spells complex64 as ::gocccl::go::complex64 and complex128 as
// ::gocccl::go::complex128: structs of the real part, then the imaginary
// part, with Go's size and alignment (complex64: 8 bytes, aligned to 4;
// complex128: 16 bytes, aligned to 8), so that a host []complex64 and a
// device buffer hold the same bytes.
//
// Arithmetic is what gc compiles on amd64 (GOAMD64=v1, no FMA: the project's
// rule, with files compiled with -fmad=false), bit for bit:
//
//   + and -   the parts' float + and - (gosem.cuh's fadd and fsub, so NaN
//             payloads are amd64's too).
//   *         (a+bi)(c+di) = (ac - bd) + (ad + bc)i, the plain formula with no
//             recovery of infinities (C's Annex G): a NaN part stays NaN. gc
//             computes complex64 products in float64 and rounds each part to
//             float32 once at the end; so does cmul.
//   /         runtime.complex128div (Smith's algorithm with C99's recovery of
//             infinities and zeros when both parts are NaN), ported operation
//             for operation; complex64 division converts both operands to
//             complex128, divides and converts back, as gc does.
//   == and != both parts compared as floats (NaN != NaN, -0 == +0).
//   conversion complex64 <-> complex128: each part converted as a float.
//
// NaN payloads: the parts are NaN exactly when Go's are. Which NaN a part
// carries when both operands of a float operation are NaN depends on their
// order in gc's amd64 code, which its register allocator picks per function
// (it even computes a + b as b + a in some): the helpers take the order of
// gc's code for a function that does just that operation (cquo that of
// runtime.complex128div, where the host test finds every payload Go's), but
// an operator that does more may get other payloads from gc. Compare NaNs
// as a class.
//
// math/cmplx: Abs, Conj, Exp, Log, Sqrt, Pow, Sin, Cos, Sinh, Cosh, Phase,
// Polar, Rect, IsNaN, IsInf, Inf and NaN are ports of Go's source over
// gomath.cuh's functions, which are Go's bit for bit; math.Sincos is Sin and
// Cos (Go's Sincos runs the same reduction and polynomials). So these are
// Go's results bit for bit as well, NaN payloads aside.
//
// Every helper is __host__ __device__ (GOCCCL_GO_FN);
// cmd/gocccl-gen/internal/emit/cuda_gocomplex_test.go compiles them for the
// host and checks them against Go over edge and random values.
#pragma once

#include <gocccl/gosem.cuh>

namespace gocccl {
namespace go {

// complex64 is Go's complex64: two float32.
struct complex64 {
  float re;
  float im;
};

// complex128 is Go's complex128: two float64.
struct complex128 {
  double re;
  double im;
};

static_assert(sizeof(complex64) == 8 && alignof(complex64) == 4, "complex64 must have Go's layout");
static_assert(sizeof(complex128) == 16 && alignof(complex128) == 8, "complex128 must have Go's layout");

GOCCCL_GO_FN bool operator==(complex64 a, complex64 b) { return a.re == b.re && a.im == b.im; }
GOCCCL_GO_FN bool operator!=(complex64 a, complex64 b) { return !(a == b); }
GOCCCL_GO_FN bool operator==(complex128 a, complex128 b) { return a.re == b.re && a.im == b.im; }
GOCCCL_GO_FN bool operator!=(complex128 a, complex128 b) { return !(a == b); }

// creal and cimag are the built-ins real and imag.
GOCCCL_GO_FN float creal(complex64 x) { return x.re; }
GOCCCL_GO_FN double creal(complex128 x) { return x.re; }
GOCCCL_GO_FN float cimag(complex64 x) { return x.im; }
GOCCCL_GO_FN double cimag(complex128 x) { return x.im; }

// cneg is -x: both signs flipped, as Go does.
GOCCCL_GO_FN complex64 cneg(complex64 x) { return complex64{fneg(x.re), fneg(x.im)}; }
GOCCCL_GO_FN complex128 cneg(complex128 x) { return complex128{fneg(x.re), fneg(x.im)}; }

// cadd and csub are + and -.
GOCCCL_GO_FN complex64 cadd(complex64 a, complex64 b) {
  return complex64{fadd<float>(a.re, b.re), fadd<float>(a.im, b.im)};
}
GOCCCL_GO_FN complex128 cadd(complex128 a, complex128 b) {
  return complex128{fadd<double>(a.re, b.re), fadd<double>(a.im, b.im)};
}
GOCCCL_GO_FN complex64 csub(complex64 a, complex64 b) {
  return complex64{fsub<float>(a.re, b.re), fsub<float>(a.im, b.im)};
}
GOCCCL_GO_FN complex128 csub(complex128 a, complex128 b) {
  return complex128{fsub<double>(a.re, b.re), fsub<double>(a.im, b.im)};
}

// cmul is *: gc's formula, in float64 for both types. The operands of each
// commutative operation are in the order gc's amd64 code for
// func(a, b complex128) complex128 { return a * b } has them (and the same
// for complex64), which decides the payload when both are NaN; in another
// function gc's register allocator may swap them.
GOCCCL_GO_FN complex128 cmul(complex128 a, complex128 b) {
  return complex128{fsub<double>(fmul<double>(a.re, b.re), fmul<double>(a.im, b.im)),
                    fadd<double>(fmul<double>(a.im, b.re), fmul<double>(b.im, a.re))};
}
GOCCCL_GO_FN complex64 cmul(complex64 a, complex64 b) {
  const double ar = conv<double>(a.re), ai = conv<double>(a.im);
  const double br = conv<double>(b.re), bi = conv<double>(b.im);
  return complex64{conv<float>(fsub<double>(fmul<double>(br, ar), fmul<double>(ai, bi))),
                   conv<float>(fadd<double>(fmul<double>(bi, ar), fmul<double>(ai, br)))};
}

// cconv is the conversion To(x) between complex types.
template <typename To>
GOCCCL_GO_FN To cconv(complex64 x);
template <typename To>
GOCCCL_GO_FN To cconv(complex128 x);
template <>
GOCCCL_GO_FN complex128 cconv<complex128>(complex64 x) {
  return complex128{conv<double>(x.re), conv<double>(x.im)};
}
template <>
GOCCCL_GO_FN complex64 cconv<complex64>(complex128 x) {
  return complex64{conv<float>(x.re), conv<float>(x.im)};
}
template <>
GOCCCL_GO_FN complex64 cconv<complex64>(complex64 x) {
  return x;
}
template <>
GOCCCL_GO_FN complex128 cconv<complex128>(complex128 x) {
  return x;
}

namespace detail {

// The helpers of Go's runtime/float.go that complex128div uses.
GOCCCL_GO_FN double rt_abs(double x) { return from64(bits64(x) & ~(uint64_t(1) << 63)); }
GOCCCL_GO_FN double rt_copysign(double x, double y) {
  const uint64_t sign = uint64_t(1) << 63;
  return from64((bits64(x) & ~sign) | (bits64(y) & sign));
}
GOCCCL_GO_FN bool rt_isnan(double f) { return f != f; }
GOCCCL_GO_FN bool rt_isfinite(double f) { return !rt_isnan(fsub<double>(f, f)); }
GOCCCL_GO_FN bool rt_isinf(double f) { return !rt_isnan(f) && !rt_isfinite(f); }
GOCCCL_GO_FN double rt_inf2one(double f) {
  double g = 0.0;
  if (rt_isinf(f)) {
    g = 1.0;
  }
  return rt_copysign(g, f);
}

}  // namespace detail

// cquo is /: runtime.complex128div. The operands of its commutative
// operations are in the order of the runtime's amd64 code (gc swaps some of
// Go's source order), so that NaN payloads are Go's too.
GOCCCL_GO_FN complex128 cquo(complex128 n, complex128 m) {
  using namespace detail;
  const double inf = from64(0x7FF0000000000000ull);
  double e, f;
  if (rt_abs(m.re) >= rt_abs(m.im)) {
    const double ratio = fquo<double>(m.im, m.re);
    const double denom = fadd<double>(fmul<double>(m.im, ratio), m.re);  // real(m) + ratio*imag(m)
    e = fquo<double>(fadd<double>(fmul<double>(n.im, ratio), n.re), denom);  // real(n) + imag(n)*ratio
    f = fquo<double>(fsub<double>(n.im, fmul<double>(ratio, n.re)), denom);  // imag(n) - real(n)*ratio
  } else {
    const double ratio = fquo<double>(m.re, m.im);
    const double denom = fadd<double>(fmul<double>(m.re, ratio), m.im);  // imag(m) + ratio*real(m)
    e = fquo<double>(fadd<double>(fmul<double>(n.re, ratio), n.im), denom);
    f = fquo<double>(fsub<double>(fmul<double>(ratio, n.im), n.re), denom);  // imag(n)*ratio - real(n)
  }
  if (rt_isnan(e) && rt_isnan(f)) {
    double a = n.re, b = n.im;
    double c = m.re, d = m.im;
    if (m == complex128{0, 0} && (!rt_isnan(a) || !rt_isnan(b))) {
      e = fmul<double>(rt_copysign(inf, c), a);
      f = fmul<double>(rt_copysign(inf, c), b);
    } else if ((rt_isinf(a) || rt_isinf(b)) && rt_isfinite(c) && rt_isfinite(d)) {
      a = rt_inf2one(a);
      b = rt_inf2one(b);
      e = fmul<double>(inf, fadd<double>(fmul<double>(a, c), fmul<double>(b, d)));
      f = fmul<double>(inf, fsub<double>(fmul<double>(b, c), fmul<double>(a, d)));
    } else if ((rt_isinf(c) || rt_isinf(d)) && rt_isfinite(a) && rt_isfinite(b)) {
      c = rt_inf2one(c);
      d = rt_inf2one(d);
      e = fmul<double>(0.0, fadd<double>(fmul<double>(a, c), fmul<double>(b, d)));
      f = fmul<double>(0.0, fsub<double>(fmul<double>(b, c), fmul<double>(a, d)));
    }
  }
  return complex128{e, f};
}
GOCCCL_GO_FN complex64 cquo(complex64 n, complex64 m) {
  return cconv<complex64>(cquo(cconv<complex128>(n), cconv<complex128>(m)));
}

namespace cmplx {

GOCCCL_GO_FN double Abs(complex128 x) { return math::Hypot(x.re, x.im); }
GOCCCL_GO_FN complex128 Conj(complex128 x) { return complex128{x.re, fneg(x.im)}; }
GOCCCL_GO_FN double Phase(complex128 x) { return math::Atan2(x.im, x.re); }
GOCCCL_GO_FN pair<double, double> Polar(complex128 x) { return pair<double, double>{Abs(x), Phase(x)}; }
GOCCCL_GO_FN complex128 Inf() {
  const double inf = math::Inf(1);
  return complex128{inf, inf};
}
GOCCCL_GO_FN complex128 NaN() {
  const double nan = math::NaN();
  return complex128{nan, nan};
}
GOCCCL_GO_FN bool IsInf(complex128 x) { return math::IsInf(x.re, 0) || math::IsInf(x.im, 0); }
GOCCCL_GO_FN bool IsNaN(complex128 x) {
  if (math::IsInf(x.re, 0) || math::IsInf(x.im, 0)) {
    return false;
  }
  return math::IsNaN(x.re) || math::IsNaN(x.im);
}

GOCCCL_GO_FN complex128 Rect(double r, double theta) {
  const double s = math::Sin(theta), c = math::Cos(theta);
  return complex128{fmul<double>(r, c), fmul<double>(r, s)};
}

GOCCCL_GO_FN complex128 Exp(complex128 x) {
  const double re = x.re, im = x.im;
  if (math::IsInf(re, 0)) {
    if (re > 0 && im == 0) {
      return x;
    }
    if (math::IsInf(im, 0) || math::IsNaN(im)) {
      if (re < 0) {
        return complex128{0, math::Copysign(0, im)};
      }
      return complex128{math::Inf(1), math::NaN()};
    }
  } else if (math::IsNaN(re)) {
    if (im == 0) {
      return complex128{math::NaN(), im};
    }
  }
  const double r = math::Exp(x.re);
  const double s = math::Sin(x.im), c = math::Cos(x.im);
  return complex128{fmul<double>(r, c), fmul<double>(r, s)};
}

GOCCCL_GO_FN complex128 Log(complex128 x) { return complex128{math::Log(Abs(x)), Phase(x)}; }

GOCCCL_GO_FN complex128 Sqrt(complex128 x) {
  if (x.im == 0) {
    if (x.re == 0) {
      return complex128{0, x.im};
    }
    if (x.re < 0) {
      return complex128{0, math::Copysign(math::Sqrt(fneg(x.re)), x.im)};
    }
    return complex128{math::Sqrt(x.re), x.im};
  } else if (math::IsInf(x.im, 0)) {
    return complex128{math::Inf(1), x.im};
  }
  if (x.re == 0) {
    if (x.im < 0) {
      const double r = math::Sqrt(fmul<double>(-0.5, x.im));
      return complex128{r, fneg(r)};
    }
    const double r = math::Sqrt(fmul<double>(0.5, x.im));
    return complex128{r, r};
  }
  double a = x.re;
  double b = x.im;
  double scale;
  if (math::Abs(a) > 4 || math::Abs(b) > 4) {
    a = fmul<double>(a, 0.25);
    b = fmul<double>(b, 0.25);
    scale = 2;
  } else {
    a = fmul<double>(a, 1.8014398509481984e16);  // 2**54
    b = fmul<double>(b, 1.8014398509481984e16);
    scale = 7.450580596923828125e-9;  // 2**-27
  }
  double r = math::Hypot(a, b);
  double t;
  if (a > 0) {
    t = math::Sqrt(fadd<double>(fmul<double>(0.5, r), fmul<double>(0.5, a)));
    r = fmul<double>(scale, math::Abs(fquo<double>(fmul<double>(0.5, b), t)));
    t = fmul<double>(t, scale);
  } else {
    r = math::Sqrt(fsub<double>(fmul<double>(0.5, r), fmul<double>(0.5, a)));
    t = fmul<double>(scale, math::Abs(fquo<double>(fmul<double>(0.5, b), r)));
    r = fmul<double>(r, scale);
  }
  if (b < 0) {
    return complex128{t, fneg(r)};
  }
  return complex128{t, r};
}

GOCCCL_GO_FN complex128 Pow(complex128 x, complex128 y) {
  if (x == complex128{0, 0}) {
    if (IsNaN(y)) {
      return NaN();
    }
    const double r = y.re, i = y.im;
    if (r == 0) {
      return complex128{1, 0};
    }
    if (r < 0) {
      if (i == 0) {
        return complex128{math::Inf(1), 0};
      }
      return Inf();
    }
    if (r > 0) {
      return complex128{0, 0};
    }
    // r is NaN and y is not (i is ±Inf): Go panics "not reached" here;
    // a kernel cannot, and returns NaN.
    return NaN();
  }
  const double modulus = Abs(x);
  if (modulus == 0) {
    return complex128{0, 0};
  }
  double r = math::Pow(modulus, y.re);
  const double arg = Phase(x);
  double theta = fmul<double>(y.re, arg);
  if (y.im != 0) {
    r = fmul<double>(r, math::Exp(fmul<double>(fneg(y.im), arg)));
    theta = fadd<double>(theta, fmul<double>(y.im, math::Log(modulus)));
  }
  const double s = math::Sin(theta), c = math::Cos(theta);
  return complex128{fmul<double>(r, c), fmul<double>(r, s)};
}

namespace detail {

// sinhcosh is math/cmplx's.
GOCCCL_GO_FN pair<double, double> sinhcosh(double x) {
  if (math::Abs(x) <= 0.5) {
    return pair<double, double>{math::Sinh(x), math::Cosh(x)};
  }
  double e = math::Exp(x);
  const double ei = fquo<double>(0.5, e);
  e = fmul<double>(e, 0.5);
  return pair<double, double>{fsub<double>(e, ei), fadd<double>(e, ei)};
}

}  // namespace detail

GOCCCL_GO_FN complex128 Sin(complex128 x) {
  const double re = x.re, im = x.im;
  if (im == 0 && (math::IsInf(re, 0) || math::IsNaN(re))) {
    return complex128{math::NaN(), im};
  } else if (math::IsInf(im, 0)) {
    if (re == 0) {
      return x;
    }
    if (math::IsInf(re, 0) || math::IsNaN(re)) {
      return complex128{math::NaN(), im};
    }
  } else if (re == 0 && math::IsNaN(im)) {
    return x;
  }
  const double s = math::Sin(x.re), c = math::Cos(x.re);
  const pair<double, double> h = detail::sinhcosh(x.im);
  return complex128{fmul<double>(s, h.r1), fmul<double>(c, h.r0)};
}

GOCCCL_GO_FN complex128 Sinh(complex128 x) {
  const double re = x.re, im = x.im;
  if (re == 0 && (math::IsInf(im, 0) || math::IsNaN(im))) {
    return complex128{re, math::NaN()};
  } else if (math::IsInf(re, 0)) {
    if (im == 0) {
      return complex128{re, im};
    }
    if (math::IsInf(im, 0) || math::IsNaN(im)) {
      return complex128{re, math::NaN()};
    }
  } else if (im == 0 && math::IsNaN(re)) {
    return complex128{math::NaN(), im};
  }
  const double s = math::Sin(x.im), c = math::Cos(x.im);
  const pair<double, double> h = detail::sinhcosh(x.re);
  return complex128{fmul<double>(c, h.r0), fmul<double>(s, h.r1)};
}

GOCCCL_GO_FN complex128 Cos(complex128 x) {
  const double re = x.re, im = x.im;
  if (im == 0 && (math::IsInf(re, 0) || math::IsNaN(re))) {
    return complex128{math::NaN(), fmul<double>(fneg(im), math::Copysign(0, re))};
  } else if (math::IsInf(im, 0)) {
    if (re == 0) {
      return complex128{math::Inf(1), fmul<double>(fneg(re), math::Copysign(0, im))};
    }
    if (math::IsInf(re, 0) || math::IsNaN(re)) {
      return complex128{math::Inf(1), math::NaN()};
    }
  } else if (re == 0 && math::IsNaN(im)) {
    return complex128{math::NaN(), 0};
  }
  const double s = math::Sin(x.re), c = math::Cos(x.re);
  const pair<double, double> h = detail::sinhcosh(x.im);
  return complex128{fmul<double>(c, h.r1), fmul<double>(fneg(s), h.r0)};
}

GOCCCL_GO_FN complex128 Cosh(complex128 x) {
  const double re = x.re, im = x.im;
  if (re == 0 && (math::IsInf(im, 0) || math::IsNaN(im))) {
    return complex128{math::NaN(), fmul<double>(re, math::Copysign(0, im))};
  } else if (math::IsInf(re, 0)) {
    if (im == 0) {
      return complex128{math::Inf(1), fmul<double>(im, math::Copysign(0, re))};
    }
    if (math::IsInf(im, 0) || math::IsNaN(im)) {
      return complex128{math::Inf(1), math::NaN()};
    }
  } else if (im == 0 && math::IsNaN(re)) {
    return complex128{math::NaN(), im};
  }
  const double s = math::Sin(x.im), c = math::Cos(x.im);
  const pair<double, double> h = detail::sinhcosh(x.re);
  return complex128{fmul<double>(c, h.r1), fmul<double>(s, h.r0)};
}

}  // namespace cmplx
}  // namespace go
}  // namespace gocccl
