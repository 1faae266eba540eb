// Package reject_rule_unnamed_struct: struct types without a name are
// rejected; declare a named struct type at package level.
package reject_rule_unnamed_struct

//gocccl:op
func Param(p struct{ X, Y float32 }) float32 { return 0 } // want `unnamed struct types are not supported in operators: declare a named struct type at package level`

//gocccl:op
func Local(a int32) int32 {
	var s struct{ N int32 } // want `unnamed struct types are not supported in operators: declare a named struct type at package level`
	s.N = a
	return s.N
}

//gocccl:op
func Array(a [2]struct{ N int32 }) int32 { return 0 } // want `unnamed struct types are not supported in operators`
