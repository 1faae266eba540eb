// Package complex: complex64 and complex128 in operators, struct fields
// and arrays, with the built-ins complex, real and imag, untyped complex
// constants, conversions and the supported functions of math/cmplx.
package complex

import "math/cmplx"

// Phasor holds complex values in a struct and an array.
type Phasor struct {
	Tag  int8
	Z    complex64
	Taps [3]complex128
}

// Amp is a named complex type.
type Amp complex128

//gocccl:op
func Add(a, b complex64) complex64 { return a + b }

//gocccl:op
func Mul(a, b complex128) complex128 { return a*b - 1i }

//gocccl:op
func Div(a, b complex128) complex128 { return a / b }

//gocccl:op
func Parts(re, im float32) float32 {
	c := complex(re, im)
	c *= 2 + 0.5i
	return real(c) - imag(c)
}

//gocccl:op
func Narrow(a complex128) complex64 {
	x := complex64(a)
	x++
	x = -x
	if x == 2 || x != x {
		return 0
	}
	return x
}

//gocccl:op
func Funcs(a complex128) complex128 {
	r, th := cmplx.Polar(a)
	z := cmplx.Exp(a) + cmplx.Log(a) + cmplx.Sqrt(a) + cmplx.Pow(a, 0.5) + cmplx.Sin(a) + cmplx.Cos(a)
	z += cmplx.Conj(a) + cmplx.Rect(r, th) + complex(cmplx.Abs(a)+cmplx.Phase(a), 0)
	if cmplx.IsNaN(z) || cmplx.IsInf(z) {
		return cmplx.NaN() + cmplx.Inf()
	}
	return z
}

//gocccl:op
func Scale(p Phasor) Phasor {
	var acc complex128
	for i := range p.Taps {
		acc += p.Taps[i]
	}
	p.Z = complex64(acc) / p.Z
	p.Taps[0] = complex128(Amp(acc) * 3i)
	return p
}
