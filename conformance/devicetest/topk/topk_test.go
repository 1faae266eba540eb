package topk

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/runtime"
)

// sizes are the input lengths checked; 2^22 + 5 (past the GPU's prefilter
// bound, runtime's topkFilterMin) and 2^26 only on the GPU.
var sizes = []int{0, 1, 2, 4095, 4096, 4097, 7919, 1_000_003, 1<<22 + 5, 1 << 26}

// margin is how many poisoned elements follow the k an output must hold:
// a top-k writes out[:k] only.
const margin = 3

// number and entry are devcheck's key types: an entry is a key's
// ordered bits (devcheck.OrderedBits) and its input position.
type (
	number = devcheck.Number
	entry  = devcheck.Entry
)

// sortEntries sorts es by bits, then position: packed into one uint64 a
// entry when the keys have at most 32 bits (a 2^26 check sorts several
// times as fast).
func sortEntries[K number](es []entry) {
	var zero K
	if unsafe.Sizeof(zero) > 4 || len(es) > 1<<32 {
		slices.SortFunc(es, devcheck.CmpEntry)
		return
	}
	packed := make([]uint64, len(es))
	for i, e := range es {
		packed[i] = e.Bits<<32 | uint64(e.Pos)
	}
	slices.Sort(packed)
	for i, p := range packed {
		es[i] = entry{Bits: p >> 32, Pos: int(p & 0xffffffff)}
	}
}

// oracle returns every key's entry, best first: a stable sort by ordered
// bits (a sort by bits then position). The first k are the top k.
func oracle[K number](keys []K, largest bool) []entry {
	es := make([]entry, len(keys))
	for i, x := range keys {
		es[i] = entry{Bits: devcheck.OrderedBits(x, largest), Pos: i}
	}
	sortEntries[K](es)
	return es
}

// result is what one Run wrote: the keys, and the positions the values
// carried (nil for keys only).
type result[K number] struct {
	keys []K
	pos  []int
}

// runner uploads one instance's inputs to d and returns a function that
// runs it, checking that only out[:k] was written.
type runner[K number] func(t *testing.T, d *runtime.Device, keys []K) func(k int, o runtime.TopKOptions) result[K]

// poisonedOut allocates an output of k + margin poisoned elements.
func poisonedOut[T any](t *testing.T, d *runtime.Device, k int) *runtime.Slice[T] {
	return devcheck.Upload(t, d, devcheck.Poison[T](k+margin))
}

// written downloads out and checks its margin is still poison.
func written[T any](t *testing.T, out *runtime.Slice[T], k int, what string) []T {
	got := devcheck.Download(t, out)
	devcheck.RequireBitEqual(t, devcheck.Poison[T](margin), got[k:], what+": past k")
	return got[:k]
}

func keysRunner[K number](op *runtime.TopKKeysOp[K]) runner[K] {
	return func(t *testing.T, d *runtime.Device, keys []K) func(k int, o runtime.TopKOptions) result[K] {
		in := devcheck.Upload(t, d, keys)
		return func(k int, o runtime.TopKOptions) result[K] {
			out := poisonedOut[K](t, d, k)
			require.NoError(t, op.Run(nil, in, out, k, o))
			return result[K]{keys: written(t, out, k, "keys")}
		}
	}
}

// positionsRunner carries the positions as int64 values.
func positionsRunner[K number](op *runtime.TopKPairsOp[K, int64]) runner[K] {
	return func(t *testing.T, d *runtime.Device, keys []K) func(k int, o runtime.TopKOptions) result[K] {
		vs := make([]int64, len(keys))
		for i := range vs {
			vs[i] = int64(i)
		}
		in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, vs)
		return func(k int, o runtime.TopKOptions) result[K] {
			kout, vout := poisonedOut[K](t, d, k), poisonedOut[int64](t, d, k)
			require.NoError(t, op.Run(nil, in, kout, vin, vout, k, o))
			r := result[K]{keys: written(t, kout, k, "keys"), pos: make([]int, k)}
			for i, v := range written(t, vout, k, "values") {
				r.pos[i] = int(v)
			}
			return r
		}
	}
}

// payloadRunner carries the positions in a struct with a check tag.
func payloadRunner(op *runtime.TopKPairsOp[uint64, Payload]) runner[uint64] {
	tag := func(i int64) uint16 { return uint16(i*7 + 1) }
	return func(t *testing.T, d *runtime.Device, keys []uint64) func(k int, o runtime.TopKOptions) result[uint64] {
		vs := make([]Payload, len(keys))
		for i := range vs {
			vs[i] = Payload{Pos: int64(i), Tag: tag(int64(i))}
		}
		in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, vs)
		return func(k int, o runtime.TopKOptions) result[uint64] {
			kout, vout := poisonedOut[uint64](t, d, k), poisonedOut[Payload](t, d, k)
			require.NoError(t, op.Run(nil, in, kout, vin, vout, k, o))
			r := result[uint64]{keys: written(t, kout, k, "keys"), pos: make([]int, k)}
			for i, v := range written(t, vout, k, "values") {
				if v.Tag != tag(v.Pos) {
					t.Fatalf("value %d: tag %d, want %d for position %d", i, v.Tag, tag(v.Pos), v.Pos)
				}
				r.pos[i] = int(v.Pos)
			}
			return r
		}
	}
}

