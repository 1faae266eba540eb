// Package reject_rule_unsafe: unsafe.Pointer and the unsafe functions that
// work on pointers are rejected; unsafe.Sizeof, Alignof and Offsetof are
// constants and allowed.
package reject_rule_unsafe

import "unsafe"

//gocccl:op
func Param(p unsafe.Pointer) int32 { return 0 } // want `unsafe.Pointer is not allowed in operators: pass and return values`

//gocccl:op
func Local(a int64) int64 {
	var p unsafe.Pointer // want `unsafe.Pointer is not allowed in operators: pass and return values`
	_ = p
	return a + int64(unsafe.Sizeof(a))
}

//gocccl:op
func Add(a int64) int64 {
	_ = unsafe.Add(nil, a) // want `unsafe.Add is not allowed in operators: operators have no pointers; pass and return values`
	return a
}
