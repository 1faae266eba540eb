// Package reject_rule_method_op: methods cannot be operators.
package reject_rule_method_op

// T is a named type with methods.
type T int32

//gocccl:op
func (t T) Twice() T { return t * 2 } // want `method Twice cannot be an operator: declare it as a top-level function`

//gocccl:op
func (t *T) Add(b T) T { return *t + b } // want `method Add cannot be an operator: declare it as a top-level function`
