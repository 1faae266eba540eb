// Package callrules holds operators that call what they may not.
package callrules

import (
	"fmt"
	"math"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/otherops"
)

// T has a method.
type T int32

// Twice doubles t.
func (t T) Twice() T { return t * 2 }

func helper(a int32) int32 { return a }

var (
	fv    = func(a int32) int32 { return a }
	slice []int32
)

//gocccl:op
func Print(a int32) int32 {
	fmt.Println(a) // want `calls to fmt.Println are not allowed: operators may call only //gocccl:op functions, min, max, complex, real, imag, and the supported functions of math, math/bits and math/cmplx`
	return a
}

//gocccl:op
func Gamma(a float64) float64 {
	return math.Gamma(a) // want `math.Gamma is not supported in operators: the supported functions of math are`
}

//gocccl:op
func Helper(a int32) int32 {
	return helper(a) // want `helper is not a //gocccl:op function: mark it with //gocccl:op to call it from an operator`
}

//gocccl:op
func Method(a T) T {
	return a.Twice() // want `calls to method Twice are not allowed: operators may call only other //gocccl:op functions`
}

//gocccl:op
func Other(a, b int32) int32 {
	return otherops.Add(a, b) // operators of other packages may be called
}

//gocccl:op
func Value(a int32) int32 {
	return fv(a) // want `calls through function values are not allowed in operators: call a //gocccl:op function by name`
}

//gocccl:op
func Panic(a int32) int32 {
	if a < 0 {
		panic("negative") // want `panic is not allowed in operators: operators cannot fail; return a value instead`
	}
	return a
}

//gocccl:op
func Min(a, b int32) int32 {
	return min(a, b) // accepted: min and max are intrinsics
}

//gocccl:op
func Len(a int) int {
	return a + len(slice) // want `built-in len is not allowed in operators: operators have no slices, strings or maps`
}

//gocccl:op
func Println(a int32) int32 {
	println(a) // want `println is not allowed in operators: operators cannot print`
	return a
}

//gocccl:op
func New(a int32) int32 {
	_ = new(int32) // want `new is not allowed in operators: operators cannot allocate memory`
	return a
}

//gocccl:op
func Generic(a int32) int32 {
	return identity(a) // want `calls to generic function identity are not allowed`
}

func identity[E any](e E) E { return e }

//gocccl:op
func Runtime(a int32) int32 {
	_ = Print // want `function values are not allowed in operators: call Print instead`
	return a
}
