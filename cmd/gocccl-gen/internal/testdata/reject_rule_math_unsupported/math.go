// Package reject_rule_math_unsupported: functions of math and math/bits
// that have no GPU counterpart are rejected.
package reject_rule_math_unsupported

import (
	"math"
	"math/bits"
)

//gocccl:op
func Gamma(x float64) float64 {
	return math.Gamma(x) // want `Gamma is not supported in operators`
}

//gocccl:op
func Div(hi, lo, y uint64) uint64 {
	q, _ := bits.Div64(hi, lo, y) // want `Div64 is not supported in operators`
	return q
}