// ks are the k checked for n: 0, 1, 7, 1024, either side of
// runtime.TopKSortedMax (the GPU's block-sort bound: above it a sorted
// selection is radix sorted), n/2 and n, those within n.
func ks(n int) []int {
	var out []int
	m := runtime.TopKSortedMax
	for _, k := range []int{0, 1, 7, 1024, m - 1, m, m + 1, n / 2, n} {
		if k <= n && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// checkKeys checks one instance on d over keys against the oracle, for
// every k of ks(n) (those in only, when given), smallest and largest,
// sorted and not.
func checkKeys[K number](t *testing.T, d *runtime.Device, run runner[K], keys []K, only []int) {
	runK := run(t, d, keys)
	for _, largest := range []bool{false, true} {
		want := oracle(keys, largest)
		for _, k := range ks(len(keys)) {
			if only != nil && !slices.Contains(only, k) {
				continue
			}
			for _, sorted := range []bool{false, true} {
				o := runtime.TopKOptions{Largest: largest, Sorted: sorted}
				what := fmt.Sprintf("k=%d largest=%v sorted=%v on %s", k, largest, sorted, d)
				got := runK(k, o)
				compare(t, keys, want[:k], got, largest, sorted, what)
			}
		}
	}
}

// compare checks a result against the oracle's first k entries: in order
// when sorted, else as sets (both sorted by key bits and position). Keys
// compare by their ordered bits, so NaN payloads and −0 count; values must
// be the positions of the keys they came with.
func compare[K number](t *testing.T, keys []K, want []entry, got result[K], largest, sorted bool, what string) {
	t.Helper()
	k := len(want)
	require.Len(t, got.keys, k, what)
	es := make([]entry, k)
	for i, x := range got.keys {
		es[i].Bits = devcheck.OrderedBits(x, largest)
		if got.pos != nil {
			p := got.pos[i]
			if p < 0 || p >= len(keys) {
				t.Fatalf("%s: value %d is position %d, not an input position", what, i, p)
			}
			if b := devcheck.OrderedBits(keys[p], largest); b != es[i].Bits {
				t.Fatalf("%s: key %d (bits %#x) is not the key at its value's position %d (bits %#x)", what, i, es[i].Bits, p, b)
			}
			es[i].Pos = p
		}
	}
	if !sorted {
		sortEntries[K](es)
	}
	for i := range want {
		w := want[i]
		if got.pos == nil {
			w.Pos = 0 // keys only: equal keys are indistinguishable
		}
		if es[i] != w {
			t.Fatalf("%s: result %d of %d is (bits %#x, position %d), want (bits %#x, position %d)",
				what, i, k, es[i].Bits, es[i].Pos, w.Bits, w.Pos)
		}
	}
}

// gen returns n random keys: half of them from [0, 100) (many ties), the
// rest random bits; for floats also ±0, ±Inf and NaNs of both signs.
func gen[K number](r *rand.Rand, n int) []K {
	xs := make([]K, n)
	var zero K
	_, isFloat32 := any(zero).(float32)
	_, isFloat64 := any(zero).(float64)
	for i := range xs {
		switch {
		case r.IntN(2) == 0:
			xs[i] = K(r.IntN(100))
		case isFloat32:
			specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
				float32(math.NaN()), -float32(math.NaN()), math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00005)}
			if r.IntN(4) == 0 {
				*(*float32)(unsafe.Pointer(&xs[i])) = specials[r.IntN(len(specials))]
			} else {
				*(*uint32)(unsafe.Pointer(&xs[i])) = r.Uint32()
			}
		case isFloat64:
			specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
				math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000005)}
			if r.IntN(4) == 0 {
				*(*float64)(unsafe.Pointer(&xs[i])) = specials[r.IntN(len(specials))]
			} else {
				*(*uint64)(unsafe.Pointer(&xs[i])) = r.Uint64()
			}
		default:
			b := r.Uint64()
			switch unsafe.Sizeof(zero) {
			case 1:
				*(*uint8)(unsafe.Pointer(&xs[i])) = uint8(b)
			case 2:
				*(*uint16)(unsafe.Pointer(&xs[i])) = uint16(b)
			case 4:
				*(*uint32)(unsafe.Pointer(&xs[i])) = uint32(b)
			default:
				*(*uint64)(unsafe.Pointer(&xs[i])) = b
			}
		}
	}
	return xs
}

