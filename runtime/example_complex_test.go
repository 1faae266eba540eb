package runtime_test

import (
	"fmt"
	"log"
	"math"
	"math/cmplx"

	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func mulComplex(a, b complex128) complex128 { return a * b }

//gocccl:op
func expComplex(z complex128) complex128 { return cmplx.Exp(z) }

// Complex numbers are plain data and operators compute with them as Go
// does: here the product of a buffer of complex128 values. On a GPU the
// operator runs as gocccl/gocomplex.cuh's port of Go's complex
// multiplication (and, for /, of runtime.complex128div), so it gives Go's
// results bit for bit; this example runs on the CPU backend.
func ExampleReduce_complex() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	in, _ := runtime.FromHost(dev, []complex128{1 + 1i, 1 - 1i, 2i, 3})
	out, _ := runtime.Alloc[complex128](dev, 1)

	product := runtime.Reduce(mulComplex)
	if err := product.Run(nil, in, out, 1); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got[0])
	// Output:
	// (0+12i)
}

// A transform through math/cmplx: e^z of points on the imaginary axis
// walks around the unit circle.
func ExampleUnaryTransform_complex() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	in, _ := runtime.FromHost(dev, []complex128{0, complex(0, math.Pi/2), complex(0, math.Pi), 1})
	out, _ := runtime.Alloc[complex128](dev, in.Len())

	if err := runtime.UnaryTransform(expComplex).Run(nil, in, out); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	for _, z := range got {
		fmt.Printf("%.4f\n", z)
	}
	// Output:
	// (1.0000+0.0000i)
	// (0.0000+1.0000i)
	// (-1.0000+0.0000i)
	// (2.7183+0.0000i)
}
