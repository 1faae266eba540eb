// Package stateiters declares stateful instances over iterator
// compositions, good and bad: Go types a Stateful's Over and Into only as
// compositions of any value type, so the analyzer checks them.
package stateiters

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Axpy is a saxpy's state.
type Axpy struct{ Alpha float32 }

//gocccl:op
func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }

// Mod is a modulus.
type Mod struct{ M int32 }

//gocccl:op
func (m Mod) Add(a, b int32) int32 { return (a + b) % m.M }

//gocccl:op
func (m Mod) Odd(x int32) bool { return x%m.M != 0 }

//gocccl:op
func (m Mod) Less(a, b int32) bool { return a%m.M < b%m.M }

//gocccl:op
func (m Mod) Wrap(x int32) int32 { return x % m.M }

//gocccl:op
func Square(x int32) int32 { return x * x }

//gocccl:op
func Half(x float32) float32 { return x / 2 }

var (
	Count = it.Counting[int32]()
	Xs    = it.Slice[int32]()
	Fs    = it.Slice[float32]()
	Idx   = it.Slice[int64]()

	Squares = it.Transform(Count, Square)
	Halves  = it.Transform(Fs, Half)
)

var (
	Good1 = runtime.ReduceWith(Mod.Add).Over(Squares)
	Good2 = runtime.BinaryTransformWith(Axpy.Apply).Over(it.Permutation(Fs, Idx), nil).Into(it.TransformOutput(Fs, Half))
	Good3 = runtime.SelectWith(Mod.Odd).Over(Squares)
	Good4 = runtime.InclusiveScanWith(Mod.Add).Into(it.Discard[int32]())
	Good5 = runtime.MergeSortKeysWith(Mod.Less).Over(it.Reverse(Xs))
	Good6 = runtime.BinaryTransformWith(Axpy.Apply).Over(Halves, it.Slice[float32]())

	Bad1 = runtime.ReduceWith(Mod.Add).Over(Halves)                            // want `runtime.ReduceWith\(Mod.Add\).Over: Halves reads float32 but its input in is int32: declare a composition of int32`
	Bad2 = runtime.BinaryTransformWith(Axpy.Apply).Over(Fs, Squares)           // want `Squares reads int32 but its input b is float32`
	Bad3 = runtime.UnaryTransformWith(Mod.Wrap).Into(it.Discard[float32]())    // want `Into: it.Discard\[float32\]\(\) accepts float32 but its output out is int32`
	Bad4 = runtime.ForEachWith(Mod.Wrap).Over(Xs)                              // want `runtime.ForEach reads no input through iterator compositions; run it over Slices`
	Bad5 = runtime.SelectWith(Mod.Odd).Over(Squares, Squares)                  // want `runtime.SelectWith\(Mod.Odd\).Over takes 1 composition \(in\), as runtime.Select.s Over does, not 2`
	Bad6 = runtime.ReduceWith(Mod.Add).Over([]runtime.AnyIterator{Squares}...) // want `list the compositions one by one`
	Bad8 = runtime.MergeSortKeysWith(Mod.Less).Into(Xs)                        // want `runtime.MergeSortKeys writes no output through iterator compositions`
)

// held is an instance in a variable: Over on it cannot be followed.
var held = runtime.ReduceWith(Mod.Add)

var Bad9 = held.Over(Squares) // want `Over must be called on the runtime constructor's result`
