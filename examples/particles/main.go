// Command particles advances a cloud of particles one time step and sums
// their momentum and energy with gocccl, on the GPU when one is present and
// on the CPU backend otherwise. Its operators use the parts of Go that plain
// number crunching does not: structs and arrays (laid out on the device as
// in Go, so a []Particle is uploaded as it is), loops, a switch, math and
// several results. It checks every result against the same Go functions
// run on the host, bit for bit.
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

// Vec is a 3-vector.
type Vec [3]float64

// Particle is one particle. Kind selects how the walls treat it.
type Particle struct {
	Pos, Vel Vec
	Mass     float32
	Kind     uint8
}

// Totals accumulates the momentum and kinetic energy of particles.
type Totals struct {
	Momentum Vec
	Energy   float64
	Count    int64
}

// Kinds of particles.
const (
	Bouncy = iota // reflects off the walls of the unit box
	Sticky        // stops at the walls
	Ghost         // passes through them and wraps around
)

// dt is the time step, g the gravity along the last axis.
const (
	dt = 1.0 / 64
	g  = -9.81
)

// Step advances p by one time step.
//
//gocccl:op
func Step(p Particle) Particle {
	p.Vel[2] += g * dt
	for i := range p.Pos {
		// float64(…) keeps Go from fusing the multiply-add on arm64, so
		// every platform computes what the GPU does (docs/OPERATORS.md).
		x, v := wall(p.Pos[i]+float64(p.Vel[i]*dt), p.Vel[i], p.Kind)
		p.Pos[i], p.Vel[i] = x, v
	}
	return p
}

// wall applies the walls of the unit box to a coordinate x moving at v.
//
//gocccl:op
func wall(x, v float64, kind uint8) (float64, float64) {
	if x >= 0 && x <= 1 {
		return x, v
	}
	switch kind {
	case Bouncy:
		if x < 0 {
			return -x, -v
		}
		return 2 - x, -v
	case Sticky:
		return math.Min(math.Max(x, 0), 1), 0
	default:
		return x - math.Floor(x), v
	}
}

// Measure is the momentum and kinetic energy of one particle.
//
//gocccl:op
func Measure(p Particle) Totals {
	var t Totals
	m := float64(p.Mass)
	var v2 float64
	for i, v := range p.Vel {
		t.Momentum[i] = m * v
		v2 += float64(v * v)
	}
	t.Energy = m * v2 / 2
	t.Count = 1
	return t
}

// Sum adds two totals.
//
//gocccl:op
func Sum(a, b Totals) Totals {
	for i := range a.Momentum {
		a.Momentum[i] += b.Momentum[i]
	}
	a.Energy += b.Energy
	a.Count += b.Count
	return a
}

// The algorithm instances, compiled into this package by gocccl-gen.
var (
	Steps    = runtime.UnaryTransform(Step)
	Measures = runtime.UnaryTransform(Measure)
	Total    = runtime.Reduce(Sum)
)

func main() {
	n := flag.Int("n", 1<<20, "number of particles")
	steps := flag.Int("steps", 16, "time steps")
	flag.Parse()
	if err := run(*n, *steps); err != nil {
		log.Fatal(err)
	}
}

func run(n, steps int) error {
	dev, err := runtime.Open(runtime.Auto)
	if err != nil {
		return err
	}
	defer dev.Close()
	fmt.Println("device:", dev)

	ps := make([]Particle, n)
	for i := range ps {
		f := float64(i)
		ps[i] = Particle{
			Pos:  Vec{math.Mod(f*0.618, 1), math.Mod(f*0.414, 1), math.Mod(f*0.732, 1)},
			Vel:  Vec{math.Sin(f), math.Cos(f), math.Sin(f * 0.5)},
			Mass: float32(1 + i%5),
			Kind: uint8(i % 3),
		}
	}

	start := time.Now()
	a, err := runtime.FromHost(dev, ps)
	if err != nil {
		return err
	}
	defer a.Free()
	b, err := runtime.Alloc[Particle](dev, n)
	if err != nil {
		return err
	}
	defer b.Free()
	m, err := runtime.Alloc[Totals](dev, n)
	if err != nil {
		return err
	}
	defer m.Free()
	total, err := runtime.Alloc[Totals](dev, 1)
	if err != nil {
		return err
	}
	defer total.Free()

	s := dev.DefaultStream()
	for range steps {
		if err := Steps.Run(s, a, b); err != nil {
			return err
		}
		a, b = b, a
	}
	if err := Measures.Run(s, a, m); err != nil {
		return err
	}
	if err := Total.Run(s, m, total, Totals{}); err != nil {
		return err
	}
	final, err := a.ToHost()
	if err != nil {
		return err
	}
	got, err := total.ToHost()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)

	// The same steps on the host, with the same Go functions.
	for range steps {
		for i := range ps {
			ps[i] = Step(ps[i])
		}
	}
	want := Totals{}
	for _, p := range ps {
		want = Sum(want, Measure(p))
	}
	same := 0
	for i := range ps {
		if ps[i] == final[i] {
			same++
		}
	}
	fmt.Printf("n = %d particles, %d steps\n", n, steps)
	fmt.Printf("particles equal to the host's, bit for bit: %d of %d\n", same, n)
	fmt.Printf("energy: %.9g (host %.9g, relative difference %.1e)\n", got[0].Energy, want.Energy, rel(got[0].Energy, want.Energy))
	fmt.Printf("momentum: %.6g (host %.6g)\n", got[0].Momentum, want.Momentum)
	fmt.Printf("count: %d (host %d)\n", got[0].Count, want.Count)
	fmt.Printf("time, upload to results: %.3fms\n", float64(elapsed.Microseconds())/1000)
	if same != n || got[0].Count != want.Count || rel(got[0].Energy, want.Energy) > 1e-9 {
		return fmt.Errorf("the device's results differ from the host's")
	}
	return nil
}

// rel is the relative difference of two sums (their order of additions
// differs between the device and the host).
func rel(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}
