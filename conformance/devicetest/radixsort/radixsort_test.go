package radixsort

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/conformance/devicetest/radixorder"
	"github.com/gocccl/gocccl/runtime"
)

// stableOrder returns the input positions of keys in sorted order, from
// slices.SortStableFunc.
func stableOrder[K radixorder.Key](keys []K, o runtime.RadixOptions) []uint32 {
	idx := make([]uint32, len(keys))
	bits := make([]uint64, len(keys))
	for i, k := range keys {
		idx[i], bits[i] = uint32(i), radixorder.Bits(k, o)
	}
	slices.SortStableFunc(idx, func(a, b uint32) int {
		switch x, y := bits[a], bits[b]; {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return idx
}

func specials[K radixorder.Key]() []K {
	var z K
	var v any
	switch any(z).(type) {
	case float32:
		v = []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(0, -1)), 0, 1, -1, math.MaxFloat32, math.SmallestNonzeroFloat32}
	case float64:
		v = []float64{math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.Copysign(0, -1), 0, 1, -1, math.MaxFloat64, -math.MaxFloat64}
	case int8:
		v = []int8{math.MinInt8, math.MaxInt8, 0, -1}
	case int16:
		v = []int16{math.MinInt16, math.MaxInt16, 0, -1}
	case int32:
		v = []int32{math.MinInt32, math.MaxInt32, 0, -1}
	case int64:
		v = []int64{math.MinInt64, math.MaxInt64, 0, -1}
	case int:
		v = []int{math.MinInt, math.MaxInt, 0, -1}
	case uint8:
		v = []uint8{0, math.MaxUint8, 0x80}
	case uint16:
		v = []uint16{0, math.MaxUint16, 0x8000}
	case uint32:
		v = []uint32{0, math.MaxUint32, 1 << 31}
	case uint64:
		v = []uint64{0, math.MaxUint64, 1 << 63}
	case uint:
		v = []uint{0, math.MaxUint, 1 << 63}
	case uintptr:
		v = []uintptr{0, ^uintptr(0), 1 << 63}
	}
	return v.([]K)
}

// inputs returns the key patterns of n keys.
func inputs[K radixorder.Key](r *rand.Rand, n int, gen func(*rand.Rand) K, all bool) map[string][]K {
	random := make([]K, n)
	for i := range random {
		random[i] = gen(r)
	}
	if !all {
		return map[string][]K{"random": random}
	}
	sorted := make([]K, n)
	for i, j := range stableOrder(random, runtime.RadixOptions{}) {
		sorted[i] = random[j]
	}
	nearly, reversed := slices.Clone(sorted), slices.Clone(sorted)
	slices.Reverse(reversed)
	for i := 0; i < n/100+1 && n > 1; i++ {
		a, b := r.IntN(n), r.IntN(n)
		nearly[a], nearly[b] = nearly[b], nearly[a]
	}
	equal, few, edges := make([]K, n), make([]K, n), make([]K, n)
	sp := specials[K]()
	for i := range equal {
		equal[i] = random[0]
		few[i] = random[r.IntN(min(n, 5))]
		edges[i] = sp[r.IntN(len(sp))]
	}
	return map[string][]K{"random": random, "nearly": nearly, "reversed": reversed, "equal": equal, "few": few, "edges": edges}
}

var options = []runtime.RadixOptions{{}, {Descending: true}, {BeginBit: 3, EndBit: 11}, {BeginBit: 3, EndBit: 11, Descending: true}, {BeginBit: 1, EndBit: 7}}

// sizes: 0, 1, around the tiles of the policies (256 × 16, × 12, × 1), and
// of sm_90's single-tile sorts (384 threads × 3, 6 and 11 items, then the
// policy's own 15, 18 or 20: radix_sort.cuh's SingleTiles), 10^6+3; 2^26 on
// the GPU only.
var sizes = []int{0, 1, 255, 256, 257, 1152, 1153, 2304, 2305, 3071, 3072, 3073, 4095, 4096, 4097, 4224, 4225,
	5760, 5761, 6912, 6913, 7680, 7681, 1_000_003, 1 << 26}

// keyCase checks one key type: keys-only against slices.SortStableFunc, and
// pairs whose values record the input position, on dut (the GPU, or the CPU
// backend in CI) against the oracle device (the CPU backend).
type keyCase struct {
	name string
	run  func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int)
}

