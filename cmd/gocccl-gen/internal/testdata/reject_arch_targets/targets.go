// Package reject_arch_targets names targets nvcc does not spell so.
package reject_arch_targets

//gocccl:arch sm_80,sm90,compute_9x // want `bad target "sm90" in //gocccl:arch: want sm_XY` `bad target "compute_9x"`

//gocccl:arch // want `//gocccl:arch names no targets: write e.g. //gocccl:arch sm_80,sm_90,compute_90`

//gocccl:arch , // trailing words are a comment // want `//gocccl:arch names no targets`

//gocccl:arch -arch=sm_80 sm_080 SM_80 // want `bad target "-arch=sm_80"` `bad target "sm_080"` `bad target "SM_80"`

//gocccl:archs sm_80 // want `unknown directive //gocccl:archs: did you mean //gocccl:arch\?`

//gocccl:target sm_80 // want `unknown directive //gocccl:target: did you mean //gocccl:arch\?`

//gocccl:op
func Add(a, b int32) int32 { return a + b }
