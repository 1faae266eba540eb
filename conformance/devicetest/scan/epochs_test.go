package scan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime"
)

// The look-backs of the scans, the scans by key and ReduceByKey keep their
// tile states in a region of memory the stream keeps across calls, and tell
// the states of earlier calls apart from the current call's by the call's
// epoch (kernels/include/gocccl/epoch_tile_state.cuh): the init kernel runs
// only when the region is new or grown, and every algorithm and value type
// on the stream shares the region and its epochs. These tests enqueue many
// calls of varying sizes on one stream with no wait between them, each into
// its own poisoned output, and check every output against the CPU backend
// once all are enqueued: a tile that took a state an earlier call left (of
// its own algorithm or of another, of a larger or a smaller input) for one
// of its own call would show as a wrong prefix.

// b2bCall is one call of a back-to-back sequence, its inputs and poisoned
// outputs already on the device under test and the CPU backend's results
// already computed: enqueue runs it on s without waiting, check downloads
// what it wrote (once every call is enqueued) and compares.
type b2bCall struct {
	what    string
	enqueue func(s *runtime.Stream) error
	check   func(t *testing.T)
}

// b2bCase is one algorithm over one value type: tile is its tile at
// sm_90's policy; prepare draws a call's inputs over n items.
type b2bCase struct {
	name    string
	tile    int
	prepare func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) b2bCall
}

// b2bTile is alg's sm_90 tile for items whose wider type is as wide as the
// wider of a and b, as gocccl-gen picks the policy.
func b2bTile[A, B any](alg *algo.Algorithm) int {
	var a A
	var b B
	return alg.Policy(int64(max(unsafe.Sizeof(a), unsafe.Sizeof(b))), 90).Tile()
}

// smallInts returns n small integers of a numeric type (exact sums in any
// order).
func smallInts[V int64 | uint32 | float32 | float64](r *rand.Rand, n int) []V {
	xs := make([]V, n)
	for i := range xs {
		xs[i] = V(r.IntN(7) - 3)
	}
	return xs
}

// sprinkledNaNs returns n small integers with NaNs of distinct payloads
// (about one in 4096): the twins' path (gpu_nan.cuh), a NaN in some
// tiles' prefixes and aggregates. No infinities: with them a sum's NaN
// depends on the association (+Inf + -Inf makes Go's default NaN where the
// two meet, before or after a NaN of the input), so no parallel order need
// match the loop's bits (nan_test.go keeps the two apart for that reason).
// The first H200 run of this test drew both and failed on exactly that.
func sprinkledNaNs[V float32 | float64](fb floatBits[V]) func(r *rand.Rand, n int) []V {
	return func(r *rand.Rand, n int) []V {
		return values(r, fb, nanInput{"sprinkled", 1 + n/4096, true, 0}, n)
	}
}

// draw returns n items of gen, one by one.
func draw[V any](gen func(*rand.Rand) V) func(r *rand.Rand, n int) []V {
	return func(r *rand.Rand, n int) []V {
		xs := make([]V, n)
		for i := range xs {
			xs[i] = gen(r)
		}
		return xs
	}
}

// b2bKeys returns n keys of key in runs of a random mean length: single
// items, short runs, runs of about a tile, or one run over everything.
func b2bKeys[K any](r *rand.Rand, n int, key func(*rand.Rand) K) ([]K, int) {
	meanRun := []int{1, 7, 3000, 1 << 30}[r.IntN(4)]
	keys := make([]K, n)
	k := key(r)
	for i := range keys {
		if r.IntN(meanRun) == 0 {
			k = key(r)
		}
		keys[i] = k
	}
	return keys, min(meanRun, n)
}

// scanB2B is a plain scan, in one of modes drawn at random (an init value
// or none, or one read from device memory), as a back-to-back case.
func scanB2B[T any](name string, inst instances[T], gen func(r *rand.Rand, n int) []T) b2bCase {
	return b2bCase{name, b2bTile[T, T](algo.InclusiveScan), func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) b2bCall {
		xs, init, m := gen(r, n), gen(r, 1)[0], modes[r.IntN(len(modes))]
		want := scanOn(t, oracle, inst, m, xs, init)
		in := devcheck.Upload(t, dut, xs)
		out := devcheck.Upload(t, dut, devcheck.Poison[T](n))
		initBuf := devcheck.Upload(t, dut, []T{init})
		what := fmt.Sprintf("%s/%s n=%d", name, m.name, n)
		return b2bCall{what,
			func(s *runtime.Stream) error { return inst.run(s, m, in, out, initBuf, init) },
			func(t *testing.T) {
				requireBitEqual(t, want, devcheck.Download(t, out), what+": device vs CPU backend")
			}}
	}}
}

