//go:build gocccl_extra

package tagged

//gocccl:op
func Extra(a, b int32) int32 { return a * b }
