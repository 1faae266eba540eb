package iterator

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/iter"
	it "github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// data is one random draw of every value the compositions bind.
type data struct {
	n      int
	xs     []int32
	fs     []float64 // small integers: sums are exact in any order
	ys     []int64
	idx    []int64 // indices into xs, with repeats
	perm   []int64 // a permutation of [0, n), for scatters
	start  int32
	startF float32
	c      int32
	seed   uint64
}

func draw(r *rand.Rand, n int) *data {
	d := &data{n: n, start: int32(r.IntN(1 << 20)), startF: float32(r.IntN(1000)) - 500, c: int32(r.IntN(100)) - 50, seed: r.Uint64()}
	for i := range n {
		d.xs = append(d.xs, int32(r.Uint32()))
		d.fs = append(d.fs, float64(r.IntN(2001)-1000))
		d.ys = append(d.ys, int64(r.Uint64()))
		d.idx = append(d.idx, int64(r.IntN(n)))
		d.perm = append(d.perm, int64(i))
	}
	r.Shuffle(n, func(i, j int) { d.perm[i], d.perm[j] = d.perm[j], d.perm[i] })
	return d
}

// bufs are data's arrays on one device.
type bufs struct {
	xs   *runtime.Slice[int32]
	fs   *runtime.Slice[float64]
	ys   *runtime.Slice[int64]
	idx  *runtime.Slice[int64]
	perm *runtime.Slice[int64]
	o32  *runtime.Slice[int32]
	o64  *runtime.Slice[int64]
	of   *runtime.Slice[float64]
}

// upload puts x and zeroed outputs on d, freed when the test ends.
func upload(t *testing.T, d *runtime.Device, x *data) *bufs {
	t.Helper()
	return &bufs{
		devcheck.Upload(t, d, x.xs), devcheck.Upload(t, d, x.fs), devcheck.Upload(t, d, x.ys), devcheck.Upload(t, d, x.idx), devcheck.Upload(t, d, x.perm),
		devcheck.Upload(t, d, make([]int32, x.n)), devcheck.Upload(t, d, make([]int64, x.n)), devcheck.Upload(t, d, make([]float64, x.n)),
	}
}

// testCase runs one instance over one composition on a device and returns
// what it wrote, read back to the host; want is the sequential oracle.
type testCase struct {
	name string
	run  func(t *testing.T, d *runtime.Device, b *bufs, x *data) any
	want func(x *data) any
}

// one returns the first element of out.
func one[T any](t *testing.T, out *runtime.Slice[T]) T {
	t.Helper()
	return devcheck.Download(t, out)[0]
}

func reduceTo[T any](t *testing.T, d *runtime.Device, run func(out *runtime.Slice[T]) error) T {
	out, err := runtime.Alloc[T](d, 1)
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, run(out))
	return one(t, out)
}

func seqSum[T int32 | int64 | float64](n int, f func(i int) T) T {
	var s T
	for i := range n {
		s += f(i)
	}
	return s
}

