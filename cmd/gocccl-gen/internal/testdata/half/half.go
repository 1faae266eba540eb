// Package half: half.Float16 and half.BFloat16 in operators, struct fields
// and arrays, through package half's functions and methods (folded when
// their arguments are constants), bit-pattern constants and conversions to
// and from uint16, and == and != (which compare bit patterns, as in Go).
package half

import "github.com/gocccl/gocccl/half"

// Sample holds half values in a struct and an array.
type Sample struct {
	Tag  int8
	H    half.Float16
	Taps [3]half.BFloat16
}

//gocccl:op
func Add(a, b half.Float16) half.Float16 { return a.Add(b) }

//gocccl:op
func Axpy(a, x, y half.BFloat16) half.BFloat16 { return a.Mul(x).Add(y) }

//gocccl:op
func Widen(h half.Float16) float32 { return h.Float32() * 2 }

//gocccl:op
func Narrow(f float32) half.Float16 {
	h := half.FromFloat32(f)
	one := half.FromFloat32(1) // folded: 0x3C00
	if h.IsNaN() || h == half.NaN16 {
		return one.Neg()
	}
	if h.Lt(one) || !h.Le(one) && h.Eq(one) {
		return h.Div(one).Sub(one).Abs()
	}
	return half.Float16(uint16(h) | 1)
}

//gocccl:op
func Bits(b half.BFloat16) uint16 {
	var z half.BFloat16
	if b != z {
		return b.Bits() ^ uint16(half.BFloat16FromFloat32(f32(b)))
	}
	return uint16(b)
}

//gocccl:op
func f32(b half.BFloat16) float32 { return b.Div(b.Neg()).Float32() }

//gocccl:op
func Mean(s Sample) Sample {
	var acc float32
	for i := range s.Taps {
		acc += s.Taps[i].Float32()
	}
	s.H = half.FromFloat32(acc / 3)
	s.Taps[0] = half.BFloat16FromFloat32(acc)
	return s
}
