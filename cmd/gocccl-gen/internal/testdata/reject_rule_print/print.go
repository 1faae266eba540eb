// Package reject_rule_print: printing is rejected.
package reject_rule_print

import "fmt"

//gocccl:op
func Print(a int32) int32 {
	print(a) // want `print is not allowed in operators: operators cannot print; return the value and print it on the host`
	return a
}

//gocccl:op
func Println(a int32) int32 {
	println(a, a) // want `println is not allowed in operators: operators cannot print; return the value and print it on the host`
	return a
}

//gocccl:op
func Fmt(a int32) int32 {
	fmt.Println(a) // want `calls to fmt.Println are not allowed`
	return a
}