// b2b is the scans by key as a back-to-back case (inclusive or exclusive at
// random), values drawn by gen, the exclusive scan's init by b.gen.
func (b byKey[K, V]) b2b(gen func(r *rand.Rand, n int) []V) b2bCase {
	name := "scan-by-key/" + b.name
	return b2bCase{name, b2bTile[K, V](algo.InclusiveScanByKey), func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) b2bCall {
		keys, run := b2bKeys(r, n, b.key)
		xs, init, inclusive := gen(r, n), b.gen(r), r.IntN(2) == 0
		want := b.on(t, oracle, inclusive, keys, xs, init)
		k := devcheck.Upload(t, dut, keys)
		v := devcheck.Upload(t, dut, xs)
		out := devcheck.Upload(t, dut, devcheck.Poison[V](n))
		what := fmt.Sprintf("%s n=%d run=%d inclusive=%v", name, n, run, inclusive)
		return b2bCall{what,
			func(s *runtime.Stream) error {
				if inclusive {
					return b.incl.Run(s, k, v, out)
				}
				return b.excl.Run(s, k, v, out, init)
			},
			func(t *testing.T) {
				requireBitEqual(t, want, devcheck.Download(t, out), what+": device vs CPU backend")
			}}
	}}
}

// reduceByKeyB2B is ReduceByKey over int32 keys as a back-to-back case.
func reduceByKeyB2B[V any](name string, inst *runtime.ReduceByKeyOp[int32, V], gen func(r *rand.Rand, n int) []V) b2bCase {
	name = "reduce-by-key/" + name
	key := func(r *rand.Rand) int32 { return int32(r.Uint32()) }
	// outputs returns poisoned outputs on d: unique keys, aggregates and
	// the run count.
	outputs := func(t *testing.T, d *runtime.Device, n int) (*runtime.Slice[int32], *runtime.Slice[V], *runtime.Slice[int64]) {
		return devcheck.Upload(t, d, devcheck.Poison[int32](n)), devcheck.Upload(t, d, devcheck.Poison[V](n)),
			devcheck.Upload(t, d, devcheck.Poison[int64](1))
	}
	return b2bCase{name, b2bTile[int32, V](algo.ReduceByKey), func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) b2bCall {
		keys, run := b2bKeys(r, n, key)
		xs := gen(r, n)
		ou, oa, oc := outputs(t, oracle, n)
		require.NoError(t, inst.Run(nil, devcheck.Upload(t, oracle, keys), devcheck.Upload(t, oracle, xs), ou, oa, oc))
		wantUnique, wantAggs, wantCount := devcheck.Download(t, ou), devcheck.Download(t, oa), devcheck.Download(t, oc)
		k := devcheck.Upload(t, dut, keys)
		v := devcheck.Upload(t, dut, xs)
		unique, aggs, count := outputs(t, dut, n)
		what := fmt.Sprintf("%s n=%d run=%d", name, n, run)
		return b2bCall{what,
			func(s *runtime.Stream) error { return inst.Run(s, k, v, unique, aggs, count) },
			func(t *testing.T) {
				requireBitEqual(t, wantCount, devcheck.Download(t, count), what+": run count, device vs CPU backend")
				requireBitEqual(t, wantUnique, devcheck.Download(t, unique), what+": unique keys, device vs CPU backend")
				requireBitEqual(t, wantAggs, devcheck.Download(t, aggs), what+": aggregates, device vs CPU backend")
			}}
	}}
}

