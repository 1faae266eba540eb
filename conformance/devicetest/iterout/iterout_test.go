package iterout

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// Poison fills every output before a run.
const (
	poisonI32 = int32(-777)
	poisonF64 = -777.25
)

// data is one random draw: values never zero, keys in short runs.
type data struct {
	n    int
	xs   []int32   // ±[1, 1000]
	runs []int32   // ±[1, 3]: runs of equal keys
	fs   []float64 // ±[1, 1000] + 0.5
	recs []Rec
	perm []int64 // a permutation of [0, n)
}

func draw(r *rand.Rand, n int) *data {
	d := &data{n: n}
	sign := func() int32 { return int32(1 - 2*r.IntN(2)) }
	for i := range n {
		d.xs = append(d.xs, sign()*int32(r.IntN(1000)+1))
		d.runs = append(d.runs, sign()*int32(r.IntN(3)+1))
		d.fs = append(d.fs, float64(sign())*(float64(r.IntN(1000)+1)+0.5))
		d.recs = append(d.recs, Rec{sign() * int32(r.IntN(2)+1), float64(sign()) * (float64(r.IntN(1000)) + 0.5)})
		d.perm = append(d.perm, int64(i))
	}
	r.Shuffle(n, func(i, j int) { d.perm[i], d.perm[j] = d.perm[j], d.perm[i] })
	return d
}

// bufs are data's inputs on one device.
type bufs struct {
	xs, runs *runtime.Slice[int32]
	fs       *runtime.Slice[float64]
	recs     *runtime.Slice[Rec]
	perm     *runtime.Slice[int64]
}

func upload(t *testing.T, d *runtime.Device, x *data) *bufs {
	return &bufs{devcheck.Upload(t, d, x.xs), devcheck.Upload(t, d, x.runs), devcheck.Upload(t, d, x.fs), devcheck.Upload(t, d, x.recs), devcheck.Upload(t, d, x.perm)}
}

// outs are fresh poisoned outputs of n elements on one device.
type outs struct {
	i32, i32b *runtime.Slice[int32]
	f64, f64b *runtime.Slice[float64]
	rec       *runtime.Slice[Rec]
	counts    *runtime.Slice[int64]
}

func fresh(t *testing.T, d *runtime.Device, n int) *outs {
	return &outs{
		devcheck.Upload(t, d, slices.Repeat([]int32{poisonI32}, n)), devcheck.Upload(t, d, slices.Repeat([]int32{poisonI32}, n)),
		devcheck.Upload(t, d, slices.Repeat([]float64{poisonF64}, n)), devcheck.Upload(t, d, slices.Repeat([]float64{poisonF64}, n)),
		devcheck.Upload(t, d, slices.Repeat([]Rec{{poisonI32, poisonF64}}, n)), devcheck.Upload(t, d, []int64{-1, -1}),
	}
}

// read returns every output and the counts after a run.
func (o *outs) read(t *testing.T) []any {
	return []any{devcheck.Download(t, o.i32), devcheck.Download(t, o.i32b), devcheck.Download(t, o.f64), devcheck.Download(t, o.f64b), devcheck.Download(t, o.rec), devcheck.Download(t, o.counts)}
}

// expect is what outs hold after a run, built by the oracle.
type expect struct {
	i32, i32b []int32
	f64, f64b []float64
	rec       []Rec
	counts    []int64
}

func blank(n int) *expect {
	return &expect{slices.Repeat([]int32{poisonI32}, n), slices.Repeat([]int32{poisonI32}, n),
		slices.Repeat([]float64{poisonF64}, n), slices.Repeat([]float64{poisonF64}, n),
		slices.Repeat([]Rec{{poisonI32, poisonF64}}, n), []int64{-1, -1}}
}

func (e *expect) list() []any { return []any{e.i32, e.i32b, e.f64, e.f64b, e.rec, e.counts} }

// Output writes of the oracle, one per kind, of the values res in index
// order.
func (e *expect) half(res []int32) {
	for i, v := range res {
		e.f64[i] = Half(v)
	}
}

func (e *expect) revF64(res []float64) {
	for i, v := range res {
		e.f64[len(e.f64)-1-i] = v
	}
}

func (e *expect) revI32b(res []int32) {
	for i, v := range res {
		e.i32b[len(e.i32b)-1-i] = v
	}
}

func (e *expect) scatter(res []int32, perm []int64) {
	for i, v := range res {
		e.i32[perm[i]] = v
	}
}

func (e *expect) unzip(res []Rec) {
	for i, r := range res {
		e.i32[i], e.f64[i] = r.K, r.V
	}
}

