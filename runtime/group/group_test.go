package group

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// TestMain runs the instances declared here, which gocccl-gen does not
// generate, on the CPU backend (runtime.EnvUngenerated).
func TestMain(m *testing.M) {
	if err := os.Setenv(runtime.EnvUngenerated, "1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

//gocccl:op
func add(a, b int64) int64 { return a + b }

//gocccl:op
func maxOf(a, b int64) int64 { return max(a, b) }

var (
	sum     = runtime.Reduce(add)
	biggest = runtime.Reduce(maxOf)
	incl    = runtime.InclusiveScan(add)
	excl    = runtime.ExclusiveScan(add)
	inclMax = runtime.InclusiveScan(maxOf)
)

// cpuGroup opens size CPU devices as a group.
func cpuGroup(t *testing.T, size int) *Group {
	t.Helper()
	devs := make([]*runtime.Device, size)
	for i := range devs {
		d, err := runtime.Open(runtime.CPU)
		require.NoError(t, err)
		devs[i] = d
	}
	g, err := New(devs...)
	require.NoError(t, err)
	return g
}

func randomInt64s(rng *rand.Rand, n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = rng.Int64N(1<<40) - 1<<39
	}
	return xs
}

// shapes are the group sizes and lengths the tests run: one device, n
// smaller than the group (empty shards), uneven shards, a prime length.
var shapes = []struct{ size, n int }{
	{1, 0}, {1, 1}, {1, 1000}, {2, 0}, {2, 1}, {3, 2}, {4, 3}, {3, 1000}, {4, 1 << 12}, {5, 10007}, {8, 7},
}

// TestReduce checks Reduce over a group against one device's Reduce of the
// whole input, bit for bit (integers), with an init that is not the
// operator's identity.
func TestReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	one := cpuGroup(t, 1)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := randomInt64s(rng, sh.n)
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()
			for _, inst := range []*runtime.ReduceOp[int64]{sum, biggest} {
				got, err := Reduce(inst, in, 17)
				require.NoError(t, err)
				want := singleReduce(t, one.Device(0), inst, host, 17)
				assert.Equal(t, want, got)
				plain := int64(17)
				for _, x := range host {
					plain = inst.Operator()(plain, x)
				}
				assert.Equal(t, plain, got, "against a Go loop")
			}
		})
	}
}

func singleReduce(t *testing.T, d *runtime.Device, inst *runtime.ReduceOp[int64], host []int64, init int64) int64 {
	t.Helper()
	in, err := runtime.FromHost(d, host)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.FromHost(d, []int64{-99}) // poisoned
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, inst.Run(nil, in, out, init))
	res, err := out.ToHost()
	require.NoError(t, err)
	return res[0]
}

// TestScans checks InclusiveScan and ExclusiveScan over a group against
// one device's scans of the whole input, with poisoned outputs.
func TestScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := randomInt64s(rng, sh.n)
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()

			check := func(name string, run func(out *Sharded[int64]) error, single func(in, out *runtime.Slice[int64]) error) {
				out, err := Scatter(g, poison(sh.n))
				require.NoError(t, err)
				defer out.Free()
				require.NoError(t, run(out), name)
				got, err := out.Gather()
				require.NoError(t, err)

				sin, err := runtime.FromHost(one, host)
				require.NoError(t, err)
				defer sin.Free()
				sout, err := runtime.FromHost(one, poison(sh.n))
				require.NoError(t, err)
				defer sout.Free()
				require.NoError(t, single(sin, sout), name)
				want, err := sout.ToHost()
				require.NoError(t, err)
				assert.Equal(t, want, got, name)
			}
			check("inclusive", func(out *Sharded[int64]) error { return InclusiveScan(incl, sum, in, out) },
				func(in, out *runtime.Slice[int64]) error { return incl.Run(nil, in, out) })
			check("inclusive max", func(out *Sharded[int64]) error { return InclusiveScan(inclMax, biggest, in, out) },
				func(in, out *runtime.Slice[int64]) error { return inclMax.Run(nil, in, out) })
			check("exclusive", func(out *Sharded[int64]) error { return ExclusiveScan(excl, sum, in, out, -5) },
				func(in, out *runtime.Slice[int64]) error { return excl.Run(nil, in, out, -5) })
		})
	}
}

func poison(n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = -0x5a5a5a5a5a5a5a5a
	}
	return xs
}