// b2bCases are the back-to-back cases: look-back values of 1 to 4 words of
// epoch tile states (a scan's 4- and 8-byte items; the scans by key's
// (int32, V) pairs of 8, 12 and 16 bytes; ReduceByKey's (int64, V) pairs
// of 16), float sums with NaNs (the twins' look-back), and wider values
// that keep CUB's tile states.
func b2bCases() []b2bCase {
	key32 := func(r *rand.Rand) int32 { return int32(r.Uint32()) }
	keyU32 := func(r *rand.Rand) uint32 { return r.Uint32() % 4 } // equal neighbours even in runs of 1
	small32 := func(r *rand.Rand) float32 { return float32(r.IntN(7) - 3) }
	small64 := func(r *rand.Rand) float64 { return float64(r.IntN(7) - 3) }
	affine := func(r *rand.Rand) Affine { return Affine{r.Uint32() | 1, r.Uint32()} }
	stats := func(r *rand.Rand) Stats {
		return Stats{N: int64(r.Uint64() >> 1), Sum: float64(r.IntN(2001) - 1000), Max: int32(r.Uint32())}
	}
	return []b2bCase{
		scanB2B("scan/uint32", instances[uint32]{AddUint32, InclAddUint32, ExclAddUint32}, smallInts[uint32]),
		scanB2B("scan/float64", instances[float64]{AddFloat64, InclAddFloat64, ExclAddFloat64}, smallInts[float64]),
		byKey[uint32, uint32]{"uint32", EqUint32, AddUint32, InclByKeyU32AddUint32, ExclByKeyU32AddUint32, keyU32,
			func(r *rand.Rand) uint32 { return r.Uint32() }}.b2b(draw(func(r *rand.Rand) uint32 { return r.Uint32() })),
		byKey[int32, uint8]{"uint8-max", EqInt32, MaxUint8, InclByKeyMaxUint8, ExclByKeyMaxUint8, key32,
			func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }}.b2b(draw(func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })),
		byKey[int32, Affine]{"Affine", EqInt32, Then, InclByKeyThen, ExclByKeyThen, key32, affine}.b2b(draw(affine)),
		byKey[int32, int64]{"int64", EqInt32, AddInt64, InclByKeyAddInt64, ExclByKeyAddInt64, key32,
			func(r *rand.Rand) int64 { return int64(r.Uint64()) }}.b2b(draw(func(r *rand.Rand) int64 { return int64(r.Uint64()) })),
		byKey[int32, float32]{"float32-nans", EqInt32, AddFloat32, InclByKeyAddFloat32, ExclByKeyAddFloat32, key32, small32}.
			b2b(sprinkledNaNs(bits32)),
		byKey[int32, float64]{"float64-nans", EqInt32, AddFloat64, InclByKeyAddFloat64, ExclByKeyAddFloat64, key32, small64}.
			b2b(sprinkledNaNs(bits64)),
		byKey[int32, Stats]{"Stats", EqInt32, Merge, InclByKeyMerge, ExclByKeyMerge, key32, stats}.b2b(draw(stats)),
		reduceByKeyB2B("uint32", RunSumsUint32, draw(func(r *rand.Rand) uint32 { return r.Uint32() })),
		reduceByKeyB2B("float32-nans", RunSumsFloat32, sprinkledNaNs(bits32)),
		reduceByKeyB2B("float64", RunSumsFloat64, smallInts[float64]),
		reduceByKeyB2B("Stats", RunMerges, draw(stats)),
	}
}

// b2bSize returns an item count for a case of tile tile: with probability
// 1/4 one at a tile boundary (no items, one tile, two), else log-uniform in
// [1, maxN].
func b2bSize(r *rand.Rand, tile, maxN int) int {
	if r.IntN(4) == 0 {
		return []int{0, 1, tile - 1, tile, tile + 1, 2 * tile, 2*tile + 1}[r.IntN(7)]
	}
	return max(1, int(math.Exp2(r.Float64()*math.Log2(float64(maxN)))))
}

// runBackToBack prepares calls, enqueues them all on one new stream of dut
// without waiting, and then checks each.
func runBackToBack(t *testing.T, dut *runtime.Device, calls []b2bCall) {
	t.Helper()
	s, err := dut.NewStream()
	require.NoError(t, err)
	defer s.Close()
	for i, c := range calls {
		require.NoError(t, c.enqueue(s), "call %d: %s", i, c.what)
	}
	for _, c := range calls {
		c.check(t)
	}
}

// TestLookBackEpochsBackToBack runs each case's calls back to back on one
// stream (one tile, two, the largest size in the middle of the sequence,
// sizes growing and shrinking), and then all cases' calls mixed on one
// stream.
func TestLookBackEpochsBackToBack(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	maxN := 1 << 22
	if testing.Short() || !gpu {
		maxN = 1 << 20
	}
	const calls = 40
	cases := b2bCases()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ns := []int{1, c.tile, c.tile + 1, 2 * c.tile, 2*c.tile + 1, 1, 7*c.tile + 3, c.tile + 1}
			for len(ns) < calls {
				ns = append(ns, b2bSize(r, c.tile, maxN))
			}
			ns[calls/2] = maxN
			seq := make([]b2bCall, len(ns))
			for i, n := range ns {
				seq[i] = c.prepare(t, r, dut, oracle, n)
			}
			runBackToBack(t, dut, seq)
		})
	}
	t.Run("mixed", func(t *testing.T) {
		var seq []b2bCall
		for range 3 {
			for _, i := range r.Perm(len(cases)) {
				c := cases[i]
				seq = append(seq, c.prepare(t, r, dut, oracle, b2bSize(r, c.tile, maxN)))
			}
		}
		runBackToBack(t, dut, seq)
	})
}
