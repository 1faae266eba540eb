// Package reject_rule_math_unsupported: functions of math that have no
// CUDA counterpart are rejected.
package reject_rule_math_unsupported

import "math"

//gocccl:op
func Gamma(x float64) float64 {
	return math.Gamma(x) // want `Gamma`
}
