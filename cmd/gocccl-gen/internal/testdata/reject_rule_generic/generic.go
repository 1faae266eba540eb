// Package reject_rule_generic: generic functions and types are rejected;
// write one operator per type.
package reject_rule_generic

// Box is a generic type.
type Box[E any] struct{ V E }

// Number is a type constraint.
type Number interface{ ~int32 | ~float32 }

//gocccl:op
func Add[E Number](a, b E) E { return a + b } // want `generic function Add cannot be an operator: write one //gocccl:op function per type`

//gocccl:op
func Param(b Box[int32]) int32 { return b.V } // want `generic type Box is not allowed in operators: use a non-generic type`

//gocccl:op
func Local(a int32) int32 {
	var b Box[float32] // want `generic type Box is not allowed in operators: use a non-generic type`
	_ = b
	return a
}
