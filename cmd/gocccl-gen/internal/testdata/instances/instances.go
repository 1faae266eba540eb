// Package instances declares algorithm instances whose operators gocccl-gen
// cannot generate for.
package instances

import (
	"math"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/otherops"
	"github.com/gocccl/gocccl/runtime"
)

// T has a method.
type T int32

// Add adds.
func (T) Add(a, b int32) int32 { return a + b }

func helper(a, b int32) int32 { return a + b }

func generic[E int32 | int64](a, b E) E { return a + b }

var fv = helper

//gocccl:op
func Good(a, b int32) int32 { return a + b }

//gocccl:op
func Bad(a, b int32) (int32, int32) { return a, b } // several results are allowed; no algorithm takes such an operator

var (
	A = runtime.Reduce(func(a, b int32) int32 { return a + b }) // want `closures cannot be operators: operators must be named //gocccl:op functions; declare one and pass it to runtime.Reduce`
	B = runtime.Reduce(helper)                                  // want `helper is not a //gocccl:op function: mark it with //gocccl:op to use it with runtime.Reduce`
	C = runtime.Reduce(fv)                                      // want `fv is a variable: operators must be named //gocccl:op functions, not function values`
	D = runtime.Reduce(T(0).Add)                                // want `method value T\(0\).Add binds its receiver once, where the instance is declared: declare runtime.ReduceWith\(T.Add\) and give the receiver to each call`
	E = runtime.Reduce(otherops.Add)                            // operators of other packages may be instantiated here
	F = runtime.Reduce[int32]                                   // want `runtime.Reduce must be called with a //gocccl:op function: gocccl-gen cannot follow it as a value`
	G = runtime.Reduce(generic[int32])                          // want `generic functions cannot be operators`
	H = runtime.BinaryTransform(Good)
	I = runtime.Reduce(Ωmega)             // want `operator Ωmega has a non-ASCII name: its kernels are C symbols named after it; give it an ASCII name to use it with runtime.Reduce`
	J = runtime.BinaryTransform(math.Max) // want `math.Max is not a //gocccl:op function: wrap it in one of your own, e.g. //gocccl:op func Max\(x float64, y float64\) float64 { return math.Max\(x, y\) }`
)

//gocccl:op
func Ωmega(a, b int32) int32 { return a ^ b }

func declare() {
	f := runtime.UnaryTransform[int32, int32] // want `runtime.UnaryTransform must be called`
	_ = f
}

func saxpy(alpha float32) {
	_ = runtime.BinaryTransform(func(x, y float32) float32 { return alpha*x + y }) // want `operators cannot capture variables: put alpha in a state struct and write a method: //gocccl:op func \(s S\) Op\(x float32, y float32\) float32, reading s.alpha; declare runtime.BinaryTransformWith\(S.Op\) and run it with .Bind\(S\{alpha: alpha\}\).Run\(…\)`
}

// Axpy is per-call state.
type Axpy struct{ Alpha float32 }

//gocccl:op
func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }

// Scale is another state.
type Scale float32

//gocccl:op
func (s Scale) Mul(x float32) float32 { return float32(s) * x }

// NotOp is a method without the directive.
func (p Axpy) NotOp(x, y float32) float32 { return x }

var (
	K = runtime.BinaryTransformWith(Axpy.Apply) // a stateful instance
	L = runtime.UnaryTransformWith(Scale.Mul)
	M = runtime.BinaryTransformWith(Axpy.NotOp) // want `Axpy.NotOp is not a //gocccl:op method: mark it with //gocccl:op to use it with runtime.BinaryTransformWith`
	O = runtime.UnaryTransform(Scale(2).Mul)    // want `method value Scale\(2\).Mul binds its receiver once, where the instance is declared: declare runtime.UnaryTransformWith\(Scale.Mul\)`
)
