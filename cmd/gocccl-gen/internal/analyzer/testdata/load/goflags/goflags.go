// Package goflags declares its instance in a file that only the build tag
// foo includes, as set in GOFLAGS.
package goflags

//gocccl:op
func Add(a, b int32) int32 { return a + b }
