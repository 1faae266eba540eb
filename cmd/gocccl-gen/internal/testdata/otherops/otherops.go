// Package otherops holds an operator that other test packages try to use.
package otherops

//gocccl:op
func Add(a, b int32) int32 { return a + b }
