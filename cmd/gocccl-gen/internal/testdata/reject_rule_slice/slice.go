// Package reject_rule_slice: slices are rejected as types, literals,
// slicing and indexing.
package reject_rule_slice

// Vec is an array type; slicing it makes a slice.
type Vec [4]int32

//gocccl:op
func Param(s []int32) int32 { return 0 } // want `slices are not allowed in operators: use a fixed-size array \(\[N\]T\)`

//gocccl:op
func Result(a int32) []int32 { return nil } // want `slices are not allowed in operators: use a fixed-size array`

//gocccl:op
func Local(a int32) int32 {
	var s []float32 // want `slices are not allowed in operators: use a fixed-size array`
	_ = s
	return a
}

//gocccl:op
func Literal(a int32) int32 {
	s := []int32{a, a} // want `slices are not allowed in operators: use a fixed-size array`
	_ = s
	return a
}

//gocccl:op
func Slicing(v Vec) int32 {
	_ = v[1:] // want `slicing is not allowed in operators: operators have no slices; use a fixed-size array and index its elements`
	return v[0]
}

//gocccl:op
func IndexSlice(v Vec) int32 {
	return v[1:][0] // want `indexing a slice is not allowed in operators: operators have no slices; use a fixed-size array`
}
