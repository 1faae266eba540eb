package dedup

import (
	. "github.com/gocccl/gocccl/runtime"
	rt "github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func Half(a uint16) float32 { return float32(a) / 2 }

var Second = rt.Reduce(Max)

func declare() any {
	third := Reduce(Max)
	_ = (rt.UnaryTransform[uint16, float32])(Half)
	return third
}

func init() {
	_ = rt.UnaryTransform(Half)
}
