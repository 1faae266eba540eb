package scan

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/runtime"
)

// byKey is one value type's pair of scans by key with its Go operators.
type byKey[K, V any] struct {
	name string
	eq   func(K, K) bool
	op   func(V, V) V
	incl *runtime.InclusiveScanByKeyOp[K, V]
	excl *runtime.ExclusiveScanByKeyOp[K, V]
	key  func(r *rand.Rand) K // a fresh key
	gen  func(r *rand.Rand) V
}

// byKeyCase hides a byKey's types.
type byKeyCase struct {
	name string
	size int64 // the wider of K and V
	run  func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n, meanRun int)
}

func (b byKey[K, V]) byKeyCase() byKeyCase {
	var k K
	var v V
	return byKeyCase{b.name, max(sizeOf(k), sizeOf(v)), b.run}
}

func byKeyCases() []byKeyCase {
	key32 := func(r *rand.Rand) int32 { return int32(r.Uint32()) }
	return []byKeyCase{
		// Float values are small integers: their sums are exact in any order.
		byKey[int32, float32]{"int32/float32", EqInt32, AddFloat32, InclByKeyAddFloat32, ExclByKeyAddFloat32, key32,
			func(r *rand.Rand) float32 { return float32(r.IntN(201) - 100) }}.byKeyCase(),
		byKey[int32, int64]{"int32/int64", EqInt32, AddInt64, InclByKeyAddInt64, ExclByKeyAddInt64, key32,
			func(r *rand.Rand) int64 { return int64(r.Uint64()) }}.byKeyCase(),
		byKey[int32, uint8]{"int32/uint8-max", EqInt32, MaxUint8, InclByKeyMaxUint8, ExclByKeyMaxUint8, key32,
			func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }}.byKeyCase(),
		byKey[int32, Affine]{"int32/Affine", EqInt32, Then, InclByKeyThen, ExclByKeyThen, key32,
			func(r *rand.Rand) Affine { return Affine{r.Uint32() | 1, r.Uint32()} }}.byKeyCase(),
		byKey[uint64, uint32]{"uint64/uint32", EqUint64, AddUint32, InclByKeyAddUint32, ExclByKeyAddUint32,
			func(r *rand.Rand) uint64 { return r.Uint64() }, func(r *rand.Rand) uint32 { return r.Uint32() }}.byKeyCase(),
	}
}

func sizeOf[T any](v T) int64 {
	switch any(v).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32, float32:
		return 4
	case Affine, int64, uint64, float64:
		return 8
	}
	panic(fmt.Sprintf("sizeOf %T", v))
}

func (b byKey[K, V]) run(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n, meanRun int) {
	keys := make([]K, n)
	values := make([]V, n)
	k := b.key(r)
	for i := range keys {
		if r.IntN(meanRun) == 0 {
			k = b.key(r)
		}
		keys[i], values[i] = k, b.gen(r)
	}
	init := b.gen(r)
	for _, inclusive := range []bool{true, false} {
		t.Run(fmt.Sprint("inclusive=", inclusive), func(t *testing.T) {
			got := b.on(t, dut, inclusive, keys, values, init)
			want := b.on(t, oracle, inclusive, keys, values, init)
			requireBitEqual(t, want, got, "device vs CPU backend")
			requireBitEqual(t, sequentialByKey(b.eq, b.op, keys, values, init, inclusive), want, "CPU backend vs a sequential loop")
		})
	}
}

func (b byKey[K, V]) on(t *testing.T, d *runtime.Device, inclusive bool, keys []K, values []V, init V) []V {
	t.Helper()
	k, err := runtime.FromHost(d, keys)
	require.NoError(t, err)
	defer k.Free()
	v, err := runtime.FromHost(d, values)
	require.NoError(t, err)
	defer v.Free()
	out, err := runtime.FromHost(d, devcheck.Poison[V](len(values)))
	require.NoError(t, err)
	defer out.Free()
	if inclusive {
		err = b.incl.Run(nil, k, v, out)
	} else {
		err = b.excl.Run(nil, k, v, out, init)
	}
	require.NoError(t, err)
	res, err := out.ToHost()
	require.NoError(t, err)
	return res
}

// sequentialByKey is the oracle: a plain loop.
func sequentialByKey[K, V any](eq func(K, K) bool, op func(V, V) V, keys []K, values []V, init V, inclusive bool) []V {
	out := make([]V, len(values))
	var acc V
	for i, v := range values {
		head := i == 0 || !eq(keys[i-1], keys[i])
		if inclusive {
			if head {
				acc = v
			} else {
				acc = op(acc, v)
			}
			out[i] = acc
		} else {
			if head {
				acc = init
			}
			out[i] = acc
			acc = op(acc, v)
		}
	}
	return out
}

// TestScanByKeyMatchesCPU runs every scan by key on the GPU and on the CPU
// backend: all keys distinct, short runs, and one run over everything.
func TestScanByKeyMatchesCPU(t *testing.T) {
	dut, oracle, gpu := devices(t)
	r := devcheck.Rand(t)
	for _, tc := range byKeyCases() {
		tile := algo.InclusiveScanByKey.Policy(tc.size, 90).Tile()
		for _, n := range []int{0, 1, 2, tile - 1, tile, tile + 1, 3*tile + 5, 7919, 1_000_003, 1 << 26} {
			if n > 1<<20 && (testing.Short() || !gpu) {
				continue
			}
			meanRuns := []int{1, 7, 1 << 30}
			if n > 1<<22 {
				meanRuns = []int{7}
			}
			for _, meanRun := range meanRuns {
				t.Run(fmt.Sprintf("%s/n=%d/run=%d", tc.name, n, meanRun), func(t *testing.T) { tc.run(t, r, dut, oracle, n, meanRun) })
			}
		}
	}
}
