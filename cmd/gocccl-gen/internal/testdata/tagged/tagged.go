// Package tagged has an operator in a file that only a build tag includes.
package tagged

//gocccl:op
func Always(a, b int32) int32 { return a + b }
