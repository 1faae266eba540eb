// Package assigns holds operators that assign to what they may not.
package assigns

var (
	counter int32
	arr     [2]int32
	ptr     *int32
)

//gocccl:op
func Global(a int32) int32 {
	counter = a // want `package-level variable counter is not allowed in operators`
	return a
}

//gocccl:op
func Element(a int32) int32 {
	arr[0] = a // want `package-level variable arr is not allowed in operators`
	return a
}

//gocccl:op
func Pointer(a int32) int32 {
	*ptr = a // want `pointers are not allowed in operators`
	return a
}

//gocccl:op
func Inc(a int32) int32 {
	counter++ // want `package-level variable counter is not allowed in operators`
	return a
}

//gocccl:op
func Multi(a int32) int32 {
	var x, y = pair() // want `pair is not a //gocccl:op function`
	return a + x + y
}

func pair() (int32, int32) { return 1, 2 }
