// Package reject_rule_package_var: package-level variables are rejected,
// read or written; package-level constants are fine.
package reject_rule_package_var

// Pair is a struct.
type Pair struct{ A, B int32 }

const limit = 10

var (
	scale   float32 = 2
	counter int32
	pair    Pair
	arr     [4]int32
)

//gocccl:op
func Read(a float32) float32 {
	return a * scale // want `package-level variable scale is not allowed in operators: operators cannot capture variables: put scale in a state struct and write a method: //gocccl:op func \(s S\) Read\(a float32\) float32 \{ … s.scale … \}`
}

//gocccl:op
func Write(a int32) int32 {
	counter = a // want `package-level variable counter is not allowed in operators: operators cannot capture variables`
	return a + limit
}

//gocccl:op
func Increment(a int32) int32 {
	counter++ // want `package-level variable counter is not allowed in operators`
	return a
}

//gocccl:op
func AddAssign(a int32) int32 {
	counter += a // want `package-level variable counter is not allowed in operators`
	return a
}

//gocccl:op
func Field(a int32) int32 {
	return a + pair.A // want `package-level variable pair is not allowed in operators`
}

//gocccl:op
func Element(a int32) int32 {
	return a + arr[1] // want `package-level variable arr is not allowed in operators`
}
