// Package reject_rule_half: half.Float16 and half.BFloat16 compute through
// their methods; Go's arithmetic and ordered comparisons (on the bit
// patterns: the types' underlying type is uint16) and numeric conversions
// other than to and from uint16 are rejected.
package reject_rule_half

import (
	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Add(a, b half.Float16) half.Float16 {
	return a + b // want `operator \+ on half.Float16 is not allowed in operators: Go applies it to the bit patterns \(the type's underlying type is uint16\); call its method Add, x.Add\(y\), which has floating-point semantics`
}

//gocccl:op
func Less(a, b half.BFloat16) bool {
	return a > b // want `operator > on half.BFloat16 is not allowed in operators: Go applies it to the bit patterns \(the type's underlying type is uint16\); call its method Lt, y.Lt\(x\)`
}

//gocccl:op
func Neg(a half.Float16) half.Float16 {
	return -a // want `operator - on half.Float16 is not allowed in operators: Go negates the bit pattern as a uint16; call its method Neg, x.Neg\(\)`
}

//gocccl:op
func FromFloat(f float32) half.Float16 {
	return half.Float16(f) // want `cannot convert float32 to Float16 in an operator: a half value converts only to and from uint16`
}

//gocccl:op
func ToInt(h half.BFloat16) int {
	return int(h) // want `cannot convert BFloat16 to int in an operator`
}

//gocccl:op
func Mix(h half.Float16) half.BFloat16 {
	return half.BFloat16(h) // want `cannot convert Float16 to BFloat16 in an operator`
}

//gocccl:op
func Shift(h half.Float16) half.Float16 {
	return h << 1 // want `operator << on half.Float16 is not allowed in operators: Go applies it to the bit patterns \(the type's underlying type is uint16\); convert to uint16 for bit operations`
}

//gocccl:op
func Expr(a, b half.Float16) half.Float16 {
	return half.Float16.Add(a, b) // want `method expressions are not allowed in operators`
}

var (
	_ = runtime.RadixSortKeys[half.Float16]()  // want `runtime.RadixSortKeys: element type K = github.com/gocccl/gocccl/half.Float16: half.Float16 and half.BFloat16 are not radix-sort keys or histogram samples on the GPU`
	_ = runtime.HistogramEven[half.BFloat16]() // want `runtime.HistogramEven: element type T = github.com/gocccl/gocccl/half.BFloat16: half.Float16 and half.BFloat16 are not radix-sort keys`
)
