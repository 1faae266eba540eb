// Package imports calls the operators of another package.
package imports

import (
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/imports/vec"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/otherops"
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Norm(x, y float32) float32 {
	v := vec.Scale(vec.V{X: x, Y: y}, 2)
	return vec.Len2(v)
}

//gocccl:op
func Sum(a, b int32) int32 { return otherops.Add(a, b) }

var (
	_ = runtime.BinaryTransform(Norm)
	_ = runtime.Reduce(Sum)
	// Instances of other packages' operators are compiled here too.
	_ = runtime.BinaryTransform(vec.Dot)
	_ = runtime.Reduce(otherops.Add)
	_ = runtime.Reduce(otherops.Add) // the same instance once
)
