// Package state declares operators with per-call state: methods whose
// value receiver is the state, instantiated with the stateful constructors.
package state

import "github.com/gocccl/gocccl/runtime"

// Axpy is a struct state.
type Axpy struct{ Alpha float32 }

// Apply is alpha*x + y.
//
//gocccl:op
func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }

// Scale is a named scalar state; its method has an unnamed receiver use.
type Scale int32

// Mul multiplies by the state, calling a plain operator.
//
//gocccl:op
func (s Scale) Mul(x int32) int32 { return twice(int32(s)) * x / 2 }

//gocccl:op
func twice(x int32) int32 { return 2 * x }

// Limits is a state with padding and an array.
type Limits struct {
	On  bool
	Lo  float64
	Hi  [2]int16
	Tag uint8
}

// Clamp reduces with a bound given per call.
//
//gocccl:op
func (l Limits) Clamp(a, b float64) float64 {
	s := a + b
	if l.On {
		s = min(max(s, l.Lo), float64(l.Hi[0]))
	}
	return s
}

// Keep selects per call.
//
//gocccl:op
func (l Limits) Keep(x float64) bool { return x >= l.Lo }

var (
	Saxpy = runtime.BinaryTransformWith(Axpy.Apply)
	Times = runtime.UnaryTransformWith(Scale.Mul)
	Sum   = runtime.ReduceWith(Limits.Clamp)
	Scan  = runtime.InclusiveScanWith(Limits.Clamp)
	Pick  = runtime.SelectWith(Limits.Keep)
	Plain = runtime.UnaryTransform(twice)
)

// Pair is an element of a viewed table.
type Pair struct{ Lo, Hi int32 }

// Lookup holds read-only views of buffers with a scalar: a lookup table, a
// table of structs, and views in an array of a nested struct.
type Lookup struct {
	Scale float32
	Table runtime.View[float32]
	Inner Tables
}

// Tables is a nested struct of views.
type Tables struct{ R [2]runtime.View[Pair] }

// Get reads the table at a computed index, and its length.
//
//gocccl:op
func (l Lookup) Get(i uint8) float32 {
	t := l.Table
	return l.Scale * t.At(int(i)%l.Table.Len())
}

// In reports whether x lies in one of the pairs of the first table.
//
//gocccl:op
func (l Lookup) In(x int32) bool {
	for i := range l.Inner.R[0].Len() {
		p := l.Inner.R[0].At(i)
		if x >= p.Lo && x < p.Hi {
			return true
		}
	}
	return false
}

var (
	Lut   = runtime.UnaryTransformWith(Lookup.Get)
	InAny = runtime.SelectWith(Lookup.In)
)