// Sequential oracles.

func keep[T any](pred func(T) bool, xs []T) []T {
	out := []T{}
	for _, x := range xs {
		if pred(x) {
			out = append(out, x)
		}
	}
	return out
}

func parted[T any](pred func(T) bool, xs []T) []T {
	out := keep(pred, xs)
	for i := len(xs) - 1; i >= 0; i-- {
		if !pred(xs[i]) {
			out = append(out, xs[i])
		}
	}
	return out
}

func threeWay[T any](first, second func(T) bool, xs []T) (a, b, rest []T) {
	a, b, rest = []T{}, []T{}, []T{}
	for _, x := range xs {
		switch {
		case first(x):
			a = append(a, x)
		case second(x):
			b = append(b, x)
		default:
			rest = append(rest, x)
		}
	}
	return a, b, rest
}

func heads[K, V any](eq func(K, K) bool, keys []K, values []V) ([]K, []V) {
	ks, vs := []K{}, []V{}
	for i := range keys {
		if i == 0 || !eq(keys[i-1], keys[i]) {
			ks, vs = append(ks, keys[i]), append(vs, values[i])
		}
	}
	return ks, vs
}

// testCase runs one instance into fresh outputs; want builds what they
// hold from the oracle.
type testCase struct {
	name string
	run  func(d *runtime.Device, b *bufs, o *outs) error
	want func(x *data, e *expect)
}

func count(e *expect, ks ...int) {
	for i, k := range ks {
		e.counts[i] = int64(k)
	}
}

