// Package reject_rule_interface: interface types (any, error, interfaces
// with methods), type assertions and type switches are rejected.
package reject_rule_interface

// Shape has a method.
type Shape interface{ Area() float32 }

var boxed any = int32(1)

//gocccl:op
func Any(x any) int32 { return 0 } // want `interfaces are not allowed in operators: use concrete numeric types`

//gocccl:op
func Error(e error) int32 { return 0 } // want `interfaces are not allowed in operators: use concrete numeric types`

//gocccl:op
func Methods(a float32) float32 {
	var s Shape // want `interfaces are not allowed in operators: use concrete numeric types`
	_ = s
	return a
}

//gocccl:op
func Assert(a int32) int32 {
	return a + boxed.(int32) // want `type assertions are not allowed in operators: operators have no interfaces; use concrete numeric types`
}

//gocccl:op
func TypeSwitch(a int32) int32 {
	switch boxed.(type) { // want `type switches are not allowed in operators: operators have no interfaces; write one //gocccl:op function per concrete type`
	case int32:
		return 1
	}
	return a
}
