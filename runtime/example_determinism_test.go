package runtime_test

import (
	"fmt"
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// addF32 is the reduction operator (a //gocccl:op in a generated package).
func addF32(a, b float32) float32 { return a + b }

// exactSum is a float32 sum whose bits are the same on every GPU and on the
// CPU backend, whatever the SM count or the CPU's worker count.
var exactSum = runtime.Reduce(addF32).WithDeterminism(runtime.GPUToGPU)

func ExampleReduceOp_WithDeterminism() {
	d, err := runtime.Open(runtime.CPU)
	if err != nil {
		panic(err)
	}
	defer d.Close()
	xs := make([]float32, 1_000_003)
	for i := range xs {
		xs[i] = float32(math.Ldexp(1+float64(i%7)/7, i%61-30)) // a wide exponent range
	}
	in, _ := runtime.FromHost(d, xs)
	defer in.Free()
	out, _ := runtime.Alloc[float32](d, 1)
	defer out.Free()
	if err := exactSum.Run(nil, in, out, 0); err != nil {
		panic(err)
	}
	got, _ := out.ToHost()
	// A GPU running exactSum over the same input prints the same bits.
	fmt.Printf("%v %#08x\n", exactSum.Determinism(), math.Float32bits(got[0]))
	// Output: GPUToGPU 0x5636f48e
}
