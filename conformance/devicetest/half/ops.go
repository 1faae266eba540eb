// Package half holds the GPU conformance tests of half.Float16 and
// half.BFloat16 operators (kernels/include/gocccl/gohalf.cuh): every
// method of both types over all 65,536 bit patterns against random and edge
// operands, the conversions from float32 over random bit patterns and the
// rounding midpoints, Reduce of both types over exact sums (and NaN and
// infinity propagation), and TransformReduce that widens to float32 and sums
// there, compared bit for bit with the CPU backend, which runs package half
// itself. Every NaN a half operation returns is the canonical 0x7FFF, so
// NaNs compare exactly too. Its tests skip what needs a GPU when there is
// none, and check the CPU backend against sequential Go loops instead.
package half

//go:generate gocccl-gen

//gocccl:arch sm_90,compute_90

import (
	"math"

	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
)

// Pair16 is two Float16 operands in one element.
type Pair16 struct {
	A, B half.Float16
}

// PairB is two BFloat16 operands in one element.
type PairB struct {
	A, B half.BFloat16
}

// Arith16 holds every result of the methods on one Pair16.
type Arith16 struct {
	Sum, Diff, Prod, Quo, Neg, Abs, Axpy half.Float16
	Wide                                 uint32 // the bits of A.Float32()
	Bits                                 uint16
	Eq, Lt, Le, NaN, Same                bool
}

// ArithB holds every result of the methods on one PairB.
type ArithB struct {
	Sum, Diff, Prod, Quo, Neg, Abs, Axpy half.BFloat16
	Wide                                 uint32 // the bits of A.Float32()
	Bits                                 uint16
	Eq, Lt, Le, NaN, Same                bool
}

// Narrowed is a float32 rounded to both types.
type Narrowed struct {
	H half.Float16
	B half.BFloat16
}

//gocccl:op
func Ops16(p Pair16) Arith16 {
	return Arith16{Sum: p.A.Add(p.B), Diff: p.A.Sub(p.B), Prod: p.A.Mul(p.B), Quo: p.A.Div(p.B),
		Neg: p.A.Neg(), Abs: p.B.Abs(), Axpy: half.FromFloat32(0.5).Mul(p.A).Add(p.B),
		Wide: math.Float32bits(p.A.Float32()), Bits: uint16(p.A) ^ p.B.Bits(),
		Eq: p.A.Eq(p.B), Lt: p.A.Lt(p.B), Le: p.A.Le(p.B), NaN: p.A.IsNaN(), Same: p.A == p.B}
}

//gocccl:op
func OpsB(p PairB) ArithB {
	return ArithB{Sum: p.A.Add(p.B), Diff: p.A.Sub(p.B), Prod: p.A.Mul(p.B), Quo: p.A.Div(p.B),
		Neg: p.A.Neg(), Abs: p.B.Abs(), Axpy: half.BFloat16FromFloat32(0.5).Mul(p.A).Add(p.B),
		Wide: math.Float32bits(p.A.Float32()), Bits: uint16(p.A) ^ p.B.Bits(),
		Eq: p.A.Eq(p.B), Lt: p.A.Lt(p.B), Le: p.A.Le(p.B), NaN: p.A.IsNaN(), Same: p.A == p.B}
}

//gocccl:op
func Narrow(f float32) Narrowed {
	return Narrowed{H: half.FromFloat32(f), B: half.BFloat16FromFloat32(f)}
}

//gocccl:op
func Add16(a, b half.Float16) half.Float16 { return a.Add(b) }

//gocccl:op
func AddB(a, b half.BFloat16) half.BFloat16 { return a.Add(b) }

//gocccl:op
func Widen(h half.Float16) float32 { return h.Float32() }

//gocccl:op
func WidenB(b half.BFloat16) float32 { return b.Float32() }

//gocccl:op
func Add32(a, b float32) float32 { return a + b }

var (
	Ops16T    = runtime.UnaryTransform(Ops16)
	OpsBT     = runtime.UnaryTransform(OpsB)
	NarrowT   = runtime.UnaryTransform(Narrow)
	AddPair16 = runtime.BinaryTransform(Add16)
	Sum16     = runtime.Reduce(Add16)
	SumB      = runtime.Reduce(AddB)
	WideSum   = runtime.TransformReduce(Widen, Add32)
	WideSumB  = runtime.TransformReduce(WidenB, Add32)
)
