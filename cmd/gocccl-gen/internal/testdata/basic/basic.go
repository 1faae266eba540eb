// Package basic declares one instance of each algorithm.
package basic

import (
	gr "github.com/gocccl/gocccl/runtime"
)

// Celsius is a named float type.
type Celsius float64

// Add is a reduction operator.
//
//gocccl:op
func Add(a, b float32) float32 { return a + b }

//gocccl:op fastmath
func ToF(c Celsius) float64 { return float64(c)*9/5 + 32 }

//gocccl:op
func Warmer(a, b Celsius) bool { return a > b }

var (
	Sum  = gr.Reduce(Add)
	Fahr = gr.UnaryTransform(ToF)
)

func later() {
	_ = gr.BinaryTransform(Warmer)
	_ = gr.Reduce[float32](Add)
}
