// Package reject_rule_method_op: a method operator's receiver is its
// per-call state, passed by value; pointer receivers are rejected.
package reject_rule_method_op

// T is a named type with methods.
type T int32

// Twice is a method operator: its receiver t is per-call state.
//
//gocccl:op
func (t T) Twice(a T) T { return t * a }

//gocccl:op
func (t *T) Add(b T) T { return *t + b } // want `method T.Add has a pointer receiver: an operator's receiver is its per-call state, read-only and passed by value; write func \(t T\) Add\(…\)`
