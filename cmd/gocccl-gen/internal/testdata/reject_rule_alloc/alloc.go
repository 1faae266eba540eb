// Package reject_rule_alloc: the built-ins that allocate or work on
// slices, maps and strings are rejected; len and cap of arrays are
// constants and allowed.
package reject_rule_alloc

// Vec is an array type.
type Vec [4]int32

var sl []int32

//gocccl:op
func New(a int32) int32 {
	_ = new(int32) // want `new is not allowed in operators: operators cannot allocate memory; declare a local variable instead`
	return a
}

//gocccl:op
func Make(a int32) int32 {
	_ = make([]int32, 4) // want `make is not allowed in operators: operators cannot allocate memory; declare a fixed-size array variable instead`
	return a
}

//gocccl:op
func Append(a int32) int32 {
	_ = append(sl, a) // want `append is not allowed in operators: operators cannot allocate memory; use a fixed-size array and a count`
	return a
}

//gocccl:op
func Len(a int) int {
	return a + len(sl) // want `built-in len is not allowed in operators: operators have no slices, strings or maps; use a fixed-size array, whose len is a constant`
}

//gocccl:op
func Cap(a int) int {
	return a + cap(sl) // want `built-in cap is not allowed in operators`
}

//gocccl:op
func ArrayLen(v Vec) int {
	return len(v) + cap(v)
}

//gocccl:op
func Copy(a int32) int32 {
	copy(sl, sl) // want `copy is not allowed in operators: operators have no slices; assign arrays directly \(a = b copies every element\)`
	return a
}

//gocccl:op
func Clear(a int32) int32 {
	clear(sl) // want `clear is not allowed in operators: operators have no slices or maps; assign the zero value instead`
	return a
}
