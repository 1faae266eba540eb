// Package reject_rule_state_param gives a stateful constructor, beside a
// method of the state, a function that takes the state as its first
// parameter: Go's types accept it, an operator with state is a method.
package reject_rule_state_param

import "github.com/gocccl/gocccl/runtime"

// Window is the state.
type Window struct{ Lo, Hi int32 }

//gocccl:op
func (w Window) Twice(x int32) int32 { return 2 * x }

//gocccl:op
func Outside(w Window, x int32) bool { return x < w.Lo || x >= w.Hi }

var TIf = runtime.TransformIfWith(Window.Twice, Outside) // want `operator Outside of runtime.TransformIfWith is not a method of the state Window`
