// Command sum reduces and transforms a few million numbers with gocccl: on the
// GPU when one is present, on the CPU backend otherwise. It prints the results
// next to values computed on the host, and the device that ran them.
package main

//go:generate gocccl-gen

import (
	"flag"
	"fmt"
	"log"
	"math"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

// Add is the reduction operator.
//
//gocccl:op
func Add(a, b float64) float64 { return a + b }

// AddInt adds exactly, for a result the host can check to the last bit.
//
//gocccl:op
func AddInt(a, b int64) int64 { return a + b }

// Square is the unary transform.
//
//gocccl:op
func Square(x float32) float64 {
	y := float64(x)
	return y * y
}

// Scale is the binary transform: a weighted sample, clamped at zero.
//
//gocccl:op
func Scale(w int32, x float32) int64 {
	v := int64(w) * int64(x*1000)
	if v < 0 {
		return 0
	}
	return v
}

// The algorithm instances. gocccl-gen finds these calls and compiles their
// kernels into this package.
var (
	Sum     = runtime.Reduce(Add)
	SumInt  = runtime.Reduce(AddInt)
	Squares = runtime.UnaryTransform(Square)
	Scaled  = runtime.BinaryTransform(Scale)
)

func main() {
	n := flag.Int("n", 1<<22, "number of elements")
	flag.Parse()
	if err := run(*n); err != nil {
		log.Fatal(err)
	}
}

func run(n int) error {
	dev, err := runtime.Open(runtime.Auto)
	if err != nil {
		return err
	}
	defer dev.Close()
	fmt.Println("device:", dev)
	if why := dev.Info().Fallback; why != "" {
		fmt.Println("(no GPU here, so the CPU backend runs the same operators:", why+")")
	}

	xs := make([]float32, n)
	ws := make([]int32, n)
	for i := range xs {
		xs[i] = float32(i%2001-1000) / 1000 // -1 … 1
		ws[i] = int32(i%7) - 2
	}

	start := time.Now()
	x, err := runtime.FromHost(dev, xs)
	if err != nil {
		return err
	}
	defer x.Free()
	w, err := runtime.FromHost(dev, ws)
	if err != nil {
		return err
	}
	defer w.Free()
	sq, err := runtime.Alloc[float64](dev, n)
	if err != nil {
		return err
	}
	defer sq.Free()
	scaled, err := runtime.Alloc[int64](dev, n)
	if err != nil {
		return err
	}
	defer scaled.Free()
	total, err := runtime.Alloc[float64](dev, 1)
	if err != nil {
		return err
	}
	defer total.Free()
	itotal, err := runtime.Alloc[int64](dev, 1)
	if err != nil {
		return err
	}
	defer itotal.Free()

	s := dev.DefaultStream()
	if err := Squares.Run(s, x, sq); err != nil {
		return err
	}
	if err := Sum.Run(s, sq, total, 0); err != nil {
		return err
	}
	if err := Scaled.Run(s, w, x, scaled); err != nil {
		return err
	}
	if err := SumInt.Run(s, scaled, itotal, 0); err != nil {
		return err
	}
	got, err := total.ToHost()
	if err != nil {
		return err
	}
	igot, err := itotal.ToHost()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)

	var want float64
	var iwant int64
	for i := range xs {
		want += Square(xs[i])
		iwant += Scale(ws[i], xs[i])
	}
	fmt.Printf("n = %d\n", n)
	fmt.Printf("sum of squares: %.6f (host %.6f, relative difference %.1e)\n", got[0], want, math.Abs(got[0]-want)/want)
	fmt.Printf("sum of clamped weighted samples: %d (host %d, equal: %v)\n", igot[0], iwant, igot[0] == iwant)
	fmt.Printf("time, uploads to results: %v\n", elapsed.Round(time.Microsecond))
	if igot[0] != iwant || math.Abs(got[0]-want) > 1e-9*want {
		return fmt.Errorf("results differ from the host's")
	}
	return nil
}
