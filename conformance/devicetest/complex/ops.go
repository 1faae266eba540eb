// Package complex holds the GPU conformance tests of complex64 and
// complex128 operators (kernels/include/gocccl/gocomplex.cuh): + - * / over
// random values and the Inf, NaN and ±0 edge cases, conversions, Reduce and
// InclusiveScan with complex add and multiply, ExclusiveScan, TransformReduce
// and a Reduce of a struct of complex fields, and transforms through
// math/cmplx, compared bit for bit on the GPU against Go's results, which
// the CPU backend's are (a NaN matches any NaN: which payload Go's amd64
// code gives depends on gc's operand order; the sign of zero counts). Its tests skip what needs a GPU when
// there is none, and compare the CPU backend with Go's own results instead.
package complex

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import (
	"math/cmplx"

	"github.com/gocccl/gocccl/runtime"
)

// Pair is two complex operands in one element.
type Pair struct {
	A, B complex128
}

// Pair64 is two complex64 operands in one element.
type Pair64 struct {
	A, B complex64
}

// Arith holds every result of the arithmetic on one Pair.
type Arith struct {
	Sum, Diff, Prod, Quo complex128
	Neg                  complex128
	Eq, Ne               bool
}

// Arith64 holds every result of the arithmetic on one Pair64, and the
// conversions.
type Arith64 struct {
	Sum, Diff, Prod, Quo complex64
	Wide                 complex128
	Narrow               complex64
	Eq                   bool
}

// Funcs holds the math/cmplx results of one value.
type Funcs struct {
	Exp, Log, Sqrt, Pow, Sin, Cos, Sinh, Cosh, Conj, Rect complex128
	Abs, Phase, R, Theta                                  float64
	NaN, Inf                                              bool
}

//gocccl:op
func Ops(p Pair) Arith {
	return Arith{Sum: p.A + p.B, Diff: p.A - p.B, Prod: p.A * p.B, Quo: p.A / p.B, Neg: -p.A, Eq: p.A == p.B, Ne: p.A != p.B}
}

//gocccl:op
func Ops64(p Pair64) Arith64 {
	w := complex128(p.A)
	return Arith64{Sum: p.A + p.B, Diff: p.A - p.B, Prod: p.A * p.B, Quo: p.A / p.B,
		Wide: w * 3i, Narrow: complex64(w / complex128(p.B)), Eq: p.A == p.B}
}

//gocccl:op
func Cmplx(a complex128) Funcs {
	r, th := cmplx.Polar(a)
	return Funcs{Exp: cmplx.Exp(a), Log: cmplx.Log(a), Sqrt: cmplx.Sqrt(a), Pow: cmplx.Pow(a, complex(0.5, imag(a))),
		Sin: cmplx.Sin(a), Cos: cmplx.Cos(a), Sinh: cmplx.Sinh(a), Cosh: cmplx.Cosh(a), Conj: cmplx.Conj(a),
		Rect: cmplx.Rect(real(a), imag(a)), Abs: cmplx.Abs(a), Phase: cmplx.Phase(a), R: r, Theta: th,
		NaN: cmplx.IsNaN(a), Inf: cmplx.IsInf(a)}
}

//gocccl:op
func ExpScaled(a complex64) complex64 {
	return complex64(cmplx.Exp(complex128(a)*(0.5+0.25i))) + complex(real(a), 1)
}

//gocccl:op
func Rot(a complex64) complex128 { return complex128(a) * 1i }

//gocccl:op
func AddPair(p, q Pair) Pair { return Pair{p.A + q.A, p.B + q.B} }

//gocccl:op
func Add64(a, b complex64) complex64 { return a + b }

//gocccl:op
func Add128(a, b complex128) complex128 { return a + b }

//gocccl:op
func Mul128(a, b complex128) complex128 { return a * b }

//gocccl:op
func Mul64(a, b complex64) complex64 { return a * b }

var (
	OpsT       = runtime.UnaryTransform(Ops)
	Ops64T     = runtime.UnaryTransform(Ops64)
	CmplxT     = runtime.UnaryTransform(Cmplx)
	ExpT       = runtime.UnaryTransform(ExpScaled)
	Sum64      = runtime.Reduce(Add64)
	Sum128     = runtime.Reduce(Add128)
	Prod128    = runtime.Reduce(Mul128)
	Prod64     = runtime.Reduce(Mul64)
	Prefix64   = runtime.InclusiveScan(Add64)
	Prefix128  = runtime.InclusiveScan(Add128)
	PrefixMul  = runtime.InclusiveScan(Mul128)
	Mul128Pair = runtime.BinaryTransform(Mul128)
	PrefixEx   = runtime.ExclusiveScan(Add128)
	RotSum     = runtime.TransformReduce(Rot, Add128)
	SumPair    = runtime.Reduce(AddPair)
)
