package concurrency

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// Sizes of the test: goroutines share streams, each issues calls of mixed
// algorithms over fresh random inputs.
const (
	goroutines = 64
	streams    = 8
	calls      = 10000
	maxLen     = 1 << 14
)

// TestConcurrentCalls: 64 goroutines over 8 streams of one device issue
// 10 000 calls of six algorithms, inputs of random lengths (zero
// included), and check every result against a sequential loop. Per-stream
// scratch, module loading and the allocator are exercised from many
// goroutines at once; under -race the CPU side must be clean.
func TestConcurrentCalls(t *testing.T) {
	for _, backend := range []runtime.Backend{runtime.GPU, runtime.CPU} {
		t.Run(backend.String(), func(t *testing.T) {
			d, err := runtime.Open(backend)
			if err != nil {
				t.Skipf("%v", err)
			}
			defer func() { require.NoError(t, d.Close()) }()
			n := calls
			if testing.Short() || backend == runtime.CPU && raceEnabled {
				n = calls / 10
			}
			runConcurrent(t, d, n)
		})
	}
}

func runConcurrent(t *testing.T, d *runtime.Device, total int) {
	ss := make([]*runtime.Stream, streams)
	for i := range ss {
		s, err := d.NewStream()
		require.NoError(t, err)
		defer func() { require.NoError(t, s.Close()) }()
		ss[i] = s
	}
	// One logged seed for a source per goroutine, which devcheck.Rand's
	// single source cannot give.
	seed := uint64(time.Now().UnixNano())
	t.Logf("%s, seed %d", d, seed)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		fails []string
		done  [len(kinds)]int
	)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(g)))
			s := ss[g%streams]
			for i := g; i < total; i += goroutines {
				k := r.IntN(len(kinds))
				n := r.IntN(maxLen + 1)
				if r.IntN(16) == 0 {
					n = 0
				}
				if err := kinds[k].run(s, r, n); err != nil {
					mu.Lock()
					fails = append(fails, fmt.Sprintf("goroutine %d call %d: %s n=%d: %v", g, i, kinds[k].name, n, err))
					mu.Unlock()
					return
				}
				mu.Lock()
				done[k]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Empty(t, fails)
	sum := 0
	for k, c := range done {
		t.Logf("%s: %d calls", kinds[k].name, c)
		sum += c
	}
	require.Equal(t, total, sum, "every call ran")
}

// kind is one algorithm the goroutines mix: run uploads fresh random input
// of length n, runs the instance on s, and checks the result.
type kind struct {
	name string
	run  func(s *runtime.Stream, r *rand.Rand, n int) error
}

var kinds = [...]kind{
	{"Reduce(Add)", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, func() int64 { return int64(r.Uint64()) })
		got, err := reduce(s, Sum, xs, 7)
		want := int64(7)
		for _, x := range xs {
			want += x
		}
		return same(err, got, want)
	}},
	{"Reduce(MaxF)", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, func() float32 { return float32(r.NormFloat64()) })
		init := float32(math.Inf(-1))
		got, err := reduce(s, Max, xs, init)
		want := init
		for _, x := range xs {
			want = max(want, x)
		}
		return same(err, got, want)
	}},
	{"InclusiveScan(Add)", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, func() int64 { return int64(r.Uint64() >> 8) })
		got, err := through(s, xs, n, func(in, out *runtime.Slice[int64]) error { return Prefix.Run(s, in, out) })
		want := make([]int64, n)
		acc := int64(0)
		for i, x := range xs {
			acc += x
			want[i] = acc
		}
		return sameSlice(err, got, want)
	}},
	{"Select(Even)", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, r.Uint32)
		d := s.Device()
		in, err := runtime.FromHost(d, xs)
		if err != nil {
			return err
		}
		defer in.Free()
		out, err := runtime.FromHost(d, devcheck.Poison[uint32](n))
		if err != nil {
			return err
		}
		defer out.Free()
		count, err := runtime.FromHost(d, []int64{-1})
		if err != nil {
			return err
		}
		defer count.Free()
		if err := Evens.Run(s, in, out, count); err != nil {
			return err
		}
		if err := s.Synchronize(); err != nil {
			return err
		}
		c, err := count.ToHost()
		if err != nil {
			return err
		}
		all, err := out.ToHost()
		if err != nil {
			return err
		}
		want := slices.DeleteFunc(slices.Clone(xs), func(x uint32) bool { return !Even(x) })
		if c[0] != int64(len(want)) {
			return fmt.Errorf("count %d, want %d", c[0], len(want))
		}
		return sameSlice(nil, all[:c[0]], want)
	}},
	{"UnaryTransform(Double)", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, func() float32 { return float32(r.NormFloat64()) })
		got, err := through(s, xs, n, func(in, out *runtime.Slice[float32]) error { return Twice.Run(s, in, out) })
		want := make([]float32, n)
		for i, x := range xs {
			want[i] = 2 * x
		}
		return sameSlice(err, got, want)
	}},
	{"RadixSortKeys[uint32]", func(s *runtime.Stream, r *rand.Rand, n int) error {
		xs := fill(n, r.Uint32)
		got, err := through(s, xs, n, func(in, out *runtime.Slice[uint32]) error { return Sort.Run(s, in, out, runtime.RadixOptions{}) })
		want := slices.Clone(xs)
		slices.Sort(want)
		return sameSlice(err, got, want)
	}},
}

func fill[T any](n int, gen func() T) []T {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = gen()
	}
	return xs
}

// reduce runs op over xs with init on s and returns the result.
func reduce[T any](s *runtime.Stream, op *runtime.ReduceOp[T], xs []T, init T) (T, error) {
	var zero T
	d := s.Device()
	in, err := runtime.FromHost(d, xs)
	if err != nil {
		return zero, err
	}
	defer in.Free()
	out, err := runtime.Alloc[T](d, 1)
	if err != nil {
		return zero, err
	}
	defer out.Free()
	if err := op.Run(s, in, out, init); err != nil {
		return zero, err
	}
	if err := s.Synchronize(); err != nil {
		return zero, err
	}
	got, err := out.ToHost()
	if err != nil {
		return zero, err
	}
	return got[0], nil
}

// through uploads xs, runs fn into a poisoned output of length n on s and
// returns the output.
func through[T, U any](s *runtime.Stream, xs []T, n int, fn func(in *runtime.Slice[T], out *runtime.Slice[U]) error) ([]U, error) {
	d := s.Device()
	in, err := runtime.FromHost(d, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[U](n))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := fn(in, out); err != nil {
		return nil, err
	}
	if err := s.Synchronize(); err != nil {
		return nil, err
	}
	return out.ToHost()
}

// same returns err, or an error unless got == want. It and sameSlice return
// errors, not devcheck.RequireBitEqual's failures: they run on goroutines
// the test starts, where t.FailNow may not be called.
func same[T comparable](err error, got, want T) error {
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	return nil
}

// sameSlice returns err, or an error naming the first item where got and
// want differ.
func sameSlice[T comparable](err error, got, want []T) error {
	if err != nil {
		return err
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d items, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("item %d is %v, want %v", i, got[i], want[i])
		}
	}
	return nil
}
