package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Reduce: a sum over int32, uint32 and uint64 (wrapping, exact), float32 and
// float64 (checked against a float64 sum), as cub::DeviceReduce::Sum in
// bench/cub/reduce.cu.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs,
				reduceCase(n, "int32", ops.SumInt32, 4, func(r *rand.Rand) int32 { return int32(r.Uint32()) }, checkExact[int32]),
				reduceCase(n, "float32", ops.SumFloat32, 4, func(r *rand.Rand) float32 { return float32(r.Float64()) }, checkSum[float32]),
				reduceCase(n, "uint32", ops.SumUint32, 4, func(r *rand.Rand) uint32 { return r.Uint32() }, checkExact[uint32]),
				reduceCase(n, "uint64", ops.SumUint64, 8, func(r *rand.Rand) uint64 { return r.Uint64() }, checkExact[uint64]),
				reduceCase(n, "float64", ops.SumFloat64, 8, func(r *rand.Rand) float64 { return r.Float64() }, checkSum[float64]),
			)
			// The cost of NaN-exact arithmetic: the same sum with fastmath.
			fast := reduceCase(n, "float32", ops.SumFloat32Fast, 4, func(r *rand.Rand) float32 { return float32(r.Float64()) }, checkSum[float32])
			fast.System, fast.Note = "gocccl-fastmath", "//gocccl:op fastmath: the GPU's NaNs"
			cs = append(cs, fast)
			// The determinism modes of the float32 sum (the row above is
			// RunToRun, the default): GPUToGPU's fixed tree, and
			// NotGuaranteed (today RunToRun's kernels; runtime.Determinism).
			for _, m := range []struct {
				d      runtime.Determinism
				system string
			}{{runtime.GPUToGPU, "gocccl-gpu2gpu"}, {runtime.NotGuaranteed, "gocccl-notguaranteed"}} {
				c := reduceCase(n, "float32", ops.SumFloat32.WithDeterminism(m.d), 4, func(r *rand.Rand) float32 { return float32(r.Float64()) }, checkSum[float32])
				c.System, c.Note = m.system, "Determinism "+m.d.String()
				cs = append(cs, c)
			}
		}
		return cs
	})
	registerFirstCall(reduceFirstCall)
	registerFirstCall(reduceGraphReplay)
}

// reduceCase times op.Run over n random items made by gen.
func reduceCase[T any](n int, typ string, op *runtime.ReduceOp[T], size int, gen func(*rand.Rand) T, check func(host []T, got T) error) Case {
	return Case{
		Algorithm: "reduce", Type: typ, N: n, Bytes: int64(n)*int64(size) + int64(size),
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "reduce", typ, n)
			host := parallelItems(r, n, gen)
			bufs, free, err := rotation(env, host, size)
			if err != nil {
				return nil, err
			}
			out, err := runtime.Alloc[T](env.Dev, 1)
			if err != nil {
				free()
				return nil, err
			}
			var zero T
			return &Instance{
				Poison: func() error { return out.CopyFromHost([]T{poison[T]()}) },
				Run:    func(i int) error { return op.Run(env.Stream, bufs[i%len(bufs)], out, zero) },
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					return check(host, got[0])
				},
				Free: func() { out.Free(); free() },
			}, nil
		},
	}
}