func cases() []testCase {
	return []testCase{
		{"Select/Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return SelDrop.Run(nil, b.xs, DropI32.Bind(), o.counts)
		}, func(x *data, e *expect) { count(e, len(keep(Odd, x.xs))) }},
		{"Select/TransformOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return SelHalf.Run(nil, b.xs, Halved.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { r := keep(Odd, x.xs); e.half(r); count(e, len(r)) }},
		{"Select/ReverseOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return SelRev.Run(nil, b.fs, RevF64.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { r := keep(Positive, x.fs); e.revF64(r); count(e, len(r)) }},
		{"Select/PermutationOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return SelScatter.Run(nil, b.xs, Scattered.Bind(OutI32.With(o.i32), Idx.With(b.perm)), o.counts)
		}, func(x *data, e *expect) { r := keep(Odd, x.xs); e.scatter(r, x.perm); count(e, len(r)) }},
		{"Select/ZipOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return SelZip.Run(nil, b.recs, Unzipped.Bind(OutI32.With(o.i32), OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { r := keep(RecOdd, x.recs); e.unzip(r); count(e, len(r)) }},
		{"Select/Reverse into TransformOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			in := it.Slice[int32]()
			return SelCounted.Run(nil, it.Reverse(in).Bind(in.With(b.xs)), Halved.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) {
			rev := slices.Clone(x.xs)
			slices.Reverse(rev)
			r := keep(Odd, rev)
			e.half(r)
			count(e, len(r))
		}},

		{"Partition/Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return PartDrop.Run(nil, b.xs, DropI32.Bind(), o.counts)
		}, func(x *data, e *expect) { count(e, len(keep(Odd, x.xs))) }},
		{"Partition/TransformOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return PartHalf.Run(nil, b.xs, Halved.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { e.half(parted(Odd, x.xs)); count(e, len(keep(Odd, x.xs))) }},
		{"Partition/ReverseOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return PartRev.Run(nil, b.fs, RevF64.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { e.revF64(parted(Positive, x.fs)); count(e, len(keep(Positive, x.fs))) }},
		{"Partition/PermutationOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return PartScatter.Run(nil, b.xs, Scattered.Bind(OutI32.With(o.i32), Idx.With(b.perm)), o.counts)
		}, func(x *data, e *expect) { e.scatter(parted(Odd, x.xs), x.perm); count(e, len(keep(Odd, x.xs))) }},
		{"Partition/ZipOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return PartZip.Run(nil, b.recs, Unzipped.Bind(OutI32.With(o.i32), OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { e.unzip(parted(RecOdd, x.recs)); count(e, len(keep(RecOdd, x.recs))) }},

		{"Unique/Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return UniqDrop.Run(nil, b.runs, DropI32.Bind(), o.counts)
		}, func(x *data, e *expect) { r, _ := heads(EqI32, x.runs, x.runs); count(e, len(r)) }},
		{"Unique/TransformOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return UniqHalf.Run(nil, b.runs, Halved.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { r, _ := heads(EqI32, x.runs, x.runs); e.half(r); count(e, len(r)) }},
		{"Unique/ReverseOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			fs, err := runtime.FromHost(d, halves(b, d))
			if err != nil {
				return err
			}
			return UniqRev.Run(nil, fs, RevF64.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) {
			fs := make([]float64, x.n)
			for i, v := range x.runs {
				fs[i] = Half(v)
			}
			r, _ := heads(EqF64, fs, fs)
			e.revF64(r)
			count(e, len(r))
		}},
		{"Unique/PermutationOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return UniqScatter.Run(nil, b.runs, Scattered.Bind(OutI32.With(o.i32), Idx.With(b.perm)), o.counts)
		}, func(x *data, e *expect) { r, _ := heads(EqI32, x.runs, x.runs); e.scatter(r, x.perm); count(e, len(r)) }},
		{"Unique/ZipOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return UniqZip.Run(nil, b.recs, Unzipped.Bind(OutI32.With(o.i32), OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) { r, _ := heads(EqRec, x.recs, x.recs); e.unzip(r); count(e, len(r)) }},

		{"ThreeWayPartition/Slice, Discard, Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return ThreeFirst.Run(nil, b.xs, o.i32, DropI32.Bind(), DropI32.Bind(), o.counts)
		}, func(x *data, e *expect) {
			a, b, _ := threeWay(Low, Mid, x.xs)
			copy(e.i32, a)
			count(e, len(a), len(b))
		}},
		{"ThreeWayPartition/TransformOutput, ReverseOutput, PermutationOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return ThreeMixed.Run(nil, b.xs, Halved.Bind(OutF64.With(o.f64)), RevI32.Bind(OutI32.With(o.i32b)),
				Scattered.Bind(OutI32.With(o.i32), Idx.With(b.perm)), o.counts)
		}, func(x *data, e *expect) {
			a, b, rest := threeWay(Low, Mid, x.xs)
			e.half(a)
			e.revI32b(b)
			e.scatter(rest, x.perm)
			count(e, len(a), len(b))
		}},
		{"ThreeWayPartition/ZipOutput, Slice, Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return ThreeZip.Run(nil, b.recs, Unzipped.Bind(OutI32.With(o.i32), OutF64.With(o.f64)), o.rec, DropRec.Bind(), o.counts)
		}, func(x *data, e *expect) {
			a, b, _ := threeWay(RecOdd, RecPositive, x.recs)
			e.unzip(a)
			copy(e.rec, b)
			count(e, len(a), len(b))
		}},

		{"UniqueByKey/Discard, Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return CountRuns.Run(nil, b.runs, b.fs, DropI32.Bind(), DropF64.Bind(), o.counts)
		}, func(x *data, e *expect) { k, _ := heads(EqI32, x.runs, x.fs); count(e, len(k)) }},
		{"UniqueByKey/TransformOutput, ReverseOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return UbkMixed.Run(nil, b.runs, b.fs, Halved.Bind(OutF64.With(o.f64b)), RevF64.Bind(OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) {
			k, v := heads(EqI32, x.runs, x.fs)
			for i, key := range k {
				e.f64b[i] = Half(key)
			}
			e.revF64(v)
			count(e, len(k))
		}},
		{"UniqueByKey/PermutationOutput, ZipOutput", func(d *runtime.Device, b *bufs, o *outs) error {
			return UbkZip.Run(nil, b.runs, b.recs, Scattered.Bind(OutI32.With(o.i32b), Idx.With(b.perm)),
				Unzipped.Bind(OutI32.With(o.i32), OutF64.With(o.f64)), o.counts)
		}, func(x *data, e *expect) {
			k, v := heads(EqI32, x.runs, x.recs)
			for i, key := range k {
				e.i32b[x.perm[i]] = key
			}
			e.unzip(v)
			count(e, len(k))
		}},
		{"UniqueByKey/Counting values into Slice, Discard", func(d *runtime.Device, b *bufs, o *outs) error {
			return UbkStarts.Run(nil, b.runs, Pos.Bind(Pos.With(0)), o.i32, it.Discard[int64]().Bind(), o.counts)
		}, func(x *data, e *expect) {
			k, _ := heads(EqI32, x.runs, x.runs)
			copy(e.i32, k)
			count(e, len(k))
		}},
	}
}

// halves is Half of the run keys, computed on the host from b's device.
func halves(b *bufs, d *runtime.Device) []float64 {
	runs, _ := b.runs.ToHost()
	fs := make([]float64, len(runs))
	for i, v := range runs {
		fs[i] = Half(v)
	}
	return fs
}

// sizes covers one partial tile, several tiles and many.
var sizes = []int{1, 777, 5000, 1 << 18}

