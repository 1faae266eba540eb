// Package reject_transformnm misuses the N×M transforms and TransformIfWith.
package reject_transformnm

import "github.com/gocccl/gocccl/runtime"

// Window is the state of a TransformIfWith.
type Window struct{ Lo, Hi int32 }

//gocccl:op
func (w Window) Twice(x int32) int32 { return 2 * x }

//gocccl:op
func (w Window) Inside(x int32) bool { return x >= w.Lo && x < w.Hi }

// Outside has the state as a parameter, not as its receiver.
//
//gocccl:op
func Outside(w Window, x int32) bool { return x < w.Lo || x >= w.Hi }

// Split has the state as a parameter, not as its receiver.
//
//gocccl:op
func Split(w Window, x int32) (int32, int32) { return x - w.Lo, w.Hi - x }

//gocccl:op
func Halves(x uint64) (uint32, uint32) { return uint32(x), uint32(x >> 32) }

// View is not a result of an operator.
//
//gocccl:op
func Viewed(x int32) (int32, runtime.View[int32]) { return x, runtime.View[int32]{} } // want `holds a runtime.View`

func helper(a, b float32) (float32, float32) { return a, b }

var (
	A = runtime.TransformIfWith(Window.Twice, Outside)                             // want `operator Outside of runtime.TransformIfWith is not a method of the state Window: it takes the state as its first parameter; write //gocccl:op func \(w Window\) Outside\(x int32\) bool and pass Window.Outside`
	B = runtime.Transform1x2With(Split)                                            // want `runtime.Transform1x2With takes a method of the state type`
	C = runtime.Transform2x2(helper)                                               // want `helper is not a //gocccl:op function: mark it with //gocccl:op to use it with runtime.Transform2x2`
	D = runtime.Transform1x2(func(x uint64) (uint32, uint32) { return Halves(x) }) // want `closures cannot be operators`
	E = runtime.Transform1x2(Viewed)                                               // want `element type R2 = .*runtime.View\[int32\] holds a runtime.View`
)