func cases() []testCase {
	return []testCase{
		{"Reduce/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return reduceTo(t, d, func(o *runtime.Slice[int32]) error {
				return SumSquares.Run(nil, Squares.Bind(CountI32.With(x.start)).Take(x.n), o, 7)
			})
		}, func(x *data) any {
			return 7 + seqSum(x.n, func(i int) int32 { return SquareI32(x.start + int32(i)) })
		}},
		{"Reduce/Transform³(Counting[float32])", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return reduceTo(t, d, func(o *runtime.Slice[float32]) error {
				return MaxHalves.Run(nil, NestedHalf.Bind(CountF32.With(x.startF)).Take(x.n), o, -1e30)
			})
		}, func(x *data) any {
			m := float32(-1e30)
			for i := range x.n {
				m = max(m, Half(Half(Half(x.startF+float32(i)))))
			}
			return m
		}},
		{"Reduce/Permutation", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return reduceTo(t, d, func(o *runtime.Slice[int32]) error {
				return SumGather.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), o, 0)
			})
		}, func(x *data) any { return seqSum(x.n, func(i int) int32 { return x.xs[x.idx[i]] }) }},
		{"Reduce/Permutation(Shuffle)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return reduceTo(t, d, func(o *runtime.Slice[int32]) error {
				return SumShuffled.Run(nil, Shuffled.Bind(XsI32.With(b.xs), Shuf.With(x.n, x.seed)), o, 0)
			})
		}, func(x *data) any { return seqSum(x.n, func(i int) int32 { return x.xs[i] }) }},
		{"Reduce/Constant", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return reduceTo(t, d, func(o *runtime.Slice[int32]) error {
				return SumConst.Run(nil, ConstI32.Bind(ConstI32.With(x.c)).Take(x.n), o, 1)
			})
		}, func(x *data) any { return 1 + int32(x.n)*x.c }},
		{"Reduce/Transform(Zip)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			comp := it.Transform(Zipped, PairSum)
			return reduceTo(t, d, func(o *runtime.Slice[float64]) error {
				return SumZip.Run(nil, comp.Bind(CountI32.With(x.start), XsF64.With(b.fs)), o, 0)
			})
		}, func(x *data) any {
			return seqSum(x.n, func(i int) float64 { return PairSum(Pair{x.start + int32(i), x.fs[i]}) })
		}},
		{"Reduce/Transform(Zip of 3)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			comp := it.Transform(Zip3, TripleSum)
			return reduceTo(t, d, func(o *runtime.Slice[int64]) error {
				return SumZip3.Run(nil, comp.Bind(XsI32.With(b.xs), CountF32.With(x.startF), YsI64.With(b.ys), Shuf.With(x.n, x.seed)), o, 0)
			})
		}, func(x *data) any {
			return seqSum(x.n, func(i int) int64 {
				return TripleSum(Triple{x.xs[i], x.startF + float32(i), x.ys[iter.ShuffleAt(int64(x.n), x.seed, int64(i))]})
			})
		}},
		{"Reduce/CacheModified", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			var got []int32
			for _, c := range []struct {
				inst *runtime.ReduceOp[int32]
				comp *it.In[int32]
			}{{SumStreamed, Streamed}, {SumL2, L2}, {SumVol, Vol}} {
				got = append(got, reduceTo(t, d, func(o *runtime.Slice[int32]) error {
					return c.inst.Run(nil, c.comp.Bind(XsI32.With(b.xs)), o, 0)
				}))
			}
			return got
		}, func(x *data) any {
			s := seqSum(x.n, func(i int) int32 { return x.xs[i] })
			return []int32{s, s, s}
		}},
		{"Reduce/Reverse into TransformOutput", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, SumDoubled.Run(nil, Reversed.Bind(XsI32.With(b.xs)), Doubled.Bind(OutI32.With(b.o32.Range(0, 1))), 3))
			return one(t, b.o32)
		}, func(x *data) any { return Twice(3 + seqSum(x.n, func(i int) int32 { return x.xs[i] })) }},
		{"UnaryTransform/Transform(Reverse(Permutation))", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, CopyRev.Run(nil, RevSquares.Bind(XsI32.With(b.xs), Idx.With(b.idx)), b.o32))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out := make([]int32, x.n)
			for i := range out {
				out[i] = SquareI32(SquareI32(x.xs[x.idx[x.n-1-i]]))
			}
			return out
		}},
		{"UnaryTransform/Permutation(Shuffle) into ReverseOutput", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, CopyShuffled.Run(nil, Shuffled.Bind(XsI32.With(b.xs), Shuf.With(x.n, x.seed)), RevOut.Bind(OutI32.With(b.o32))))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out := make([]int32, x.n)
			for i := range out {
				out[x.n-1-i] = Twice(x.xs[iter.ShuffleAt(int64(x.n), x.seed, int64(i))])
			}
			return out
		}},
		{"UnaryTransform into PermutationOutput", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, Scatter.Run(nil, b.xs, Scattered.Bind(OutI32.With(b.o32), Idx.With(b.perm))))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out := make([]int32, x.n)
			for i := range out {
				out[x.perm[i]] = Twice(x.xs[i])
			}
			return out
		}},
		{"UnaryTransform into ZipOutput", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, SplitOut.Run(nil, b.xs, Unzipped.Bind(OutI32.With(b.o32), OutF64.With(b.of))))
			return []any{devcheck.Download(t, b.o32), devcheck.Download(t, b.of)}
		}, func(x *data) any {
			a, f := make([]int32, x.n), make([]float64, x.n)
			for i := range a {
				p := Split(x.xs[i])
				a[i], f[i] = p.A, p.B
			}
			return []any{a, f}
		}},
		{"UnaryTransform into Discard", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			return DropAll.Run(d.DefaultStream(), CountI32.Bind(CountI32.With(x.start)).Take(x.n), Dropped.Bind())
		}, func(x *data) any { return error(nil) }},
		{"BinaryTransform/Counting×Constant", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, MulCountConst.Run(nil, CountI32.Bind(CountI32.With(x.start)).Take(x.n), ConstI32.Bind(ConstI32.With(x.c)), b.o32))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out := make([]int32, x.n)
			for i := range out {
				out[i] = (x.start + int32(i)) * x.c
			}
			return out
		}},
		{"BinaryTransform/Slice×Reverse", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, MulSliceRev.Run(nil, b.xs, Reversed.Bind(XsI32.With(b.xs)), b.o32))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out := make([]int32, x.n)
			for i := range out {
				out[i] = x.xs[i] * x.xs[x.n-1-i]
			}
			return out
		}},
		{"InclusiveScan/Transform(Counting)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, ScanSquares.Run(nil, Squares.Bind(CountI32.With(x.start)).Take(x.n), b.o32))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out, s := make([]int32, x.n), int32(0)
			for i := range out {
				s += SquareI32(x.start + int32(i))
				out[i] = s
			}
			return out
		}},
		{"InclusiveScan/Permutation into TransformOutput", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, ScanGatherOut.Run(nil, Gather.Bind(XsI32.With(b.xs), Idx.With(b.idx)), Doubled.Bind(OutI32.With(b.o32))))
			return devcheck.Download(t, b.o32)
		}, func(x *data) any {
			out, s := make([]int32, x.n), int32(0)
			for i := range out {
				s += x.xs[x.idx[i]]
				out[i] = Twice(s)
			}
			return out
		}},
		{"ExclusiveScan/Transform(Permutation)", func(t *testing.T, d *runtime.Device, b *bufs, x *data) any {
			require.NoError(t, ScanWidened.Run(nil, Widened.Bind(XsI32.With(b.xs), Idx.With(b.idx)), b.o64, 11))
			return devcheck.Download(t, b.o64)
		}, func(x *data) any {
			out, s := make([]int64, x.n), int64(11)
			for i := range out {
				out[i] = s
				s += Widen(x.xs[x.idx[i]])
			}
			return out
		}},
	}
}

