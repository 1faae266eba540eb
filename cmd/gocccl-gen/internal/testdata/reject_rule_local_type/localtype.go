// Package reject_rule_local_type: types declared inside an operator are
// rejected; declare them at package level.
package reject_rule_local_type

//gocccl:op
func Local(a int32) int32 {
	type celsius int32 // want `type declarations are not allowed in operators: declare the type at package level`
	return a
}
