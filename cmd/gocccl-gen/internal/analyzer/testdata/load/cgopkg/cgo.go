// Package cgopkg uses cgo in every file: go/packages type-checks the files
// cgo writes into the build cache instead, but the package's directory is
// this one.
package cgopkg

import "C"

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Add(a, b int32) int32 { return a + b }

var _ = runtime.Reduce(Add)
