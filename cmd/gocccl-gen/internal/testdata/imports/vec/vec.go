// Package vec holds operators that package imports calls.
package vec

import "github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/imports/zz"

// V is a 2-vector.
type V struct{ X, Y float32 }

//gocccl:op
func Dot(a, b V) float32 { return a.X*b.X + a.Y*b.Y }

//gocccl:op
func Scale(v V, k float32) V { return V{v.X * k, v.Y * k} }

//gocccl:op
func Len2(v V) float32 { return zz.Half(Dot(v, v)) * 2 }

//gocccl:op
func Unused(a int32) int32 { return a }
