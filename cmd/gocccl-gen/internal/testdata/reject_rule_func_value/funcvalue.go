// Package reject_rule_func_value: functions used as values (assigned,
// passed, called through a variable, method values) are rejected.
package reject_rule_func_value

import "github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/otherops"

// T has a method.
type T int32

// Twice doubles t.
func (t T) Twice() T { return t * 2 }

var fv = func(a int32) int32 { return a }

func helper(a int32) int32 { return a }

func apply(f func(int32, int32) int32, a int32) int32 { return f(a, a) }

//gocccl:op
func Add(a, b int32) int32 { return a + b }

//gocccl:op
func AssignOp(a int32) int32 {
	g := Add // want `function values are not allowed in operators: call Add instead`
	_ = g
	return a
}

//gocccl:op
func AssignOther(a int32) int32 {
	g := otherops.Add // want `function values are not allowed in operators: call otherops.Add instead`
	_ = g
	return a
}

//gocccl:op
func AssignHelper(a int32) int32 {
	_ = helper // want `function values are not allowed in operators: call helper instead`
	return a
}

//gocccl:op
func CallVar(a int32) int32 {
	return fv(a) // want `calls through function values are not allowed in operators: call a //gocccl:op function by name`
}

//gocccl:op
func Pass(a int32) int32 {
	return apply(Add, a) // want `apply is not a //gocccl:op function: mark it with //gocccl:op to call it from an operator`
}

//gocccl:op
func MethodValue(a T) T {
	f := a.Twice // want `method values are not allowed in operators: operators may call only other //gocccl:op functions`
	_ = f
	return a
}

//gocccl:op
func Param(f func(int32) int32) int32 { return 0 } // want `function values are not allowed in operators: call //gocccl:op functions by name`

//gocccl:op
func Local(a int32) int32 {
	var f func() int32 // want `function values are not allowed in operators: call //gocccl:op functions by name`
	_ = f
	return a
}
