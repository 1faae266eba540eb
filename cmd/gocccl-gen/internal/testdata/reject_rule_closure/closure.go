// Package reject_rule_closure: function literals (closures) are rejected.
package reject_rule_closure

//gocccl:op
func Assigned(a int32) int32 {
	f := func() int32 { return a } // want `closures are not allowed in operators: declare a separate //gocccl:op function`
	_ = f
	return a
}

//gocccl:op
func Called(a int32) int32 {
	return func(x int32) int32 { return x * 2 }(a) // want `closures are not allowed in operators: declare a separate //gocccl:op function`
}

//gocccl:op
func Nested(a int32) int32 {
	if a > 0 {
		var g = func() {} // want `closures are not allowed in operators`
		_ = g
	}
	return a
}
