// Package typeerror does not compile: its type errors are diagnostics too.
package typeerror

//gocccl:op
func Add(a, b int32) int32 {
	return a + undefinedThing // want `undefined: undefinedThing`
}

//gocccl:op
func Mix(a int32, b float32) int32 {
	return a + b // want `invalid operation: a \+ b \(mismatched types int32 and float32\)`
}
