// Package reject_rule_defer: defer is rejected.
package reject_rule_defer

//gocccl:op
func Double(a int32) int32 { return a * 2 }

//gocccl:op
func Deferred(a int32) int32 {
	defer Double(a) // want `defer is not allowed in operators: do the work before each return instead`
	return a
}

//gocccl:op
func DeferredClosure(a int32) (r int32) {
	defer func() { r++ }() // want `defer is not allowed in operators`
	return a
}
