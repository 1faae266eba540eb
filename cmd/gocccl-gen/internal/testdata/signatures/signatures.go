// Package signatures holds operators whose signatures are outside the subset.
package signatures

// T has a method marked as an operator.
type T int32

// Pair is a struct.
type Pair struct{ A, B int32 }

// Box is a generic named type.
type Box[E any] int32

//gocccl:op
func (*T) Method(a int32) int32 { return a } // want `method T.Method has a pointer receiver: an operator's receiver is its per-call state`

//gocccl:op
func Generic[E int32 | int64](a E) E { return a } // want `generic function Generic cannot be an operator: write one //gocccl:op function per type`

//gocccl:op
func Variadic(a ...int32) int32 { return 0 } // want `variadic operators are not supported: use a fixed number of parameters`

//gocccl:op
func NoResult(a int32) {} // want `operator NoResult has no result: an operator returns at least one value`

//gocccl:op
func TwoResults(a int32) (int32, int32) { return a, a }

//gocccl:op
func String(s string) int32 { return 0 } // want `strings are not allowed in operators: use numeric types`

//gocccl:op
func Pointer(p *int32) int32 { return 0 } // want `pointers are not allowed in operators: pass and return values`

//gocccl:op
func Slice(s []int32) int32 { return 0 } // want `slices are not allowed in operators`

//gocccl:op
func Array(a [4]int32) int32 { return 0 }

//gocccl:op
func Struct(p Pair) int32 { return 0 }

//gocccl:op
func Map(m map[int32]int32) int32 { return 0 } // want `maps are not allowed in operators`

//gocccl:op
func Chan(c chan int32) int32 { return 0 } // want `channels are not allowed in operators`

//gocccl:op
func Func(f func() int32) int32 { return 0 } // want `function values are not allowed in operators`

//gocccl:op
func Interface(x any) int32 { return 0 } // want `interfaces are not allowed in operators: use concrete numeric types`

//gocccl:op
func Complex(c complex64) int32 { return int32(real(c)) }

//gocccl:op
func GenericType(b Box[int32]) int32 { return 0 } // want `generic type Box is not allowed in operators`

//gocccl:op
func Error(e error) int32 { return 0 } // want `interfaces are not allowed in operators`

//gocccl:op
func Result(a int32) string { return "" } // want `strings are not allowed in operators`

//gocccl:op
func Several(a string, b, c *int32) float32 { return 0 } // want `strings are not allowed` `pointers are not allowed`
