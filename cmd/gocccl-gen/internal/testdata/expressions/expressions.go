// Package expressions holds operators with expressions outside the subset.
package expressions

import "github.com/gocccl/gocccl/cmd/gocccl-gen/internal/testdata/otherops"

// Pair is a struct.
type Pair struct{ A, B int32 }

var (
	scale float32 = 2
	arr   [4]int32
	sl    []int32
	ptr   *int32
	pair  Pair
	iface any = int32(1)
	ch        = make(chan int32)
)

//gocccl:op
func Closure(a int32) int32 {
	f := func() int32 { return a } // want `closures are not allowed in operators: declare a separate //gocccl:op function`
	_ = f
	return a
}

//gocccl:op
func CallClosure(a int32) int32 {
	return func() int32 { return a }() // want `closures are not allowed in operators`
}

//gocccl:op
func Global(a float32) float32 {
	return a * scale // want `package-level variable scale is not allowed in operators: operators cannot capture variables: put scale in a state struct`
}

//gocccl:op
func Str(a int32) int32 {
	s := "hi" // want `strings are not allowed in operators: use numeric types`
	_ = s
	return a
}

//gocccl:op
func Addr(a int32) int32 {
	p := &a // want `taking addresses is not allowed in operators: operators have no pointers`
	_ = p
	return a
}

//gocccl:op
func Deref(a int32) int32 {
	return a + *ptr // want `pointers are not allowed in operators: pass and return values`
}

//gocccl:op
func Index(a int32) int32 {
	return a + arr[a] // want `package-level variable arr is not allowed in operators`
}

//gocccl:op
func Slicing(a int32) int32 {
	s := sl[1:] // want `slicing is not allowed in operators`
	_ = s
	return a
}

//gocccl:op
func Field(a int32) int32 {
	return a + pair.A // want `package-level variable pair is not allowed in operators`
}

//gocccl:op
func Assert(a int32) int32 {
	return a + iface.(int32) // want `type assertions are not allowed in operators: operators have no interfaces`
}

//gocccl:op
func Receive(a int32) int32 {
	return a + <-ch // want `channel receives are not allowed in operators`
}

//gocccl:op
func Composite(a int32) int32 {
	p := Pair{A: a}
	_ = p
	return a
}

//gocccl:op
func FuncValue(a int32) int32 {
	f := Closure // want `function values are not allowed in operators: call Closure instead`
	_ = f
	return a
}

//gocccl:op
func OtherFuncValue(a int32) int32 {
	f := otherops.Add // want `function values are not allowed in operators: call otherops.Add instead`
	_ = f
	return a
}

//gocccl:op
func Nil(a int32) bool {
	return ptr == nil // want `package-level variable ptr is not allowed` `nil is not allowed in operators`
}

//gocccl:op
func ToString(a int32) int32 {
	_ = string(rune(a)) // want `strings are not allowed in operators`
	return a
}
