// Package reject_rule_goto: goto is rejected.
package reject_rule_goto

//gocccl:op
func Skip(a int32) int32 {
	if a > 0 {
		goto done // want `goto is not allowed in operators: use if/else, or a for loop with break or continue`
	}
	a = -a
done: // want `label done is not on a for or switch statement`
	return a
}
