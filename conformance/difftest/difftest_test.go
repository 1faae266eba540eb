package difftest

// The differential harness. Every operator of the corpus has one case in a
// cases_*_test.go file, made by unary, binary or reduce: the shape, the Go
// function and options (an ulp bound, a filter that keeps inputs on which Go
// would panic out). A case generates inputs by reflection on the element
// types (edge values, then seeded random values; see values_test.go), runs
// the instance on the device under test (runtime.Open(runtime.Auto): the GPU
// when there is one, else the CPU backend), computes the expected values by
// calling the Go function on the host, and compares field by field:
// integers and bools exactly, floats bit for bit (NaNs too: payload, sign and
// quiet bit, as Go computes them on amd64), or within the case's ulp bound.
// A result whose NaNs differ from Go's in their payload alone is logged, not
// failed, unless -difftest.nanbits: the H200 found such results where gc's
// register allocation picks which of two NaN operands Go returns (ChainF32,
// ParticleStep; bench/NOTES.md). Outputs are poisoned before each run.
//
//	go test ./conformance/difftest                        # CPU backend without a GPU
//	go test ./conformance/difftest -difftest.seed=N       # replay a run
//	go test ./conformance/difftest -run 'TestDiff/Math'   # some cases
//	go test ./conformance/difftest -run TestULPReport -v  # measured ulps
//	go test ./conformance/difftest -difftest.nanbits      # NaN payloads must match too

