// Package reject_rule_map: maps are rejected as types, literals and
// through indexing.
package reject_rule_map

var table = map[int32]int32{1: 2}

//gocccl:op
func Param(m map[int32]int32) int32 { return 0 } // want `maps are not allowed in operators: use a switch, or a fixed-size array indexed by a small integer`

//gocccl:op
func Local(a int32) int32 {
	var m map[int32]bool // want `maps are not allowed in operators: use a switch, or a fixed-size array indexed by a small integer`
	_ = m
	return a
}

//gocccl:op
func Literal(a int32) int32 {
	m := map[int32]int32{1: 2} // want `maps are not allowed in operators`
	_ = m
	return a
}

//gocccl:op
func Lookup(a int32) int32 {
	return table[a] // want `maps are not allowed in operators`
}

//gocccl:op
func Delete(a int32) int32 {
	delete(table, a) // want `delete is not allowed in operators: operators have no maps; use a switch, or a fixed-size array indexed by a small integer`
	return a
}