// check runs every case on d into fresh poisoned outputs and compares what
// they hold with the sequential oracle.
func check(t *testing.T, d *runtime.Device, what string) {
	r := devcheck.Rand(t)
	for _, n := range sizes {
		x := draw(r, n)
		b := upload(t, d, x)
		for _, c := range cases() {
			o := fresh(t, d, n)
			require.NoError(t, c.run(d, b, o), "%s, n=%d, %s", c.name, n, what)
			e := blank(n)
			c.want(x, e)
			require.Equal(t, e.list(), o.read(t), "%s, n=%d, %s", c.name, n, what)
		}
	}
}

// TestSelectFamilyIntoCPU runs every case on the CPU backend, through the
// registrations gocccl-gen generated, against sequential loops.
func TestSelectFamilyIntoCPU(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	check(t, d, "CPU backend")
}

// gpu opens GPU 0 or skips the test.
func gpu(t *testing.T) *runtime.Device {
	t.Helper()
	g, err := runtime.OpenGPU(0)
	if err != nil {
		t.Skipf("no CUDA GPU: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	t.Logf("device: %s", g)
	return g
}

// TestSelectFamilyIntoGPU runs every case on the GPU against the same
// loops, and so against the CPU backend.
func TestSelectFamilyIntoGPU(t *testing.T) { check(t, gpu(t), "GPU") }

// TestSelectFamilyIntoGPUMatchesCPU runs every case on both over the same
// inputs and requires the same outputs.
func TestSelectFamilyIntoGPUMatchesCPU(t *testing.T) {
	g := gpu(t)
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer cpu.Close()
	x := draw(devcheck.Rand(t), 100003)
	bg, bc := upload(t, g, x), upload(t, cpu, x)
	for _, c := range cases() {
		og, oc := fresh(t, g, x.n), fresh(t, cpu, x.n)
		require.NoError(t, c.run(g, bg, og), "%s, GPU", c.name)
		require.NoError(t, c.run(cpu, bc, oc), "%s, CPU backend", c.name)
		require.Equal(t, oc.read(t), og.read(t), "%s: GPU and CPU backend", c.name)
	}
}

// TestUndeclaredOutputComposition: a composition no instance declared is
// refused with runtime.ErrNotGenerated naming the declaration to add, on
// the CPU backend and (when present) on the GPU alike.
func TestUndeclaredOutputComposition(t *testing.T) {
	devs := []*runtime.Device{}
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer cpu.Close()
	devs = append(devs, cpu)
	if g, err := runtime.OpenGPU(0); err == nil {
		defer g.Close()
		devs = append(devs, g)
	}
	const pkg = "github.com/gocccl/gocccl/conformance/devicetest/iterout."
	undeclared := it.TransformOutput(OutF64, NotDeclared)
	for _, d := range devs {
		xs, fs := devcheck.Upload(t, d, []int32{1, 2, 3}), devcheck.Upload(t, d, make([]float64, 3))
		is, counts := devcheck.Upload(t, d, make([]int32, 3)), devcheck.Upload(t, d, []int64{0, 0})
		for _, c := range []struct {
			want string
			err  error
		}{
			{"Select(" + pkg + "Odd).Into(iterator.TransformOutput(iterator.Slice[float64](), " + pkg + "NotDeclared))",
				SelHalf.Run(nil, xs, undeclared.Bind(OutF64.With(fs)), counts)},
			{"Partition(" + pkg + "Odd).Into(iterator.ReverseOutput(iterator.Slice[int32]()))",
				PartDrop.Run(nil, xs, RevI32.Bind(OutI32.With(is)), counts)},
			{"ThreeWayPartition(" + pkg + "Low, " + pkg + "Mid).Into(iterator.Discard[int32](), iterator.Slice[int32](), iterator.Slice[int32]())",
				ThreeFirst.Run(nil, xs, DropI32.Bind(), is, devcheck.Upload(t, d, make([]int32, 3)), counts)},
			{"UniqueByKey[int32, float64](" + pkg + "EqI32).Into(iterator.Discard[int32](), iterator.Slice[float64]())",
				CountRuns.Run(nil, xs, fs, DropI32.Bind(), devcheck.Upload(t, d, make([]float64, 3)), counts)},
		} {
			require.ErrorIs(t, c.err, runtime.ErrNotGenerated, "%s on %s", c.want, d)
			require.ErrorContains(t, c.err, c.want, d.String())
			require.Equal(t, 1, strings.Count(c.err.Error(), "gocccl: "), "one prefix: %v", c.err)
		}
	}
}
