package difftest

import "github.com/gocccl/gocccl/runtime"

// Named types over numbers, bools, structs and arrays, as parameters,
// results, struct fields and Reduce elements.

type (
	Celsius    float64
	Fahrenheit float64
	Meters     float32
	ID         int32
	Ok         bool
	Quad       [4]float32
	Tagged     struct {
		ID  ID
		Len Meters
	}
)

//gocccl:op
func CToF(c Celsius) Fahrenheit { return Fahrenheit(c*9/5) + 32 }

//gocccl:op
func NextID(id ID) ID { return id*2 + 1 }

//gocccl:op
func IsOk(id ID, ok Ok) Ok { return ok && id > 0 || !ok && id < 0 }

//gocccl:op
func QuadSum(q Quad) Meters { return Meters(q[0] + q[1] + q[2] + q[3]) }

//gocccl:op
func Retag(t Tagged) Tagged { return Tagged{ID: -t.ID, Len: t.Len * 2} }

var (
	_ = runtime.UnaryTransform(CToF)
	_ = runtime.UnaryTransform(NextID)
	_ = runtime.BinaryTransform(IsOk)
	_ = runtime.UnaryTransform(QuadSum)
	_ = runtime.UnaryTransform(Retag)
)