// check runs every instance at size n on d. big (n > 10^5) keeps to a few
// instances and ks on the CPU, and on the GPU at 2^26.
func check(t *testing.T, r *rand.Rand, d *runtime.Device, n int, gpu bool) {
	all := n <= 1_000_003 && gpu || n < 100_000 // else uint32, pairs/float32 and pairs/equal alone
	var only []int                              // every k
	if !gpu && n >= 100_000 {
		only = []int{7, 1024, runtime.TopKSortedMax + 1}
	}
	sub := func(name string, wide bool, f func(t *testing.T)) {
		if wide && !all || name == "float32" && !all && n >= 1<<26 {
			return
		}
		t.Run(name, f)
	}
	sub("int8", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysInt8), gen[int8](r, n), only) })
	sub("int16", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysInt16), gen[int16](r, n), only) })
	sub("int32", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysInt32), gen[int32](r, n), only) })
	sub("int64", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysInt64), gen[int64](r, n), only) })
	sub("uint8", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysUint8), gen[uint8](r, n), only) })
	sub("uint16", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysUint16), gen[uint16](r, n), only) })
	sub("uint32", false, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysUint32), gen[uint32](r, n), only) })
	sub("uint64", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysUint64), gen[uint64](r, n), only) })
	sub("float32", false, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysFloat32), gen[float32](r, n), only) })
	sub("float64", true, func(t *testing.T) { checkKeys(t, d, keysRunner(KeysFloat64), gen[float64](r, n), only) })
	sub("pairs/float32", false, func(t *testing.T) { checkKeys(t, d, positionsRunner(PairsFloat32), gen[float32](r, n), only) })
	sub("pairs/int16", true, func(t *testing.T) { checkKeys(t, d, positionsRunner(PairsInt16), gen[int16](r, n), only) })
	sub("pairs/uint64", true, func(t *testing.T) { checkKeys(t, d, payloadRunner(PairsUint64), gen[uint64](r, n), only) })
	// Keys spread as the benchmarks' (uniform bits, floats in [0, 1)): on a
	// GPU past 2^22 keys the prefilter's candidates fit, where gen's ties
	// make it fall back to the passes over the input.
	sub("uniform/uint32", false, func(t *testing.T) {
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = r.Uint32()
		}
		checkKeys(t, d, keysRunner(KeysUint32), keys, only)
	})
	sub("uniform/pairs/float32", false, func(t *testing.T) {
		keys := make([]float32, n)
		for i := range keys {
			keys[i] = r.Float32()
		}
		checkKeys(t, d, positionsRunner(PairsFloat32), keys, only)
	})
	sub("uniform/float64", false, func(t *testing.T) {
		keys := make([]float64, n)
		for i := range keys {
			keys[i] = r.Float64()
		}
		checkKeys(t, d, keysRunner(KeysFloat64), keys, only)
	})
	// Every key equal: the selection is decided by positions alone (on a
	// GPU the candidates never fit a buffer, so each pass reads the input).
	sub("pairs/equal", false, func(t *testing.T) {
		keys := make([]float32, n)
		for i := range keys {
			keys[i] = 5
		}
		checkKeys(t, d, positionsRunner(PairsFloat32), keys, only)
	})
}

// TestGPUMatchesCPU checks the GPU against the oracle, which follows the
// CPU backend's order (TestCPUBackend checks the CPU backend against it).
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if testing.Short() && n > 1<<23 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, gpu, n, true) })
	}
}

// TestCPUBackend checks the CPU backend against the oracle; it runs
// everywhere (10^6 with few instances and ks, none of it with -short).
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, n := range sizes {
		if n > 1<<20 || testing.Short() && n > 10_000 {
			continue
		}
		t.Run("n="+devcheck.SizeName(n), func(t *testing.T) { check(t, r, cpu, n, false) })
	}
}

