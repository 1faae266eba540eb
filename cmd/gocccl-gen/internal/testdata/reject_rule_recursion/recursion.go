// Package reject_rule_recursion: recursion is rejected, direct or through
// other operators, also across files.
package reject_rule_recursion

//gocccl:op
func Fact(n int32) int32 {
	if n <= 1 {
		return 1
	}
	return n * Fact(n-1) // want `recursion is not allowed in operators: Fact → Fact; GPU code has no call stack: rewrite it with a loop`
}

//gocccl:op
func Even(n uint32) bool {
	if n == 0 {
		return true
	}
	return Odd(n - 1) // want `recursion is not allowed in operators: Even → Odd → Even; GPU code has no call stack: rewrite it with a loop`
}

//gocccl:op
func Odd(n uint32) bool {
	if n == 0 {
		return false
	}
	return Even(n - 1)
}

//gocccl:op
func Ping(n int32) int32 {
	if n <= 0 {
		return 0
	}
	return Pong(n - 1)
}

//gocccl:op
func Uses(n uint32) bool { return Even(n) } // calling a recursive operator is no new cycle
