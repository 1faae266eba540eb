package ops

import "github.com/gocccl/gocccl/runtime"

// Axpb is Transform3's operator: a*x + b over three float32 inputs.
//
//gocccl:op
func Axpb(a, x, b float32) float32 { return a*x + b }

// Lerp2 is Transform3x2's operator: a blend of a and b by w and its
// complement, two float32 results.
//
//gocccl:op
func Lerp2(a, b, w float32) (float32, float32) { return a + (b-a)*w, b + (a-b)*w }

// Benchmarked N×M transforms, as bench/cub/transform.cu: Transform3 against
// cub::DeviceTransform::Transform over a cuda::std::tuple of three inputs,
// Transform3x2 against the same call writing a tuple of results through a
// zip iterator of two outputs.
var (
	Transform3Float32   = runtime.Transform3(Axpb)
	Transform3x2Float32 = runtime.Transform3x2(Lerp2)
)