// TestCPUOrder pins the order of floats and the tie rule with values.
func TestCPUOrder(t *testing.T) {
	d := devcheck.OpenCPU(t)
	negNaN := float32(math.Float32frombits(0xffc00000))
	keys := []float32{1, float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(-1)), negNaN, 1, float32(math.Inf(1))}
	pos := make([]int64, len(keys))
	for i := range pos {
		pos[i] = int64(i)
	}
	in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, pos)
	for _, c := range []struct {
		largest bool
		want    []int64
	}{
		{false, []int64{5, 4, 2, 3, 0, 6, 7, 1}}, // −NaN, −Inf, −0, +0, 1, 1, +Inf, NaN
		{true, []int64{1, 7, 0, 6, 3, 2, 4, 5}},  // ties: the lower position first
	} {
		kout, vout := devcheck.Alloc[float32](t, d, len(keys)), devcheck.Alloc[int64](t, d, len(keys))
		require.NoError(t, PairsFloat32.Run(nil, in, kout, vin, vout, len(keys), runtime.TopKOptions{Largest: c.largest, Sorted: true}))
		require.Equal(t, c.want, devcheck.Download(t, vout), "largest=%v", c.largest)
		// Unsorted, cut at the tie of 1s: the first 1 wins.
		k := 5
		if c.largest {
			k = 3
		}
		kout, vout = devcheck.Alloc[float32](t, d, k), devcheck.Alloc[int64](t, d, k)
		require.NoError(t, PairsFloat32.Run(nil, in, kout, vin, vout, k, runtime.TopKOptions{Largest: c.largest}))
		got := devcheck.Download(t, vout)
		slices.Sort(got)
		want := slices.Clone(c.want[:k])
		slices.Sort(want)
		require.Equal(t, want, got, "unsorted k=%d largest=%v", k, c.largest)
	}
}

// TestBadArguments requires misuse to be reported before any launch.
func TestBadArguments(t *testing.T) {
	d := devcheck.OpenCPU(t)
	xs := devcheck.Upload(t, d, []int32{3, 1, 2, 5})
	out := devcheck.Alloc[int32](t, d, 4)
	o := runtime.TopKOptions{}
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, -1, o), "negative k")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, 5, o), "more than the input")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, devcheck.Alloc[int32](t, d, 1), 2, o), "fewer than k")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, xs, 2, o), "overlaps")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, xs.Range(2, 4), 2, o), "overlaps")
	// Sorted takes every k, past TopKSortedMax too; its bad arguments are
	// refused as the unsorted ones.
	big := devcheck.Alloc[int32](t, d, runtime.TopKSortedMax+1)
	bigOut := devcheck.Alloc[int32](t, d, runtime.TopKSortedMax+1)
	sorted := runtime.TopKOptions{Sorted: true}
	require.NoError(t, KeysInt32.Run(nil, big, bigOut, runtime.TopKSortedMax+1, sorted))
	require.NoError(t, KeysInt32.Run(nil, big, bigOut, runtime.TopKSortedMax+1, o))
	require.ErrorContains(t, KeysInt32.Run(nil, big, bigOut.Range(0, runtime.TopKSortedMax), runtime.TopKSortedMax+1, sorted), "fewer than k")
	require.ErrorContains(t, KeysInt32.Run(nil, big, big, runtime.TopKSortedMax+1, sorted), "overlaps")
	require.NoError(t, KeysInt32.Run(nil, xs, out, 0, o))

	ks := devcheck.Upload(t, d, []float32{1, 2, 3})
	vs := devcheck.Upload(t, d, []int64{0, 1, 2})
	kout, vout := devcheck.Alloc[float32](t, d, 3), devcheck.Alloc[int64](t, d, 3)
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, devcheck.Upload(t, d, []int64{0, 1}), vout, 1, o), "values")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, vs, devcheck.Alloc[int64](t, d, 1), 2, o), "values output")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, vs, vs, 2, o), "overlaps")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, ks, vs, vout, 2, o), "overlaps")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, vs, vout, 4, o), "more than the input")

	freed := devcheck.Alloc[int32](t, d, 2)
	freed.Free()
	require.Error(t, KeysInt32.Run(nil, freed, out, 1, o))
	_, err := KeysInt32.TempStorageBytes(d, 10, 11, o)
	require.Error(t, err)
	n, err := KeysInt32.TempStorageBytes(d, 10, 3, o)
	require.NoError(t, err)
	require.Zero(t, n, "the CPU backend takes no scratch")
}

// TestGPUTempStorage checks that a sorted selection's scratch on the GPU
// covers the radix sort past TopKSortedMax: its sort items and the
// positions (32 bytes a result) above the unsorted selection's.
func TestGPUTempStorage(t *testing.T) {
	d := devcheck.OpenGPU(t)
	const n = 1 << 20
	for _, k := range []int{runtime.TopKSortedMax, runtime.TopKSortedMax + 1, n / 2, n} {
		unsorted, err := KeysFloat32.TempStorageBytes(d, n, k, runtime.TopKOptions{})
		require.NoError(t, err)
		sorted, err := KeysFloat32.TempStorageBytes(d, n, k, runtime.TopKOptions{Sorted: true})
		require.NoError(t, err)
		least := unsorted + 8*k
		if k > runtime.TopKSortedMax {
			least = unsorted + 32*k
		}
		require.GreaterOrEqual(t, sorted, least, "k=%d", k)
	}
}
