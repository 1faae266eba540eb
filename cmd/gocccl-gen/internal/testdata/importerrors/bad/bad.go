// Package bad has an operator outside the subset, which importerrors calls.
package bad

//gocccl:op
func Len(s string) int { return len(s) }

//gocccl:op
func Twice(a int32) int32 { return a * 2 }
