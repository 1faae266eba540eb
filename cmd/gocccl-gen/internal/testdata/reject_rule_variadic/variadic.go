// Package reject_rule_variadic: variadic operators are rejected.
package reject_rule_variadic

//gocccl:op
func Sum(xs ...int32) int32 { return 0 } // want `variadic operators are not supported: use a fixed number of parameters`

//gocccl:op
func Scaled(k float32, xs ...float32) float32 { return k } // want `variadic operators are not supported: use a fixed number of parameters`
