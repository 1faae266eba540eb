// Package syntaxerr does not parse: an expression is cut off.
package syntaxerr

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Add(a, b int32) int32 {
	x := a +
	return a + b
}

var Sum = runtime.Reduce(Add)