func devices(t *testing.T) (dut, oracle *runtime.Device, gpu bool) {
	t.Helper()
	cpu, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { cpu.Close() })
	g, err := runtime.OpenGPU(0)
	if err != nil {
		t.Logf("no CUDA GPU (%v): comparing the CPU backend with sequential loops", err)
		return cpu, cpu, false
	}
	t.Cleanup(func() { g.Close() })
	t.Logf("device: %s", g)
	return g, cpu, true
}

// TestIteratorsMatchCPU runs every composition on the GPU and on the CPU
// backend over fresh random inputs and requires the same results, and both
// to equal a sequential loop over the Go operators.
func TestIteratorsMatchCPU(t *testing.T) {
	dut, oracle, _ := devices(t)
	r := devcheck.Rand(t)
	for _, n := range []int{1, 777, 5000, 1 << 18} {
		x := draw(r, n)
		bd, bo := upload(t, dut, x), upload(t, oracle, x)
		for _, c := range cases() {
			want := c.want(x)
			require.Equal(t, want, c.run(t, oracle, bo, x), "%s, n=%d, CPU backend", c.name, n)
			if dut != oracle {
				require.Equal(t, want, c.run(t, dut, bd, x), "%s, n=%d, GPU", c.name, n)
			}
		}
	}
}

// TestShuffleIsAPermutation: every n gives a bijection of [0, n).
func TestShuffleIsAPermutation(t *testing.T) {
	for _, n := range []int64{1, 2, 3, 5, 64, 1000, 4097} {
		seen := make([]bool, n)
		for i := range n {
			j := iter.ShuffleAt(n, 42, i)
			require.True(t, j >= 0 && j < n && !seen[j], "n=%d i=%d j=%d", n, i, j)
			seen[j] = true
		}
	}
	require.False(t, slices.Equal([]int64{iter.ShuffleAt(1000, 1, 0), iter.ShuffleAt(1000, 1, 1)}, []int64{0, 1}))
}

//gocccl:op
func NotDeclared(x int32) int32 { return x + 1 }

// TestUndeclaredComposition: a composition no instance declared is an
// error naming the declaration, on a GPU and on the CPU backend alike;
// never a fallback.
func TestUndeclaredComposition(t *testing.T) {
	dut, _, _ := devices(t)
	xs, err := runtime.FromHost(dut, []int32{1, 2, 3})
	require.NoError(t, err)
	out, err := runtime.Alloc[int32](dut, 1)
	require.NoError(t, err)
	comp := it.Transform(XsI32, NotDeclared)
	err = SumGather.Run(nil, comp.Bind(XsI32.With(xs)), out, 0)
	require.ErrorIs(t, err, runtime.ErrNotGenerated)
	require.ErrorContains(t, err, "Over(iterator.Transform(iterator.Slice[int32](), github.com/gocccl/gocccl/conformance/devicetest/iterator.NotDeclared))")
	require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), "one prefix: %v", err)
}
