// Package reject_rule_recover: recover is rejected.
package reject_rule_recover

//gocccl:op
func Recover(a int32) int32 {
	recover() // want `recover is not allowed in operators: operators cannot panic, so there is nothing to recover; remove the call`
	return a
}

//gocccl:op
func RecoverValue(a int32) int32 {
	if recover() != nil { // want `recover is not allowed in operators` `nil is not allowed in operators`
		return 0
	}
	return a
}