// TestScatterGather checks the split (first n mod g shards one longer),
// the offsets and the round trip.
func TestScatterGather(t *testing.T) {
	assert.Equal(t, []int{3, 3, 2, 2}, Split(10, 4))
	assert.Equal(t, []int{1, 1, 0}, Split(2, 3))
	g := cpuGroup(t, 4)
	host := randomInt64s(rand.New(rand.NewPCG(5, 6)), 10)
	s, err := Scatter(g, host)
	require.NoError(t, err)
	defer s.Free()
	assert.Equal(t, 10, s.Len())
	assert.Equal(t, []int{3, 3, 2, 2}, s.Lens())
	assert.Equal(t, 6, s.Offset(2))
	shard2, err := s.Shard(2).ToHost()
	require.NoError(t, err)
	assert.Equal(t, host[6:8], shard2)
	back, err := s.Gather()
	require.NoError(t, err)
	assert.Equal(t, host, back)
}

// TestErrors checks the mistakes a caller can make, each answered with
// an error that says what is wrong.
func TestErrors(t *testing.T) {
	_, err := New()
	assert.EqualError(t, err, "gocccl: group.New: no device")
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	_, err = New(d, nil)
	assert.EqualError(t, err, "gocccl: group.New: device 1 is nil")
	_, err = New(d, d)
	assert.ErrorContains(t, err, "gocccl: group.New: devices 0 and 1 are the same device")

	g := cpuGroup(t, 2)
	_, err = Alloc[int64](g, []int{1})
	assert.EqualError(t, err, "gocccl: group.Alloc: 1 shard lengths for a group of 2")
	_, err = Alloc[int64](g, []int{1, -1})
	assert.EqualError(t, err, "gocccl: group.Alloc: shard 1 has negative length -1")

	in, err := Scatter(g, []int64{1, 2, 3})
	require.NoError(t, err)
	defer in.Free()
	out, err := Alloc[int64](g, []int{1, 2})
	require.NoError(t, err)
	defer out.Free()
	assert.EqualError(t, InclusiveScan(incl, sum, in, out), "gocccl: group.InclusiveScan: shard 0 of the output has 1 elements, the input's 2")
	other, err := Scatter(cpuGroup(t, 2), []int64{1, 2, 3})
	require.NoError(t, err)
	defer other.Free()
	assert.EqualError(t, ExclusiveScan(excl, sum, in, other, 0), "gocccl: group.ExclusiveScan: the input and the output are sharded over different groups")
	assert.EqualError(t, InclusiveScan(incl, biggest, in, in), "gocccl: group.InclusiveScan: the scan and the reduction were declared with different operators")
	_, err = Reduce[int64](nil, in, 0)
	assert.EqualError(t, err, "gocccl: group.Reduce: nil operator")
}

var hist = runtime.HistogramEven[float32]()

// TestHistogramEven checks HistogramEven over a group against one device's
// histogram of the whole input, with samples outside the range too.
func TestHistogramEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := make([]float32, sh.n)
			for i := range host {
				host[i] = rng.Float32()*12 - 1 // [-1, 11): some below, some above [0, 10)
			}
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()
			got, err := HistogramEven(hist, in, 37, 0, 10)
			require.NoError(t, err)

			sin, err := runtime.FromHost(one, host)
			require.NoError(t, err)
			defer sin.Free()
			sout, err := runtime.Alloc[int32](one, 37)
			require.NoError(t, err)
			defer sout.Free()
			require.NoError(t, hist.Run(nil, sin, sout, 37, 0, 10))
			want, err := sout.ToHost()
			require.NoError(t, err)
			assert.Equal(t, want, got)
			total := int32(0)
			for _, c := range got {
				total += c
			}
			inRange := int32(0)
			for _, x := range host {
				if x >= 0 && x < 10 {
					inRange++
				}
			}
			assert.Equal(t, inRange, total, "every sample in range counted once")
		})
	}
	_, err := HistogramEven(hist, nil, 4, 0, 1)
	assert.EqualError(t, err, "gocccl: group.HistogramEven: nil input")
}

//gocccl:op
func odd(x int64) bool { return x&1 != 0 }

var odds = runtime.Select(odd)