// poison returns a T whose bytes are all 0xAB.
func poison[T any]() T {
	var v T
	switch p := any(&v).(type) {
	case *uint8:
		*p = 0xAB
	case *int32:
		*p = int32(-0x54545455) // 0xABABABAB
	case *uint32:
		*p = 0xABABABAB
	case *int64:
		*p = -0x5454545454545455
	case *uint64:
		*p = 0xABABABABABABABAB
	case *float32:
		*p = math.Float32frombits(0xABABABAB)
	case *float64:
		*p = math.Float64frombits(0xABABABABABABABAB)
	}
	return v
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// checkExact compares an integer sum with Go's own wrapping sum (of block
// sums, in parallel: wrapping addition is associative).
func checkExact[T integer](host []T, got T) error {
	var want T
	for _, s := range parallelBlocks(len(host), func(lo, hi int) T {
		var s T
		for _, v := range host[lo:hi] {
			s += v
		}
		return s
	}) {
		want += s
	}
	if got != want {
		return fmt.Errorf("sum over %d items: got %d, want %d", len(host), got, want)
	}
	return nil
}

// checkSum compares a floating-point sum with a float64 one, relative to the
// sum of magnitudes (float64 sums of fixed blocks, in parallel, added in
// block order: deterministic, and no less accurate than one running sum).
func checkSum[T float32 | float64](host []T, got T) error {
	var want, mag float64
	for _, s := range parallelBlocks(len(host), func(lo, hi int) [2]float64 {
		var s [2]float64
		for _, v := range host[lo:hi] {
			s[0] += float64(v)
			s[1] += math.Abs(float64(v))
		}
		return s
	}) {
		want += s[0]
		mag += s[1]
	}
	tol := 1e-5
	if _, ok := any(got).(float64); ok {
		tol = 1e-12
	}
	if diff := math.Abs(float64(got) - want); !(diff <= tol*mag) {
		return fmt.Errorf("sum over %d items: got %g, want %g (difference %g)", len(host), got, want, diff)
	}
	return nil
}

// reduceFirstCall times the process's first Reduce (module load, kernel
// lookup and occupancy query included: there is no compiler to wait for) and
// then calls issued back to back at the same size.
func reduceFirstCall(env *Env) ([]Result, error) {
	const n, calls = 1024, 2000
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*7 - 5)
	}
	in, err := runtime.FromHost(env.Dev, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[int32](env.Dev, 1)
	if err != nil {
		return nil, err
	}
	defer out.Free()
	s := env.Stream
	start := time.Now()
	if err := ops.SumInt32.Run(s, in, out, 0); err != nil {
		return nil, err
	}
	if err := s.Synchronize(); err != nil {
		return nil, err
	}
	first := time.Since(start)
	if err := checkExactOut(xs, out); err != nil {
		return nil, err
	}
	start = time.Now()
	for range calls {
		if err := ops.SumInt32.Run(s, in, out, 0); err != nil {
			return nil, err
		}
	}
	if err := s.Synchronize(); err != nil {
		return nil, err
	}
	each := time.Since(start) / calls
	return []Result{
		{System: "gocccl:first_call", Algorithm: "reduce", Type: "int32", N: n, Bytes: 4*n + 4,
			Micros: float64(first.Nanoseconds()) / 1e3, Note: "wall clock; module load included"},
		{System: "gocccl:per_call", Algorithm: "reduce", Type: "int32", N: n, Bytes: 4*n + 4,
			Micros: float64(each.Nanoseconds()) / 1e3, Note: fmt.Sprintf("wall clock over %d calls issued back to back", calls)},
	}, nil
}

// reduceGraphReplay times calls captured into a CUDA graph (Stream.Capture)
// and replayed (Graph.Launch): the wall time per captured call, GPU time
// included, beside per_call's calls issued one by one. Each replay's result
// is the sum; the first replay's is checked over a poisoned output.
func reduceGraphReplay(env *Env) ([]Result, error) {
	const n, captured, replays = 1024, 100, 50
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = int32(i*5 - 9)
	}
	s, err := env.Dev.NewStream()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	in, err := runtime.FromHost(env.Dev, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.FromHost(env.Dev, []int32{-0x5a5a5a5a})
	if err != nil {
		return nil, err
	}
	defer out.Free()
	g, err := s.Capture(func() error {
		for range captured {
			if err := ops.SumInt32.Run(s, in, out, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer g.Close()
	if err := g.Launch(); err != nil {
		return nil, err
	}
	if err := s.Synchronize(); err != nil {
		return nil, err
	}
	if err := checkExactOut(xs, out); err != nil {
		return nil, fmt.Errorf("graph replay: %w", err)
	}
	start := time.Now()
	for range replays {
		if err := g.Launch(); err != nil {
			return nil, err
		}
	}
	if err := s.Synchronize(); err != nil {
		return nil, err
	}
	each := time.Since(start) / (replays * captured)
	return []Result{{System: "gocccl:graph_replay", Algorithm: "reduce", Type: "int32", N: n, Bytes: 4*n + 4,
		Micros: float64(each.Nanoseconds()) / 1e3,
		Note:   fmt.Sprintf("wall clock per call, GPU time included: %d calls captured in one graph, %d replays", captured, replays)}}, nil
}

func checkExactOut(xs []int32, out *runtime.Slice[int32]) error {
	got, err := out.ToHost()
	if err != nil {
		return err
	}
	return checkExact(xs, got[0])
}