import (
	"flag"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

var (
	seedFlag   = flag.Uint64("difftest.seed", 0, "seed of the random inputs (0: a fresh one from the clock, logged)")
	randomFlag = flag.Int("difftest.random", 20000, "random inputs (or pairs) per case, besides the edge values")
	reportFlag = flag.Int("difftest.ulpinputs", 200000, "random inputs per case in TestULPReport")
	nanBits    = flag.Bool("difftest.nanbits", false, "fail on results whose NaNs differ in payload alone (logged otherwise)")
)

// opCase is one operator of the corpus.
type opCase struct {
	name  string
	shape string // "unary", "binary" or "reduce"
	ulp   uint64 // 0: bit-identical
	// measured: TestULPReport measures the case (an ulp bound was given,
	// perhaps 0).
	measured bool
	run      func(t *testing.T, e *env) result
}

// env is what a case runs with.
type env struct {
	dev     *runtime.Device
	r       *rand.Rand
	nRandom int
}

// result is what a case measured.
type result struct {
	n      int    // inputs compared
	maxULP uint64 // largest difference in ulps over float fields
	worst  string // the inputs where maxULP was measured
}

// allCases is filled by the init functions of the cases_*_test.go files.
var allCases []opCase

func addCases(cs ...opCase) { allCases = append(allCases, cs...) }

func sortedCases() []opCase {
	cs := slices.Clone(allCases)
	slices.SortStableFunc(cs, func(a, b opCase) int { return strings.Compare(a.name, b.name) })
	return cs
}

// option changes a case.
type option func(*options)

type options struct {
	ulp      uint64
	measured bool
	mapping  any // func(In) In or func(A, B) (A, B): moves generated inputs into a domain
	filter   any // func(In) bool, func(A, B) bool or func(T) bool: inputs to keep
}

// ulps bounds the difference of every float field of a result.
// The case is measured by TestULPReport, even with a bound of 0.
func ulps(n uint64) option { return func(o *options) { o.ulp, o.measured = n, true } }

// where keeps only the inputs for which keep returns true: the inputs on
// which the Go operator panics, or which a case leaves out for a reason
// given next to it.
func where(keep any) option { return func(o *options) { o.filter = keep } }

// mapInputs replaces every generated input x by f(x), before the filter:
// for cases whose domain random values rarely hit.
func mapInputs(f any) option { return func(o *options) { o.mapping = f } }

func makeOptions(os []option) options {
	var o options
	for _, f := range os {
		f(&o)
	}
	return o
}

// unary is a case for runtime.UnaryTransform(fn).
func unary[In, Out any](name string, fn func(In) Out, opts ...option) opCase {
	o := makeOptions(opts)
	return opCase{name: name, shape: "unary", ulp: o.ulp, measured: o.measured, run: func(t *testing.T, e *env) result {
		in := valuesOf[In](e.r, e.nRandom)
		if o.mapping != nil {
			f := o.mapping.(func(In) In)
			for i := range in {
				in[i] = f(in[i])
			}
		}
		if o.filter != nil {
			keep := o.filter.(func(In) bool)
			in = slices.DeleteFunc(in, func(x In) bool { return !keep(x) })
		}
		want := make([]Out, len(in))
		for i, x := range in {
			want[i] = fn(x)
		}
		got := runUnary(t, e.dev, runtime.UnaryTransform(fn), in)
		return compareAll(t, name, o.ulp, want, got, func(i int) string { return "x = " + format(in[i]) })
	}}
}

// binary is a case for runtime.BinaryTransform(fn): the cross product of
// the edge values of both types, then random pairs.
func binary[A, B, Out any](name string, fn func(A, B) Out, opts ...option) opCase {
	o := makeOptions(opts)
	return opCase{name: name, shape: "binary", ulp: o.ulp, measured: o.measured, run: func(t *testing.T, e *env) result {
		as, bs := pairsOf[A, B](e.r, e.nRandom)
		if o.mapping != nil {
			f := o.mapping.(func(A, B) (A, B))
			for i := range as {
				as[i], bs[i] = f(as[i], bs[i])
			}
		}
		if o.filter != nil {
			keep := o.filter.(func(A, B) bool)
			k := 0
			for i := range as {
				if keep(as[i], bs[i]) {
					as[k], bs[k] = as[i], bs[i]
					k++
				}
			}
			as, bs = as[:k], bs[:k]
		}
		want := make([]Out, len(as))
		for i := range as {
			want[i] = fn(as[i], bs[i])
		}
		got := runBinary(t, e.dev, runtime.BinaryTransform(fn), as, bs)
		return compareAll(t, name, o.ulp, want, got, func(i int) string {
			return "a = " + format(as[i]) + ", b = " + format(bs[i])
		})
	}}
}

// reduce is a case for runtime.Reduce(fn), whose operator must be exactly
// associative and commutative on the kept inputs: the device's result is
// compared with a sequential fold. It reduces the edge values followed by
// random values, prefixes of them, and 2^18 random values.
func reduce[T any](name string, fn func(T, T) T, opts ...option) opCase {
	o := makeOptions(opts)
	return opCase{name: name, shape: "reduce", ulp: o.ulp, measured: o.measured, run: func(t *testing.T, e *env) result {
		keepAll := func(in []T) []T {
			if o.filter == nil {
				return in
			}
			keep := o.filter.(func(T) bool)
			return slices.DeleteFunc(in, func(x T) bool { return !keep(x) })
		}
		in := keepAll(valuesOf[T](e.r, e.nRandom))
		big := keepAll(randomsOf[T](e.r, 1<<18))
		require.NotEmpty(t, in, "the filter keeps no input")
		init := in[e.r.IntN(len(in))]
		op := runtime.Reduce(fn)
		var res result
		for _, xs := range [][]T{in, in[:0], in[:1], in[:min(len(in), 1000)], big} {
			want := init
			for _, x := range xs {
				want = fn(want, x)
			}
			got := runReduce(t, e.dev, op, xs, init)
			r := compareAll(t, name, o.ulp, []T{want}, []T{got}, func(int) string {
				return fmt.Sprintf("%d elements, init = %s", len(xs), format(init))
			})
			res.n += len(xs)
			if r.maxULP >= res.maxULP {
				res.maxULP, res.worst = r.maxULP, r.worst
			}
		}
		return res
	}}
}

func runUnary[In, Out any](t *testing.T, d *runtime.Device, op *runtime.UnaryTransformOp[In, Out], in []In) []Out {
	t.Helper()
	src, err := runtime.FromHost(d, in)
	require.NoError(t, err)
	defer src.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[Out](len(in)))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, src, out))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

func runBinary[A, B, Out any](t *testing.T, d *runtime.Device, op *runtime.BinaryTransformOp[A, B, Out], a []A, b []B) []Out {
	t.Helper()
	x, err := runtime.FromHost(d, a)
	require.NoError(t, err)
	defer x.Free()
	y, err := runtime.FromHost(d, b)
	require.NoError(t, err)
	defer y.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[Out](len(a)))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, x, y, out))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

func runReduce[T any](t *testing.T, d *runtime.Device, op *runtime.ReduceOp[T], in []T, init T) T {
	t.Helper()
	var src *runtime.Slice[T]
	var err error
	if len(in) == 0 {
		src, err = runtime.Alloc[T](d, 0)
	} else {
		src, err = runtime.FromHost(d, in)
	}
	require.NoError(t, err)
	defer src.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[T](1))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, src, out, init))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res[0]
}

// maxReported is how many differing elements a case prints.
const maxReported = 12

