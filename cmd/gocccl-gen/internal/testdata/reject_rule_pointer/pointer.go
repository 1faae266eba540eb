// Package reject_rule_pointer: pointer types, taking addresses,
// and dereferencing are rejected.
package reject_rule_pointer

// Vec is an array type.
type Vec [4]int32

var global Vec

//gocccl:op
func Param(p *int32) int32 { return 0 } // want `pointers are not allowed in operators: pass and return values`

//gocccl:op
func Result(a int32) *int32 { return nil } // want `pointers are not allowed in operators: pass and return values`

//gocccl:op
func Address(a int32) int32 {
	p := &a // want `taking addresses is not allowed in operators: operators have no pointers; pass and return values`
	_ = p
	return a
}

//gocccl:op
func Deref(a int32) int32 {
	var p *int32  // want `pointers are not allowed in operators: pass and return values`
	return a + *p // want `pointers are not allowed in operators: pass and return values`
}

//gocccl:op
func IndexPointer(a int32) int32 {
	p := &global // want `taking addresses is not allowed in operators`
	_ = p
	return a
}
