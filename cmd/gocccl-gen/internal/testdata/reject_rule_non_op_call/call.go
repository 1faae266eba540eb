// Package reject_rule_non_op_call: calls of functions that are not
// operators (same package, other packages, the standard library, methods,
// generic functions) are rejected.
package reject_rule_non_op_call

import (
	"unicode/utf8"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/reject_rule_non_op_call/helper"
)

// T has a method.
type T int32

// Twice doubles t.
func (t T) Twice() T { return t * 2 }

func plain(a int32) int32 { return a + 1 }

func identity[E any](e E) E { return e }

//gocccl:op
func SamePackage(a int32) int32 {
	return plain(a) // want `plain is not a //gocccl:op function: mark it with //gocccl:op to call it from an operator`
}

//gocccl:op
func OtherPackage(a int32) int32 {
	return helper.Double(a) // want `helper.Double`
}

//gocccl:op
func Standard(a int32) int32 {
	return int32(utf8.RuneLen(rune(a))) // want `calls to utf8.RuneLen are not allowed: operators may call only //gocccl:op functions, min, max, complex, real, imag, and the supported functions of math, math/bits and math/cmplx`
}

//gocccl:op
func Method(a T) T {
	return a.Twice() // want `calls to method Twice are not allowed: operators may call only other //gocccl:op functions`
}

//gocccl:op
func Generic(a int32) int32 {
	return identity(a) // want `calls to generic function identity are not allowed: operators cannot be generic; write one //gocccl:op function per type`
}