// compareAll compares want and got element by element, reports up to
// maxReported differences with their inputs and fails the test if any.
func compareAll[T any](t *testing.T, name string, bound uint64, want, got []T, inputs func(int) string) result {
	t.Helper()
	require.Len(t, got, len(want))
	res := result{n: len(want)}
	bad, payload := 0, 0
	var msgs, payloadMsgs []string
	for i := range want {
		ok, d := equalValues(want[i], got[i], bound)
		if !ok && !*nanBits && payloadOnly(want[i], got[i], bound) {
			if payload++; payload <= maxReported {
				payloadMsgs = append(payloadMsgs, fmt.Sprintf("%s(%s)\n\tgot  %s\n\twant %s", name, inputs(i), format(got[i]), format(want[i])))
			}
			continue
		}
		if d > res.maxULP {
			res.maxULP, res.worst = d, inputs(i)
		}
		if ok {
			continue
		}
		bad++
		if bad <= maxReported {
			msgs = append(msgs, fmt.Sprintf("%s(%s)\n\tgot  %s\n\twant %s", name, inputs(i), format(got[i]), format(want[i])))
		}
	}
	if payload > 0 {
		// Known gaps (bench/NOTES.md): Go's payload when both operands of
		// a float + or * are NaNs depends on gc's register allocation.
		t.Logf("%s: %d of %d results differ from Go's in a NaN's payload alone (-difftest.nanbits fails them); the first ones:\n%s",
			name, payload, len(want), strings.Join(payloadMsgs, "\n"))
	}
	if bad > 0 {
		how := "bit-identical (NaN payloads too)"
		if bound > 0 {
			how = fmt.Sprintf("within %d ulp", bound)
		}
		t.Errorf("%s: %d of %d results differ from Go's, which must be %s; the first ones:\n%s",
			name, bad, len(want), how, strings.Join(msgs, "\n"))
	}
	return res
}

// newRand returns the generator of a test's random inputs, seeded from
// -difftest.seed or the clock; the seed is logged.
func newRand(t *testing.T) *rand.Rand {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("random seed %d (replay with -difftest.seed=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// openDevice opens the device under test: the GPU when present, else the
// CPU backend (GOCCCL_BACKEND overrides).
func openDevice(t *testing.T) *runtime.Device {
	t.Helper()
	d, err := runtime.Open(runtime.Auto)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	t.Logf("device under test: %s", d)
	return d
}

const pkgPath = "github.com/gocccl/gocccl/conformance/difftest"

// TestDiff runs every case of the corpus on the device under test and
// compares with Go.
func TestDiff(t *testing.T) {
	dev := openDevice(t)
	e := &env{dev: dev, r: newRand(t), nRandom: *randomFlag}
	if testing.Short() {
		e.nRandom = min(e.nRandom, 2000)
	}
	for _, c := range sortedCases() {
		t.Run(c.name, func(t *testing.T) { c.run(t, e) })
	}
	if dev.Backend() == runtime.GPU {
		target, reason, ok := dev.LoadedImage(pkgPath)
		require.True(t, ok, "the GPU never loaded the package's module")
		t.Logf("loaded image %s: %s", target, reason)
	}
}

// TestCorpus checks the corpus itself: at least 60 operators, unique names.
func TestCorpus(t *testing.T) {
	names := map[string]bool{}
	shapes := map[string]int{}
	for _, c := range allCases {
		require.False(t, names[c.name], "two cases named %s", c.name)
		names[c.name] = true
		shapes[c.shape]++
	}
	t.Logf("%d cases: %v", len(allCases), shapes)
	require.GreaterOrEqual(t, len(allCases), 60)
}

// TestULPReport measures, for every case given an ulp bound, the largest
// difference between the device and Go over more random inputs, and prints
// a table (run with -v). It fails only where the bound is exceeded, which
// TestDiff reports too.
func TestULPReport(t *testing.T) {
	dev := openDevice(t)
	e := &env{dev: dev, r: newRand(t), nRandom: *reportFlag}
	if testing.Short() || dev.Backend() != runtime.GPU {
		// The CPU backend calls Go itself: there is nothing to measure.
		e.nRandom = min(e.nRandom, 5000)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "max ulp difference, device %s vs Go %s/%s:\n", dev, goruntime.GOOS, goruntime.GOARCH)
	fmt.Fprintf(&b, "%-20s %8s %8s %9s  %s\n", "operator", "bound", "max ulp", "inputs", "worst inputs")
	for _, c := range sortedCases() {
		if !c.measured {
			continue
		}
		var r result
		t.Run(c.name, func(t *testing.T) { r = c.run(t, e) })
		if r.worst == "" {
			r.worst = "-"
		}
		fmt.Fprintf(&b, "%-20s %8d %8d %9d  %s\n", c.name, c.ulp, r.maxULP, r.n, r.worst)
	}
	t.Log("\n" + b.String())
}
