package runtime

import (
	"math/rand/v2"
	"testing"
)

func addF(a, b float32) float32 { return a + b }

func scaleF(x float32) float32 { return x*1.5 + 0.25 }

// The CPU backend's throughput, for make bench. GPU timings come from the
// bench/gpubench binary (make gpu-bundle), which needs a GPU.

func BenchmarkReduceCPU(b *testing.B) {
	d, err := Open(CPU)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	xs := make([]float32, 1<<22)
	for i := range xs {
		xs[i] = rand.Float32()
	}
	in, _ := FromHost(d, xs)
	out, _ := Alloc[float32](d, 1)
	sum := Reduce(addF)
	b.SetBytes(int64(len(xs) * 4))
	b.ResetTimer()
	for b.Loop() {
		if err := sum.Run(nil, in, out, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnaryTransformCPU(b *testing.B) {
	d, err := Open(CPU)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	xs := make([]float32, 1<<22)
	for i := range xs {
		xs[i] = rand.Float32()
	}
	in, _ := FromHost(d, xs)
	out, _ := Alloc[float32](d, len(xs))
	scale := UnaryTransform(scaleF)
	b.SetBytes(int64(len(xs) * 8))
	b.ResetTimer()
	for b.Loop() {
		if err := scale.Run(nil, in, out); err != nil {
			b.Fatal(err)
		}
	}
}
