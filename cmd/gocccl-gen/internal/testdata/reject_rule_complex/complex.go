// Package reject_rule_complex: complex numbers are rejected; constant
// expressions that fold to real numbers are fine.
package reject_rule_complex

//gocccl:op
func Param(c complex64) float32 { return 0 } // want `complex numbers are not supported in operators: use separate float values`

//gocccl:op
func Build(re, im float64) float64 {
	c := complex(re, im) // want `complex numbers are not supported in operators: use separate float values`
	_ = c
	return re + imag(2i)
}

//gocccl:op
func Local(a float64) float64 {
	var c complex128 // want `complex numbers are not supported in operators: use separate float values`
	_ = c
	return a
}
