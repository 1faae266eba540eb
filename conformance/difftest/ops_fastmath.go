package difftest

import "github.com/gocccl/gocccl/runtime"

// fastmath operators may be compiled with contraction and approximations:
// their cases take positive normal inputs of moderate size, where the
// results stay within a few ulps.

//gocccl:op fastmath
func FastDot(a, b Vec3) float32 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

//gocccl:op fastmath
func FastPoly(x float64) float64 { return x*x*0.5 + x*0.25 + 1 }

var (
	_ = runtime.BinaryTransform(FastDot)
	_ = runtime.UnaryTransform(FastPoly)
)
