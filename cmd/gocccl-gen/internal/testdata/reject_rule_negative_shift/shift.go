// Package reject_rule_negative_shift: a constant negative shift count is a
// compile error in Go, reported by the type checker; a shift by a
// non-constant negative count gives 0 (or -1) on the GPU.
package reject_rule_negative_shift

const back = -2

//gocccl:op
func Literal(x int32) int32 { return x << -1 } // want `negative shift count -1`

//gocccl:op
func Named(x uint64) uint64 { return x >> back } // want `negative shift count back`

//gocccl:op
func Typed(x int32) int32 { return x << int8(-3) } // want `negative shift count`
