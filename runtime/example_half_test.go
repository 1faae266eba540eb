package runtime_test

import (
	"fmt"
	"log"

	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func widenHalf(h half.Float16) float32 { return h.Float32() }

//gocccl:op
func addFloat32(a, b float32) float32 { return a + b }

//gocccl:op
func addHalf(a, b half.Float16) half.Float16 { return a.Add(b) }

// Half-precision values are plain data (half.Float16 is the bit pattern of
// an IEEE binary16, CUDA's __half) and operators compute with package
// half's methods, which round as CUDA does. A long sum in half precision
// stalls once the running total's spacing exceeds the addends (2048 + 1
// rounds back to 2048); TransformReduce widens every element to float32 and
// sums there instead. This example runs on the CPU backend; on a GPU the
// same operators run as gocccl/gohalf.cuh's helpers, bit for bit.
func ExampleTransformReduce_half() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	xs := make([]half.Float16, 4096)
	for i := range xs {
		xs[i] = half.FromFloat32(1)
	}
	in, _ := runtime.FromHost(dev, xs)
	wide, _ := runtime.Alloc[float32](dev, 1)
	narrow, _ := runtime.Alloc[half.Float16](dev, 1)

	if err := runtime.TransformReduce(widenHalf, addFloat32).Run(nil, in, wide, 0); err != nil {
		log.Fatal(err)
	}
	// Sequentially, so that the half sum's rounding is deterministic here.
	var seq half.Float16
	for _, x := range xs {
		seq = addHalf(seq, x)
	}
	if err := runtime.Reduce(addHalf).Run(nil, in, narrow, 0); err != nil {
		log.Fatal(err)
	}
	w, _ := wide.ToHost()
	n, _ := narrow.ToHost()
	fmt.Println("float32 sum:", w[0])
	fmt.Println("sequential Float16 sum:", seq.Float32())
	fmt.Println("Reduce in Float16 is at most 4096:", n[0].Float32() <= 4096)
	// Output:
	// float32 sum: 4096
	// sequential Float16 sum: 2048
	// Reduce in Float16 is at most 4096: true
}