func newCase[K radixorder.Key](name string, keys *runtime.RadixSortKeysOp[K], pairs *runtime.RadixSortPairsOp[K, uint32], gen func(*rand.Rand) K) keyCase {
	return keyCase{name, func(t *testing.T, r *rand.Rand, dut, oracle *runtime.Device, n int) {
		for pattern, in := range inputs(r, n, gen, n <= 4097) {
			for _, o := range options {
				if o.EndBit > 8*int(unsafe.Sizeof(in[0:1][0])) || n > 1_000_003 && o != options[0] || n >= 1_000_003 && o != options[0] && o != options[3] {
					continue
				}
				got := sortKeysOn(t, dut, keys, in, o)
				if dut != oracle {
					require.Equal(t, bitsOf(sortKeysOn(t, oracle, keys, in, o)), bitsOf(got), "CPU backend differs")
				}
				if n > 1_000_003 {
					// Too large for the SortStableFunc oracle: sorted, and equal to the CPU backend's.
					for i := 1; i < n; i++ {
						if radixorder.Bits(got[i-1], o) > radixorder.Bits(got[i], o) {
							t.Fatalf("%s n=%d %+v: keys %d and %d out of order", name, n, o, i-1, i)
						}
					}
					continue
				}
				want := stableOrder(in, o)
				for i, j := range want {
					if radixorder.Bits(in[j], runtime.RadixOptions{}) != radixorder.Bits(got[i], runtime.RadixOptions{}) {
						t.Fatalf("%s %s n=%d %+v: key %d is %v, want %v", name, pattern, n, o, i, got[i], in[j])
					}
				}
				if pairs != nil {
					gotK, gotV := sortPairsOn(t, dut, pairs, in, o)
					require.Equal(t, want, gotV, "%s %s n=%d %+v: values are not in stable order", name, pattern, n, o)
					require.Equal(t, bitsOf(got), bitsOf(gotK))
				}
			}
		}
	}}
}

func bitsOf[K radixorder.Key](ks []K) []uint64 {
	b := make([]uint64, len(ks))
	for i, k := range ks {
		b[i] = radixorder.Bits(k, runtime.RadixOptions{})
	}
	return b
}

func sortKeysOn[K radixorder.Key](t *testing.T, d *runtime.Device, op *runtime.RadixSortKeysOp[K], keys []K, o runtime.RadixOptions) []K {
	t.Helper()
	in, err := runtime.FromHost(d, keys)
	require.NoError(t, err)
	defer in.Free()
	out, err := runtime.Alloc[K](d, len(keys))
	require.NoError(t, err)
	defer out.Free()
	require.NoError(t, op.Run(nil, in, out, o))
	got, err := out.ToHost()
	require.NoError(t, err)
	back, err := in.ToHost()
	require.NoError(t, err)
	require.Equal(t, bitsOf(keys), bitsOf(back), "the input changed")
	return got
}

func sortPairsOn[K radixorder.Key](t *testing.T, d *runtime.Device, op *runtime.RadixSortPairsOp[K, uint32], keys []K, o runtime.RadixOptions) ([]K, []uint32) {
	t.Helper()
	idx := make([]uint32, len(keys))
	for i := range idx {
		idx[i] = uint32(i)
	}
	// Double buffer: the selector says where the result is.
	kb := runtime.NewDoubleBuffer(must(runtime.FromHost(d, keys)), must(runtime.Alloc[K](d, len(keys))))
	vb := runtime.NewDoubleBuffer(must(runtime.FromHost(d, idx)), must(runtime.Alloc[uint32](d, len(keys))))
	defer func() {
		for _, s := range kb.Buffers {
			s.Free()
		}
		for _, s := range vb.Buffers {
			s.Free()
		}
	}()
	require.NoError(t, op.RunDoubleBuffer(nil, kb, vb, o))
	return must(kb.Current().ToHost()), must(vb.Current().ToHost())
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func cases() []keyCase {
	return []keyCase{
		newCase("int8", KeysInt8, PairsInt8, func(r *rand.Rand) int8 { return int8(r.Uint32()) }),
		newCase("int16", KeysInt16, PairsInt16, func(r *rand.Rand) int16 { return int16(r.Uint32()) }),
		newCase("int32", KeysInt32, nil, func(r *rand.Rand) int32 { return int32(r.Uint32()) }),
		newCase("int64", KeysInt64, nil, func(r *rand.Rand) int64 { return int64(r.Uint64()) }),
		newCase("int", KeysInt, nil, func(r *rand.Rand) int { return int(r.Uint64()) }),
		newCase("uint8", KeysUint8, nil, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }),
		newCase("uint16", KeysUint16, nil, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }),
		newCase("uint32", KeysUint32, PairsUint32, func(r *rand.Rand) uint32 { return r.Uint32() }),
		newCase("uint64", KeysUint64, PairsUint64, func(r *rand.Rand) uint64 { return r.Uint64() }),
		newCase("uint", KeysUint, nil, func(r *rand.Rand) uint { return uint(r.Uint64()) }),
		newCase("uintptr", KeysUintptr, nil, func(r *rand.Rand) uintptr { return uintptr(r.Uint64()) }),
		newCase("float32", KeysFloat32, PairsFloat32, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 100) }),
		newCase("float64", KeysFloat64, PairsFloat64, func(r *rand.Rand) float64 { return r.NormFloat64() * 100 }),
	}
}

