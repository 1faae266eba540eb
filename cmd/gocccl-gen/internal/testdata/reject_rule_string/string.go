// Package reject_rule_string: strings are rejected; constant string
// expressions that fold to numbers (len("abc")) are fine.
package reject_rule_string

//gocccl:op
func Param(s string) int32 { return 0 } // want `strings are not allowed in operators: use numeric types`

//gocccl:op
func Result(a int32) string { return "" } // want `strings are not allowed in operators: use numeric types`

//gocccl:op
func Local(a int32) int32 {
	s := "hi" // want `strings are not allowed in operators: use numeric types`
	_ = s
	return a + int32(len("abc"))
}

//gocccl:op
func Conversion(a int32) int32 {
	_ = string(rune(a)) // want `strings are not allowed in operators: use numeric types`
	return a
}

//gocccl:op
func Index(a int32) byte {
	return "abcdef"[a] // want `indexing a string is not allowed in operators: operators have no strings; use a fixed-size array of bytes`
}
