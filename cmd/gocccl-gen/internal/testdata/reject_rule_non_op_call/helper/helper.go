// Package helper has plain functions, not operators.
package helper

// Double is not an operator.
func Double(a int32) int32 { return a * 2 }
