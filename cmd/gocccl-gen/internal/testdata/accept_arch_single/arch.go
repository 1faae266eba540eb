// Package accept_arch_single names its targets once, out of order and with
// a duplicate; the model holds them sorted.
package accept_arch_single

//gocccl:arch compute_90,sm_90, sm_80 sm_80 // Ampere and Hopper, PTX for newer GPUs

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Add(a, b int32) int32 { return a + b }

var Sum = runtime.Reduce(Add)
