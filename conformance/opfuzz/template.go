package opfuzz

// testTemplate is the differential test of a generated package, after its
// package clause; the table of cases follows it.
const testTemplate = `// TestOpfuzz runs every instance on the GPU and on the CPU backend over
// edge values and random inputs and requires the same results, and the CPU
// backend's to equal the operator called directly. Results are compared bit
// for bit, except that a NaN whose payload alone differs is logged, not
// failed, unless -opfuzz.nanbits: gocccl follows Go's amd64 NaN payloads,
// but not yet everywhere (where both operands of a float + or * are NaNs,
// gc's register allocation decides which payload Go returns; bench/NOTES.md
// lists the cases the H200 found). Without a GPU only the CPU half runs.
//
//	go test . -opfuzz.seed=N     # replay the random inputs of a run
//	go test . -opfuzz.random=N   # random inputs per operator

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gocccl/gocccl/runtime"
)

var (
	seedFlag   = flag.Uint64("opfuzz.seed", 0, "seed of the random inputs (0: from the clock, logged)")
	randomFlag = flag.Int("opfuzz.random", 4096, "random inputs (or pairs) per operator, besides the edge values")
	nanBits    = flag.Bool("opfuzz.nanbits", false, "fail on NaNs whose payload alone differs (logged otherwise)")
)

// fuzzCase is one operator: run computes its results on a device and
// directly in Go.
type fuzzCase struct {
	name string
	run  func(t *testing.T, r *rand.Rand, n int, devs []*runtime.Device) (inputs []string, results [][]any)
}

func unary[In, Out any](name string, fn func(In) Out, op *runtime.UnaryTransformOp[In, Out]) fuzzCase {
	return fuzzCase{name, func(t *testing.T, r *rand.Rand, n int, devs []*runtime.Device) ([]string, [][]any) {
		in := valuesOf[In](r, n)
		inputs := make([]string, len(in))
		want := make([]any, len(in))
		for i, x := range in {
			inputs[i] = format(x)
			want[i] = fn(x)
		}
		results := [][]any{want}
		for _, d := range devs {
			src := fromHost(t, d, in)
			out := fromHost(t, d, make([]Out, len(in)))
			if err := op.Run(nil, src, out); err != nil {
				t.Fatalf("%s on %s: %v", name, d, err)
			}
			results = append(results, toHost(t, out))
		}
		return inputs, results
	}}
}

func binary[A, B, Out any](name string, fn func(A, B) Out, op *runtime.BinaryTransformOp[A, B, Out]) fuzzCase {
	return fuzzCase{name, func(t *testing.T, r *rand.Rand, n int, devs []*runtime.Device) ([]string, [][]any) {
		as, bs := pairsOf[A, B](r, n)
		inputs := make([]string, len(as))
		want := make([]any, len(as))
		for i := range as {
			inputs[i] = format(as[i]) + ", " + format(bs[i])
			want[i] = fn(as[i], bs[i])
		}
		results := [][]any{want}
		for _, d := range devs {
			x, y := fromHost(t, d, as), fromHost(t, d, bs)
			out := fromHost(t, d, make([]Out, len(as)))
			if err := op.Run(nil, x, y, out); err != nil {
				t.Fatalf("%s on %s: %v", name, d, err)
			}
			results = append(results, toHost(t, out))
		}
		return inputs, results
	}}
}

func fromHost[T any](t *testing.T, d *runtime.Device, xs []T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, xs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Free() })
	return s
}

func toHost[T any](t *testing.T, s *runtime.Slice[T]) []any {
	t.Helper()
	xs, err := s.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func TestOpfuzz(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("random seed %d (replay with -opfuzz.seed=%d)", seed, seed)
	n := *randomFlag
	if testing.Short() {
		n = min(n, 256)
	}
	cpu, err := runtime.Open(runtime.CPU)
	if err != nil {
		t.Fatal(err)
	}
	defer cpu.Close()
	devs := []*runtime.Device{cpu}
	names := []string{"Go", "the CPU backend"}
	gpu, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no GPU (%v): comparing the CPU backend with Go only", err)
	} else {
		defer gpu.Close()
		t.Logf("device: %s", gpu)
		devs = append(devs, gpu)
		names = append(names, "the GPU")
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, uint64(i)))
			inputs, results := c.run(t, r, n, devs)
			for j := 1; j < len(results); j++ {
				compare(t, c.name, inputs, results[j-1], results[j], names[j-1], names[j])
			}
		})
	}
	if gpu != nil {
		path := reflect.TypeFor[Pair]().PkgPath()
		target, reason, ok := gpu.LoadedImage(path)
		if !ok {
			t.Fatalf("the GPU never loaded the module of %s", path)
		}
		t.Logf("loaded image %s: %s", target, reason)
	}
}

// compare fails t for every element where got (from gotName) differs from
// want (from wantName), listing the first few.
func compare(t *testing.T, name string, inputs []string, want, got []any, wantName, gotName string) {
	t.Helper()
	var msgs []string
	bad, payload := 0, 0
	for i := range want {
		if equal(reflect.ValueOf(want[i]), reflect.ValueOf(got[i]), false) {
			continue
		}
		bad++
		what := ""
		if equal(reflect.ValueOf(want[i]), reflect.ValueOf(got[i]), true) {
			what = " (NaN payload only)"
			payload++
		}
		if bad <= 10 {
			msgs = append(msgs, fmt.Sprintf("%s(%s)%s\n\t%s: %s\n\t%s: %s", name, inputs[i], what, wantName, format(want[i]), gotName, format(got[i])))
		}
	}
	switch {
	case bad > payload || bad > 0 && *nanBits:
		t.Errorf("%d of %d results of %s differ from %s's (%d in a NaN's payload only); the first ones:\n%s", bad, len(want), gotName, wantName, payload, strings.Join(msgs, "\n"))
	case bad > 0:
		t.Logf("%d of %d results of %s differ from %s's in a NaN's payload only (-opfuzz.nanbits fails them); the first ones:\n%s", bad, len(want), gotName, wantName, strings.Join(msgs, "\n"))
	}
}

// equal compares two values field by field: integers exactly, floats by
// their bits, except that any NaN equals any NaN when nanClass is set.
func equal(w, g reflect.Value, nanClass bool) bool {
	switch w.Kind() {
	case reflect.Int32, reflect.Int64:
		return w.Int() == g.Int()
	case reflect.Uint32, reflect.Uint64:
		return w.Uint() == g.Uint()
	case reflect.Float32:
		a, b := float32Of(w), float32Of(g) // not through float64: it quiets a signalling NaN
		return math.Float32bits(a) == math.Float32bits(b) || nanClass && a != a && b != b
	case reflect.Float64:
		a, b := w.Float(), g.Float()
		return math.Float64bits(a) == math.Float64bits(b) || nanClass && a != a && b != b
	case reflect.Struct:
		for i := range w.NumField() {
			if !equal(w.Field(i), g.Field(i), nanClass) {
				return false
			}
		}
		return true
	}
	panic("opfuzz: cannot compare " + w.Type().String())
}

// float32Of returns a float32 value's bits as a float32 without a trip
// through float64.
func float32Of(v reflect.Value) float32 {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return *(*float32)(c.Addr().UnsafePointer())
}

// format writes a value with the bits of its floats.
func format(x any) string {
	var b strings.Builder
	formatValue(&b, reflect.ValueOf(x))
	return b.String()
}

func formatValue(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Float32:
		fmt.Fprintf(b, "%v (%#08x)", float32Of(v), math.Float32bits(float32Of(v)))
	case reflect.Float64:
		fmt.Fprintf(b, "%v (%#016x)", v.Float(), math.Float64bits(v.Float()))
	case reflect.Struct:
		b.WriteString(v.Type().Name() + "{")
		for i := range v.NumField() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v.Type().Field(i).Name + ": ")
			formatValue(b, v.Field(i))
		}
		b.WriteString("}")
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// valuesOf returns the edge values of T followed by n random values.
func valuesOf[T any](r *rand.Rand, n int) []T {
	var out []T
	for _, v := range edges(reflect.TypeFor[T]()) {
		out = append(out, v.Interface().(T))
	}
	for range n {
		var x T
		random(r, reflect.ValueOf(&x).Elem())
		out = append(out, x)
	}
	return out
}

// pairsOf returns the cross product of the edge values of A and B, then n
// random pairs.
func pairsOf[A, B any](r *rand.Rand, n int) ([]A, []B) {
	var as []A
	var bs []B
	for _, a := range edges(reflect.TypeFor[A]()) {
		for _, b := range edges(reflect.TypeFor[B]()) {
			as = append(as, a.Interface().(A))
			bs = append(bs, b.Interface().(B))
		}
	}
	for range n {
		var a A
		var b B
		random(r, reflect.ValueOf(&a).Elem())
		random(r, reflect.ValueOf(&b).Elem())
		as, bs = append(as, a), append(bs, b)
	}
	return as, bs
}

// edges returns the edge values of t: 0, ±1, the limits, shift counts
// around the widths, for floats also -0, ±Inf, NaNs (with payloads and
// both signs), subnormals, and values where conversions to integers
// overflow. A struct's edge values take the i-th edge value of every field.
func edges(t reflect.Type) []reflect.Value {
	var vs []reflect.Value
	add := func(x any) { vs = append(vs, reflect.ValueOf(x).Convert(t)) }
	switch t.Kind() {
	case reflect.Int32:
		for _, x := range []int64{0, 1, -1, 2, 31, 32, 33, 63, 64, 65, 127, 128, -31, -64, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1, 1 << 16} {
			add(x)
		}
	case reflect.Int64:
		for _, x := range []int64{0, 1, -1, 2, 31, 32, 33, 63, 64, 65, 127, 128, -31, -64, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 1 << 32, math.MaxInt64 - 1, 1 << 53, 1<<53 + 1} {
			add(x)
		}
	case reflect.Uint32:
		for _, x := range []uint64{0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, math.MaxUint32, math.MaxUint32 - 1, 1 << 31, 1<<31 - 1, 1 << 24, 1<<24 + 1} {
			add(x)
		}
	case reflect.Uint64:
		for _, x := range []uint64{0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, math.MaxUint64, math.MaxUint64 - 1, 1 << 63, 1<<63 - 1, 1<<63 + 1, math.MaxUint32, 1 << 53, 1<<53 + 1} {
			add(x)
		}
	case reflect.Float32:
		for _, x := range []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -2.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
			math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00000), math.Float32frombits(0x7f800001),
			math.Float32frombits(0xff812345), math.Float32frombits(0xffe00007), math.Float32frombits(0x7fbfffff),
			math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126, 2147483648, -2147483904, 4294967296, 9.223372e18, 1.8446744e19, 1e10, 3.1415927} {
			add(x)
		}
	case reflect.Float64:
		for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, math.Inf(1), math.Inf(-1), math.NaN(),
			math.Float64frombits(0x7ff8000000000123), math.Float64frombits(0xfff8000000000000), math.Float64frombits(0x7ff0000000000001),
			math.Float64frombits(0xfff0000000012345), math.Float64frombits(0x7ff80000e0000000), math.Float64frombits(0xfff4000020000000),
			math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 2147483648, -2147483649, 4294967296, 9223372036854775807, -9223372036854775808, 18446744073709551616, 1e300, math.Pi, 710, -745} {
			add(x)
		}
	case reflect.Struct:
		fields := make([][]reflect.Value, t.NumField())
		longest := 0
		for i := range fields {
			fields[i] = edges(t.Field(i).Type)
			longest = max(longest, len(fields[i]))
		}
		for i := range longest {
			v := reflect.New(t).Elem()
			for f, fe := range fields {
				v.Field(f).Set(fe[(i*(f+1))%len(fe)])
			}
			vs = append(vs, v)
		}
	default:
		panic("opfuzz: no edge values for " + t.String())
	}
	return vs
}

// random sets v to a random value: integers of random bits, small or
// large; floats of random bits (every class), or moderate values.
func random(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Int32, reflect.Int64:
		x := int64(r.Uint64())
		if r.IntN(3) == 0 {
			x = x % 300
		}
		v.SetInt(x)
	case reflect.Uint32, reflect.Uint64:
		x := r.Uint64()
		if r.IntN(3) == 0 {
			x = x % 300
		}
		v.SetUint(x)
	case reflect.Float32:
		x := math.Float32frombits(r.Uint32())
		if r.IntN(2) == 0 {
			x = float32((r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(19)-9)))
		}
		v.SetFloat(float64(x))
	case reflect.Float64:
		x := math.Float64frombits(r.Uint64())
		if r.IntN(2) == 0 {
			x = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(41)-20))
		}
		v.SetFloat(x)
	case reflect.Struct:
		for i := range v.NumField() {
			random(r, v.Field(i))
		}
	default:
		panic("opfuzz: no random values of " + v.Type().String())
	}
}
`