// TestSelect checks Select over a group against one device's Select of the
// whole input, with poisoned outputs.
func TestSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			host := randomInt64s(rng, sh.n)
			g := cpuGroup(t, sh.size)
			in, err := Scatter(g, host)
			require.NoError(t, err)
			defer in.Free()
			out, err := Scatter(g, poison(sh.n))
			require.NoError(t, err)
			defer out.Free()
			picked, err := Select(odds, in, out)
			require.NoError(t, err)
			got, err := picked.Gather()
			require.NoError(t, err)

			var want []int64
			for _, x := range host {
				if odd(x) {
					want = append(want, x)
				}
			}
			if want == nil {
				want = []int64{}
			}
			assert.Equal(t, want, got)
			assert.Equal(t, len(want), picked.Len())

			sin, err := runtime.FromHost(one, host)
			require.NoError(t, err)
			defer sin.Free()
			sout, err := runtime.FromHost(one, poison(sh.n))
			require.NoError(t, err)
			defer sout.Free()
			count, err := runtime.Alloc[int64](one, 1)
			require.NoError(t, err)
			defer count.Free()
			require.NoError(t, odds.Run(nil, sin, sout, count))
			c, err := count.ToHost()
			require.NoError(t, err)
			single, err := sout.Range(0, int(c[0])).ToHost()
			require.NoError(t, err)
			assert.Equal(t, single, got, "against one device")
			assert.EqualError(t, picked.Free(), "gocccl: group: Free: these shards are views of the output of Select; free it instead")
		})
	}
}

var (
	sortU32 = runtime.RadixSortKeys[uint32]()
	sortI64 = runtime.RadixSortKeys[int64]()
	sortF32 = runtime.RadixSortKeys[float32]()
)

// TestSortKeys checks SortKeys over a group against one device's sort of
// the whole input, bit for bit, for signed, unsigned and float keys (with
// ±0, infinities and NaNs), and that shards of distinct keys are near n/g.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range append(shapes, struct{ size, n int }{4, 1 << 16}, struct{ size, n int }{3, 1 << 15}) {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			g := cpuGroup(t, sh.size)
			u := make([]uint32, sh.n)
			few := make([]uint32, sh.n) // many equal keys
			f := make([]float32, sh.n)
			specials := []float32{float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
			for i := range u {
				u[i] = rng.Uint32()
				few[i] = rng.Uint32N(3)
				f[i] = rng.Float32()*200 - 100
				if rng.IntN(10) == 0 {
					f[i] = specials[rng.IntN(len(specials))]
				}
			}
			sortCase(t, g, one, sortU32, u, func(x uint32) uint64 { return uint64(x) })
			sortCase(t, g, one, sortU32, few, func(x uint32) uint64 { return uint64(x) })
			sortCase(t, g, one, sortI64, randomInt64s(rng, sh.n), func(x int64) uint64 { return uint64(x) })
			sortCase(t, g, one, sortF32, f, func(x float32) uint64 { return uint64(math.Float32bits(x)) })

			if sh.n >= 1<<15 { // distinct random keys: shards near n/g
				in, err := Scatter(g, u)
				require.NoError(t, err)
				defer in.Free()
				out, err := SortKeys(sortU32, in)
				require.NoError(t, err)
				defer out.Free()
				for r, n := range out.Lens() {
					assert.InDelta(t, float64(sh.n)/float64(sh.size), float64(n), 0.1*float64(sh.n)/float64(sh.size), "shard %d", r)
				}
			}
		})
	}
	_, err := SortKeys(sortU32, nil)
	assert.EqualError(t, err, "gocccl: group.SortKeys: nil input")
}

// sortCase sorts host over g and on one device and compares the bits.
func sortCase[K runtime.RadixKey](t *testing.T, g *Group, one *runtime.Device, sorter *runtime.RadixSortKeysOp[K], host []K, bits func(K) uint64) {
	t.Helper()
	in, err := Scatter(g, host)
	require.NoError(t, err)
	defer in.Free()
	out, err := SortKeys(sorter, in)
	require.NoError(t, err)
	defer out.Free()
	require.Equal(t, len(host), out.Len())
	got, err := out.Gather()
	require.NoError(t, err)

	sin, err := runtime.FromHost(one, host)
	require.NoError(t, err)
	defer sin.Free()
	sout, err := runtime.Alloc[K](one, len(host))
	require.NoError(t, err)
	defer sout.Free()
	require.NoError(t, sorter.Run(nil, sin, sout, runtime.RadixOptions{}))
	want, err := sout.ToHost()
	require.NoError(t, err)
	gb, wb := make([]uint64, len(got)), make([]uint64, len(want))
	for i := range got {
		gb[i], wb[i] = bits(got[i]), bits(want[i])
	}
	assert.Equal(t, wb, gb)
}

var sortPairs = runtime.RadixSortPairs[uint32, int64]()

