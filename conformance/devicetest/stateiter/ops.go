// Package stateiter holds the GPU conformance tests of per-call state and
// iterator compositions together: instances declared with a stateful
// constructor and Over or Into (runtime.ReduceWith(Lut.AddMod).Over(…)),
// whose kernels take the state argument and the iterator structs at once,
// with the compositions' own operators plain while the algorithm's is a
// method of the state, and a state holding a View read beside a
// composition. Each is compared on the GPU against the CPU backend, and
// both against a sequential loop, into poisoned outputs. Without a GPU the
// tests run the CPU backend against the loops.
package stateiter

//go:generate gocccl-gen

//gocccl:arch sm_90

import (
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Lut is the state of every instance: a scale, a modulus and a read-only
// table of a device buffer.
type Lut struct {
	Alpha float32
	M     int32
	Table runtime.View[float32]
}

// Axpy is Alpha*x + y, rounded twice as Go does (no fused multiply-add).
//
//gocccl:op
func (l Lut) Axpy(x, y float32) float32 { return l.Alpha*x + y }

// AddMod is (a + b) mod M: associative and commutative over [0, 2^30).
//
//gocccl:op
func (l Lut) AddMod(a, b int32) int32 { return (a + b) % l.M }

// Keep reports whether x mod M is in the lower half of [0, M).
//
//gocccl:op
func (l Lut) Keep(x int32) bool { return x%l.M < l.M/2 }

// Less orders by x mod M, so many keys are equivalent and stability shows.
//
//gocccl:op
func (l Lut) Less(a, b int32) bool { return a%l.M < b%l.M }

// Get is Alpha times the table's entry at x modulo its length.
//
//gocccl:op
func (l Lut) Get(x int32) float32 { return l.Alpha * l.Table.At(int(x)%l.Table.Len()) }

// Low keeps the low 16 bits of x: a plain operator of the compositions.
//
//gocccl:op
func Low(x int32) int32 { return x & 0xffff }

// Half is x / 2: the plain operator of a TransformOutput.
//
//gocccl:op
func Half(x float32) float32 { return x / 2 }

// The compositions, their leaves bound per call.
var (
	Count = it.Counting[int32]()
	Ints  = it.Slice[int32]()
	Fs    = it.Slice[float32]()
	Idx   = it.Slice[int64]()

	Lows     = it.Transform(Count, Low)
	Gathered = it.Permutation(Fs, Idx)
	HalfOut  = it.TransformOutput(Fs, Half)
	Picked   = it.Transform(it.Permutation(Ints, Idx), Low)
	Back     = it.ReverseOutput(Ints)
)

// The instances: each compiled once, with its state and its compositions.
var (
	SumLows  = runtime.ReduceWith(Lut.AddMod).Over(Lows)
	Saxpy    = runtime.BinaryTransformWith(Lut.Axpy).Over(Gathered, nil).Into(HalfOut)
	KeepSome = runtime.SelectWith(Lut.Keep).Over(Picked)
	LookUp   = runtime.UnaryTransformWith(Lut.Get).Over(Picked)
	ScanBack = runtime.InclusiveScanWith(Lut.AddMod).Over(Lows).Into(Back)
	SortBy   = runtime.MergeSortKeysWith(Lut.Less).Over(Picked)
)
