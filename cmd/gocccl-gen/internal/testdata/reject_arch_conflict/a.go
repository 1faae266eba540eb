// Package reject_arch_conflict names different targets in two places.
package reject_arch_conflict

//gocccl:arch sm_80,sm_90

//gocccl:arch sm_90,sm_80

//gocccl:arch sm_90,compute_90 // want `//gocccl:arch sm_90,compute_90 conflicts with //gocccl:arch sm_80,sm_90 at a.go:4:1: a package has one list of targets`
