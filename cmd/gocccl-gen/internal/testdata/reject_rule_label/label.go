// Package reject_rule_label: labels are allowed only on for and switch
// statements, as targets of break and continue.
package reject_rule_label

//gocccl:op
func OnIf(a int32) int32 {
L: // want `label L is not on a for or switch statement`
	if a > 0 {
		a--
		goto L
	}
	return a
}

//gocccl:op
func OnBlock(a int32) int32 {
Block: // want `label Block is not on a for or switch statement`
	{
		a++
		if a < 10 {
			goto Block
		}
	}
	return a
}