// TestSortPairs checks SortPairs over a group against one device's stable
// sort of the whole input: keys drawn from a few values, so that the
// values' order among equal keys shows stability across ranks.
func TestSortPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range shapes {
		t.Run(fmt.Sprintf("g=%d/n=%d", sh.size, sh.n), func(t *testing.T) {
			g := cpuGroup(t, sh.size)
			keys := make([]uint32, sh.n)
			values := make([]int64, sh.n)
			for i := range keys {
				keys[i] = rng.Uint32N(17)
				values[i] = int64(i)
			}
			ks, err := Scatter(g, keys)
			require.NoError(t, err)
			defer ks.Free()
			vs, err := Scatter(g, values)
			require.NoError(t, err)
			defer vs.Free()
			ko, vo, err := SortPairs(sortPairs, ks, vs)
			require.NoError(t, err)
			defer ko.Free()
			defer vo.Free()
			gotK, err := ko.Gather()
			require.NoError(t, err)
			gotV, err := vo.Gather()
			require.NoError(t, err)

			sk, err := runtime.FromHost(one, keys)
			require.NoError(t, err)
			defer sk.Free()
			sv, err := runtime.FromHost(one, values)
			require.NoError(t, err)
			defer sv.Free()
			ok, err := runtime.Alloc[uint32](one, sh.n)
			require.NoError(t, err)
			defer ok.Free()
			ov, err := runtime.Alloc[int64](one, sh.n)
			require.NoError(t, err)
			defer ov.Free()
			require.NoError(t, sortPairs.Run(nil, sk, ok, sv, ov, runtime.RadixOptions{}))
			wantK, err := ok.ToHost()
			require.NoError(t, err)
			wantV, err := ov.ToHost()
			require.NoError(t, err)
			assert.Equal(t, wantK, gotK)
			assert.Equal(t, wantV, gotV)
		})
	}
}

//gocccl:op
func sameKey(a, b uint32) bool { return a == b }

var sums = runtime.ReduceByKey(sameKey, add)

// TestReduceByKey checks ReduceByKey over a group against one device's
// ReduceByKey of the whole input, with runs long enough to span shards
// (and whole ranks), and keys that repeat after other keys.
func TestReduceByKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	one := cpuGroup(t, 1).Device(0)
	for _, sh := range append(shapes, struct{ size, n int }{8, 40}, struct{ size, n int }{5, 3}) {
		for _, runLen := range []int{1, 3, 50} {
			t.Run(fmt.Sprintf("g=%d/n=%d/run=%d", sh.size, sh.n, runLen), func(t *testing.T) {
				g := cpuGroup(t, sh.size)
				keys := make([]uint32, sh.n)
				values := randomInt64s(rng, sh.n)
				k := uint32(0)
				for i := range keys {
					if rng.IntN(runLen) == 0 {
						k = rng.Uint32N(4)
					}
					keys[i] = k
				}
				ks, err := Scatter(g, keys)
				require.NoError(t, err)
				defer ks.Free()
				vs, err := Scatter(g, values)
				require.NoError(t, err)
				defer vs.Free()
				uk, ua, err := ReduceByKey(sums, ks, vs)
				require.NoError(t, err)
				gotK, err := uk.Gather()
				require.NoError(t, err)
				gotA, err := ua.Gather()
				require.NoError(t, err)
				require.NoError(t, uk.Free())
				require.NoError(t, ua.Free())

				var wantK []uint32
				var wantA []int64
				for i := range keys {
					if i == 0 || keys[i] != keys[i-1] {
						wantK, wantA = append(wantK, keys[i]), append(wantA, values[i])
					} else {
						wantA[len(wantA)-1] += values[i]
					}
				}
				assert.Equal(t, nonNil(wantK), gotK, "keys against a Go loop")
				assert.Equal(t, nonNil(wantA), gotA, "aggregates against a Go loop")

				sk, err := runtime.FromHost(one, keys)
				require.NoError(t, err)
				defer sk.Free()
				sv, err := runtime.FromHost(one, values)
				require.NoError(t, err)
				defer sv.Free()
				su, err := runtime.Alloc[uint32](one, sh.n)
				require.NoError(t, err)
				defer su.Free()
				sa, err := runtime.Alloc[int64](one, sh.n)
				require.NoError(t, err)
				defer sa.Free()
				count, err := runtime.Alloc[int64](one, 1)
				require.NoError(t, err)
				defer count.Free()
				require.NoError(t, sums.Run(nil, sk, sv, su, sa, count))
				c, err := count.ToHost()
				require.NoError(t, err)
				single, err := sa.Range(0, int(c[0])).ToHost()
				require.NoError(t, err)
				assert.Equal(t, single, gotA, "against one device")
			})
		}
	}
}