// TestGPUMatchesCPU sorts every instance on the GPU and compares with the
// CPU backend and slices.SortStableFunc.
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases() {
		for _, n := range sizes {
			if testing.Short() && n > 1<<20 {
				continue
			}
			t.Run(c.name+"/n="+strconv.Itoa(n), func(t *testing.T) { c.run(t, r, gpu, cpu, n) })
		}
	}
}

// TestCPUBackend runs the same checks on the CPU backend; it runs
// everywhere.
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases() {
		for _, n := range sizes {
			if n > 4097 && (testing.Short() || n > 1<<20 || c.name != "float32") {
				continue
			}
			t.Run(c.name+"/n="+strconv.Itoa(n), func(t *testing.T) { c.run(t, r, cpu, cpu, n) })
		}
	}
}

// TestStructValues moves user structs, one small enough for the tile's
// shared-memory exchange and one too large for it, and sorts in place.
func TestStructValues(t *testing.T) {
	devs := []*runtime.Device{devcheck.OpenCPU(t)}
	if d, err := runtime.OpenGPU(0); err == nil {
		devs = append(devs, d)
		t.Cleanup(func() { d.Close() })
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range devs {
		for _, n := range []int{0, 1, 255, 257, 4097, 100_003} {
			ki := make([]int32, n)
			pi := make([]Payload, n)
			ku := make([]uint16, n)
			bi := make([]Big, n)
			for i := range ki {
				ki[i] = int32(r.IntN(1000)) - 500
				pi[i] = Payload{Index: uint32(i), Tag: int16(i), F: [3]float64{float64(i), -1, 2}}
				ku[i] = uint16(r.IntN(5000))
				bi[i] = Big{Index: uint64(i)}
				bi[i].Pad[23] = uint64(i) * 3
			}
			for _, o := range options {
				want := stableOrder(ki, o)
				ks, ps := must(runtime.FromHost(d, ki)), must(runtime.FromHost(d, pi))
				require.NoError(t, PairsPayload.Run(nil, ks, ks, ps, ps, o)) // in place
				gotP := must(ps.ToHost())
				for i, j := range want {
					require.Equal(t, pi[j], gotP[i], "%v n=%d %+v: value %d", d, n, o, i)
				}
				ks.Free()
				ps.Free()

				want = stableOrder(ku, o)
				kin, kout := must(runtime.FromHost(d, ku)), must(runtime.Alloc[uint16](d, n))
				bin, bout := must(runtime.FromHost(d, bi)), must(runtime.Alloc[Big](d, n))
				require.NoError(t, PairsBig.Run(nil, kin, kout, bin, bout, o))
				gotB := must(bout.ToHost())
				for i, j := range want {
					require.Equal(t, bi[j], gotB[i], "%v n=%d %+v: value %d", d, n, o, i)
				}
				for _, s := range []interface{ Free() error }{kin, kout, bin, bout} {
					s.Free()
				}
			}
		}
	}
}

// TestHugeUint8 sorts 2^31+k one-byte keys on the GPU: 64-bit indices.
func TestHugeUint8(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gpu := devcheck.OpenGPU(t)
	const n = 1<<31 + 12345
	keys := make([]uint8, n)
	var want [256]int
	for i := range keys {
		k := uint8(uint32(i)*2654435761>>13) ^ uint8(i>>20)
		keys[i] = k
		want[k]++
	}
	in := must(runtime.FromHost(gpu, keys))
	defer in.Free()
	out := must(runtime.Alloc[uint8](gpu, n))
	defer out.Free()
	require.NoError(t, KeysUint8.Run(nil, in, out, runtime.RadixOptions{Descending: true}))
	require.NoError(t, out.CopyToHost(keys))
	pos := 0
	for d := 255; d >= 0; d-- {
		for i := pos; i < pos+want[d]; i++ {
			if keys[i] != uint8(d) {
				t.Fatalf("key %d is %d, want %d", i, keys[i], d)
			}
		}
		pos += want[d]
	}
}
