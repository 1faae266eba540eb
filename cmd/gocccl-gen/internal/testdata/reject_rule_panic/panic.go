// Package reject_rule_panic: panic is rejected.
package reject_rule_panic

//gocccl:op
func Checked(a int32) int32 {
	if a < 0 {
		panic("negative") // want `panic is not allowed in operators: operators cannot fail; return a value instead`
	}
	return a
}

//gocccl:op
func Unreachable(a int32) int32 {
	panic(a) // want `panic is not allowed in operators`
}
