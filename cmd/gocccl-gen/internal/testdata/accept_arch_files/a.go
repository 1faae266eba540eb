// Package accept_arch_files repeats the same targets in two files, spelt
// differently.
package accept_arch_files

//gocccl:arch sm_75,sm_86,compute_86

//gocccl:op
func Mul(a, b float64) float64 { return a * b }
