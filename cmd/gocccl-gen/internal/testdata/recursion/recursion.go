// Package recursion holds operators that call themselves, directly or not.
package recursion

//gocccl:op
func Fib(n int32) int32 {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2) // want `recursion is not allowed in operators: Fib → Fib`
}

//gocccl:op
func Even(n uint32) bool {
	if n == 0 {
		return true
	}
	return Odd(n - 1) // want `recursion is not allowed in operators: Even → Odd → Even`
}

//gocccl:op
func Odd(n uint32) bool {
	if n == 0 {
		return false
	}
	return Even(n - 1)
}

//gocccl:op
func Fine(n uint32) bool { return Even(n) && !Odd(n) }
