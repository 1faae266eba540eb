// Package transformnm declares the N×M transforms: operators of several
// inputs and several results, plainly, with state, and TransformIfWith.
package transformnm

import (
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/results"
	"github.com/gocccl/gocccl/runtime"
)

// Pair is a struct result.
type Pair struct{ Lo, Hi int32 }

//gocccl:op
func Axpb(a, x, b float32) float32 { return a*x + b }

//gocccl:op
func Sum4(a int8, b int16, c int32, d int64) int64 { return int64(a) + int64(b) + int64(c) + d }

//gocccl:op
func Lerp2(a, b, w float32) (lo, hi float32) {
	lo = a + (b-a)*w
	hi = b + (a-b)*w
	return
}

//gocccl:op
func Fan3(x uint8) (uint8, Pair, bool) { return x, Pair{Lo: int32(x), Hi: -int32(x)}, x > 7 }

// Blend is per-call state.
type Blend struct{ W float32 }

//gocccl:op
func (s Blend) Apply(a, b float32) (float32, float32) { return a * s.W, b * (1 - s.W) }

// Window is the state of a TransformIfWith.
type Window struct{ Lo, Hi int32 }

//gocccl:op
func (w Window) Twice(x int32) int32 { return 2 * x }

//gocccl:op
func (w Window) Inside(x int32) bool { return x >= w.Lo && x < w.Hi }

var (
	T3   = runtime.Transform3(Axpb)
	T4   = runtime.Transform4(Sum4)
	T3x2 = runtime.Transform3x2(Lerp2)
	T1x3 = runtime.Transform1x3(Fan3)
	// An operator of several results from another package.
	T2x2 = runtime.Transform2x2(results.DivMod)
	B2x2 = runtime.Transform2x2With(Blend.Apply)
	TIf  = runtime.TransformIfWith(Window.Twice, Window.Inside)
)
