// Package ops holds the operators and instances that the GPU benchmark times
// against CUB's device-level calls.
package ops

//go:generate gocccl-gen

import "github.com/gocccl/gocccl/runtime"

// AddInt32 is the sum of cub::DeviceReduce::Sum over int32.
//
//gocccl:op
func AddInt32(a, b int32) int32 { return a + b }

// AddFloat32 is the sum of cub::DeviceReduce::Sum over float32.
//
//gocccl:op
func AddFloat32(a, b float32) float32 { return a + b }

// AddUint64 is the sum of cub::DeviceReduce::Sum over uint64.
//
//gocccl:op
func AddUint64(a, b uint64) uint64 { return a + b }

// AddFloat32Fast is AddFloat32 with fastmath: a NaN result is the GPU's own,
// with no check for amd64's payload. The two sums side by side time what
// NaN-exact float arithmetic costs.
//
//gocccl:op fastmath
func AddFloat32Fast(a, b float32) float32 { return a + b }

// Benchmarked instances.
var (
	SumInt32       = runtime.Reduce(AddInt32)
	SumFloat32     = runtime.Reduce(AddFloat32)
	SumFloat32Fast = runtime.Reduce(AddFloat32Fast)
	SumUint32      = runtime.Reduce(AddUint32)
	SumUint64      = runtime.Reduce(AddUint64)
	SumFloat64     = runtime.Reduce(AddFloat64)
)
