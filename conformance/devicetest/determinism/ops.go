// Package determinism holds the GPU conformance tests of the determinism
// modes of Reduce and TransformReduce (runtime.Determinism): GPUToGPU's
// results equal the CPU backend's bit for bit, floats and a non-associative
// operator included; RunToRun's repeat bit for bit; NotGuaranteed's are
// within rounding of the exact sum. Without a GPU the tests compare the
// CPU backend with itself.
package determinism

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

//gocccl:op
func AddUint64(a, b uint64) uint64 { return a + b }

//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func AddFloat64(a, b float64) float64 { return a + b }

// Mix is neither associative nor commutative: its result names the tree.
//
//gocccl:op
func Mix(a, b uint64) uint64 { return a*0x9E3779B97F4A7C15 + b ^ a>>29 }

//gocccl:op
func Square(x float32) float64 { return float64(x) * float64(x) }

// The instances, in their default mode; the tests derive the others with
// WithDeterminism.
var (
	SumInt32   = runtime.Reduce(AddInt32)
	SumUint64  = runtime.Reduce(AddUint64)
	SumFloat32 = runtime.Reduce(AddFloat32)
	SumFloat64 = runtime.Reduce(AddFloat64)
	MixUint64  = runtime.Reduce(Mix)
	SumSquares = runtime.TransformReduce(Square, AddFloat64)
)

// ExactSumFloat32 is declared in GPUToGPU mode where it is declared.
var ExactSumFloat32 = runtime.Reduce(AddFloat32).WithDeterminism(runtime.GPUToGPU)
