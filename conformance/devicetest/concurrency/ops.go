// Package concurrency holds the concurrency test of issue 13: many
// goroutines over a few streams issuing thousands of mixed calls on one
// device, every result checked against a sequential loop. It runs on the
// GPU when there is one and on the CPU backend always.
package concurrency

//go:generate gocccl-gen

//gocccl:arch sm_90

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Add(a, b int64) int64 { return a + b }

//gocccl:op
func MaxF(a, b float32) float32 { return max(a, b) }

//gocccl:op
func Even(x uint32) bool { return x%2 == 0 }

//gocccl:op
func Double(x float32) float32 { return 2 * x }

// The instances the goroutines mix.
var (
	Sum    = runtime.Reduce(Add)
	Max    = runtime.Reduce(MaxF)
	Prefix = runtime.InclusiveScan(Add)
	Evens  = runtime.Select(Even)
	Twice  = runtime.UnaryTransform(Double)
	Sort   = runtime.RadixSortKeys[uint32]()
)
