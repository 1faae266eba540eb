// Command bad has operators outside the supported subset; gocccl-gen must
// report each at its position and write nothing.
package main

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Greet(a, b int32) int32 {
	fmt.Println("hi")
	return a + b
}

//gocccl:op
func Words(s string) int32 { return int32(len(s)) }

var sum = runtime.Reduce(Greet)

func main() { _ = sum }
