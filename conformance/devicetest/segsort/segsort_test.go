package segsort

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
	"github.com/gocccl/gocccl/conformance/devicetest/radixorder"
	"github.com/gocccl/gocccl/runtime"
)

// oracle sorts every segment with slices.SortStableFunc: for each output
// position, the input position its key comes from (-1 outside every
// segment).
func oracle[K radixorder.Key](keys []K, begin, end []int64, desc bool) []int {
	from := make([]int, len(keys))
	for i := range from {
		from[i] = -1
	}
	for s := range begin {
		b, e := int(begin[s]), int(end[s])
		idx := make([]int, e-b)
		for i := range idx {
			idx[i] = b + i
		}
		slices.SortStableFunc(idx, func(x, y int) int {
			bx, by := radixorder.Bits(keys[x], runtime.RadixOptions{Descending: desc}), radixorder.Bits(keys[y], runtime.RadixOptions{Descending: desc})
			switch {
			case bx < by:
				return -1
			case bx > by:
				return 1
			}
			return 0
		})
		copy(from[b:e], idx)
	}
	return from
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

// inputs returns the key patterns of n keys (random only when !all).
func inputs[K radixorder.Key](r *rand.Rand, n int, gen func(*rand.Rand) K, all bool) map[string][]K {
	random := make([]K, n)
	for i := range random {
		random[i] = gen(r)
	}
	if !all || n == 0 {
		return map[string][]K{"random": random}
	}
	sorted := slices.Clone(random)
	slices.SortStableFunc(sorted, func(a, b K) int {
		x, y := radixorder.Bits(a, runtime.RadixOptions{}), radixorder.Bits(b, runtime.RadixOptions{})
		if x < y {
			return -1
		} else if x > y {
			return 1
		}
		return 0
	})
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
	in := map[string][]K{"random": random, "nearly": nearly, "reversed": reversed, "equal": equal, "few": few, "edges": edges}
	if n > 4096 {
		// One random byte, the others random[0]'s: the GPU's fallback runs
		// that byte's digit pass alone over a segment longer than its tile
		// (the others hold one digit each: skipped), the first or the last.
		low, high := make([]K, n), make([]K, n)
		base := keyBits(random[0])
		top := 8 * (int(unsafe.Sizeof(random[0])) - 1)
		for i := range low {
			low[i] = fromKeyBits[K](base&^0xff | r.Uint64()&0xff)
			high[i] = fromKeyBits[K](base&^(0xff<<top) | (r.Uint64()&0xff)<<top)
		}
		in["low-byte"], in["high-byte"] = low, high
	}
	return in
}

// keyBits returns the bytes of k in memory, as the low bytes of a uint64.
func keyBits[K radixorder.Key](k K) uint64 {
	var b uint64
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&b)), 8), unsafe.Slice((*byte)(unsafe.Pointer(&k)), unsafe.Sizeof(k)))
	return b
}

// fromKeyBits returns the key whose bytes in memory are the low bytes of b.
func fromKeyBits[K radixorder.Key](b uint64) K {
	var k K
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&k)), unsafe.Sizeof(k)), unsafe.Slice((*byte)(unsafe.Pointer(&b)), 8))
	return k
}

// layout is a set of segments.
type layout struct {
	name       string
	begin, end []int64
}

// layouts returns segment layouts over n keys: every class of the GPU
// (lengths 0, 1, warp, medium and big block, Onesweep or the fallback's
// passes through global memory) mixed, with gaps and shuffled, 1024-key
// segments, one segment of 90%, one segment, length 1, and (when n allows)
// 10^6 segments; those of at most 500 segments also with empty ones added
// (past the fallback's limit).
func layouts(r *rand.Rand, n int) []layout {
	// The class limits of the policies ± 1: medium 4 × 256, 384, 512
	// threads; big (the tile) 256 × 16, 384 × 15, 384 × 18, 384 × 20, 512 × 19.
	lengths := []int{0, 1, 2, 3, 31, 32, 33, 127, 128, 129, 500, 1023, 1024, 1025, 1535, 1536, 1537, 2047, 2048, 2049,
		3071, 3072, 3073, 4095, 4096, 4097, 5759, 5760, 5761, 6911, 6912, 6913, 7679, 7680, 7681, 9000, 9727, 9728, 9729, 70000}
	fill := func(name string, next func(pos int) int, gaps, shuffle bool) layout {
		l := layout{name: name}
		for pos := 0; pos < n; {
			m := min(next(pos), n-pos)
			l.begin, l.end = append(l.begin, int64(pos)), append(l.end, int64(pos+m))
			pos += m
			if gaps {
				pos += r.IntN(3)
			}
		}
		if shuffle {
			p := r.Perm(len(l.begin))
			b, e := slices.Clone(l.begin), slices.Clone(l.end)
			for i, j := range p {
				l.begin[i], l.end[i] = b[j], e[j]
			}
		}
		return l
	}
	pick := func(int) int { return lengths[r.IntN(len(lengths))] }
	huge := n * 9 / 10
	out := []layout{
		fill("mixed", pick, false, false),
		fill("gaps-shuffled", pick, true, true),
		fill("1024", func(int) int { return 1024 }, false, false),
		fill("one-huge", func(pos int) int {
			if pos == 0 {
				return max(huge, 1)
			}
			return r.IntN(2000)
		}, false, false),
		{name: "single", begin: []int64{0}, end: []int64{int64(n)}},
	}
	if n <= 1<<20 {
		out = append(out, fill("ones", func(int) int { return 1 }, false, false))
	}
	if n >= 4_000_000 {
		out = append(out, fill("1e6-segments", func(pos int) int { return r.IntN(2*n/1_000_000 + 1) }, false, false))
	}
	// The GPU sorts up to 500 segments over up to 2^17 keys (512 KiB of
	// keys and values) with the fallback kernel (a block per segment, in one launch) and more with
	// the classified lists: the same layouts again with empty segments
	// added, so that both paths see every segment length.
	for _, l := range out {
		if len(l.begin) <= fallbackSegments {
			out = append(out, withEmpties(r, l, n, fallbackSegments+1-len(l.begin)+r.IntN(50)))
		}
	}
	return out
}

// fallbackSegments is the most segments the GPU's fallback kernel takes
// (runtime's segsortFallbackSegments).
const fallbackSegments = 500

// withEmpties returns l with k empty segments at random positions, shuffled
// among its segments.
func withEmpties(r *rand.Rand, l layout, n, k int) layout {
	e := layout{name: l.name + "+empties", begin: slices.Clone(l.begin), end: slices.Clone(l.end)}
	for range k {
		p := int64(r.IntN(n + 1))
		e.begin, e.end = append(e.begin, p), append(e.end, p)
	}
	perm := r.Perm(len(e.begin))
	b, en := slices.Clone(e.begin), slices.Clone(e.end)
	for i, j := range perm {
		e.begin[i], e.end[i] = b[j], en[j]
	}
	return e
}

// sizes: 0, 1, around the classes and tiles, the fallback's limits (2^15,
// 2^16 and 2^17 keys by the size of a key and its value) and one past each,
// 10^6+3; 2^22 and 2^26 on the GPU only.
var sizes = []int{0, 1, 2, 129, 1025, 4097, 1<<15 + 1, 1<<16 + 1, 100_003, 1 << 17, 1<<17 + 1, 1_000_003, 1 << 22, 1 << 26}

const poison = 0x5a

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// sortOn runs keys and pairs (values: input positions) on d with poisoned
// outputs, and returns the keys and values.
func sortOn[K radixorder.Key](t *testing.T, d *runtime.Device, keysOp *runtime.SegmentedSortKeysOp[K], pairsOp *runtime.SegmentedSortPairsOp[K, uint32],
	keys []K, l layout, desc bool) (gotK, pairK []K, pairV []uint32) {
	t.Helper()
	n := len(keys)
	pk := make([]K, n)
	pv := make([]uint32, n)
	for i := range pk {
		pk[i], pv[i] = K(poison), poison
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	in, out := must(runtime.FromHost(d, keys)), must(runtime.FromHost(d, pk))
	begin, end := must(runtime.FromHost(d, l.begin)), must(runtime.FromHost(d, l.end))
	defer func() {
		for _, s := range []interface{ Free() error }{in, out, begin, end} {
			s.Free()
		}
	}()
	o := runtime.SegmentedSortOptions{Descending: desc}
	require.NoError(t, keysOp.Run(nil, in, out, begin, end, o))
	gotK = must(out.ToHost())
	if pairsOp == nil {
		return gotK, nil, nil
	}
	vin, vout, kout := must(runtime.FromHost(d, idx)), must(runtime.FromHost(d, pv)), must(runtime.FromHost(d, pk))
	defer func() {
		for _, s := range []interface{ Free() error }{vin, vout, kout} {
			s.Free()
		}
	}()
	require.NoError(t, pairsOp.Run(nil, in, kout, vin, vout, begin, end, o))
	back := must(in.ToHost())
	for i := range back {
		if radixorder.Bits(back[i], runtime.RadixOptions{}) != radixorder.Bits(keys[i], runtime.RadixOptions{}) {
			t.Fatalf("the input changed at %d", i)
		}
	}
	return gotK, must(kout.ToHost()), must(vout.ToHost())
}

// keyCase checks one key type on dut (the GPU, or the CPU backend in CI)
// against the oracle device (the CPU backend) and slices.SortStableFunc.
type keyCase struct {
	name string
	run  func(t *testing.T, r *rand.Rand, dut, oracleDev *runtime.Device, n int)
}

func newCase[K radixorder.Key](name string, keysOp *runtime.SegmentedSortKeysOp[K], pairsOp *runtime.SegmentedSortPairsOp[K, uint32], gen func(*rand.Rand) K) keyCase {
	return keyCase{name, func(t *testing.T, r *rand.Rand, dut, oracleDev *runtime.Device, n int) {
		for pattern, keys := range inputs(r, n, gen, n <= 100_003) {
			for _, l := range layouts(r, n) {
				for _, desc := range []bool{false, true} {
					if n > 1_000_003 && desc {
						continue
					}
					what := fmt.Sprintf("%s %s %s n=%d segments=%d desc=%v", name, pattern, l.name, n, len(l.begin), desc)
					gotK, pairK, pairV := sortOn(t, dut, keysOp, pairsOp, keys, l, desc)
					if dut != oracleDev {
						wantK, wantPK, wantPV := sortOn(t, oracleDev, keysOp, pairsOp, keys, l, desc)
						devcheck.RequireBitEqual(t, wantK, gotK, what+": keys vs the CPU backend's")
						if pairsOp != nil {
							devcheck.RequireBitEqual(t, wantPK, pairK, what+": pairs' keys vs the CPU backend's")
							require.Equal(t, wantPV, pairV, "%s: values differ from the CPU backend's", what)
						}
					}
					if n > 1_000_003 {
						continue // the CPU backend, checked against the oracle at smaller sizes, is the reference
					}
					from := oracle(keys, l.begin, l.end, desc)
					for i, j := range from {
						want := K(poison)
						if j >= 0 {
							want = keys[j]
						}
						if radixorder.Bits(gotK[i], runtime.RadixOptions{}) != radixorder.Bits(want, runtime.RadixOptions{}) {
							t.Fatalf("%s: key %d is %v, want %v", what, i, gotK[i], want)
						}
						if pairsOp != nil && (j >= 0 && int(pairV[i]) != j || j < 0 && pairV[i] != poison) {
							t.Fatalf("%s: value %d is %d, want %d (stable order)", what, i, pairV[i], j)
						}
					}
					if pairsOp != nil {
						devcheck.RequireBitEqual(t, gotK, pairK, what+": pairs' keys vs keys'")
					}
				}
			}
		}
	}}
}

func cases() []keyCase {
	return []keyCase{
		newCase("int8", KeysInt8, PairsInt8, func(r *rand.Rand) int8 { return int8(r.Uint32()) }),
		newCase("int16", KeysInt16, PairsInt16, func(r *rand.Rand) int16 { return int16(r.Uint32()) }),
		newCase("int32", KeysInt32, nil, func(r *rand.Rand) int32 { return int32(r.Uint32()) }),
		newCase("int64", KeysInt64, PairsInt64, func(r *rand.Rand) int64 { return int64(r.Uint64()) }),
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
// CPU backend and slices.SortStableFunc. Sizes above 100_003 run for uint32,
// float64 and int8 only (int8 up to 2^22).
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	cpu := devcheck.OpenCPU(t)
	t.Logf("device: %s", gpu)
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases() {
		for _, n := range sizes {
			big := c.name == "uint32" || c.name == "float64" || c.name == "int8"
			if n > 100_003 && (testing.Short() && n > 1_000_003 || !big || n > 1<<22 && c.name == "int8") {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) { c.run(t, r, gpu, cpu, n) })
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
			if n > 4097 && (testing.Short() || n > 100_003 || c.name != "float32") {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) { c.run(t, r, cpu, cpu, n) })
		}
	}
}

// TestStructValues moves user structs, one small enough for Onesweep's
// shared-memory exchange and one too large for it (its tile is smaller than
// the medium class).
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
			for _, l := range layouts(r, n) {
				for _, desc := range []bool{false, true} {
					what := fmt.Sprintf("%v n=%d %s desc=%v", d, n, l.name, desc)
					o := runtime.SegmentedSortOptions{Descending: desc}
					begin, end := must(runtime.FromHost(d, l.begin)), must(runtime.FromHost(d, l.end))
					from := oracle(ki, l.begin, l.end, desc)
					kin, kout := must(runtime.FromHost(d, ki)), must(runtime.Alloc[int32](d, n))
					pin, pout := must(runtime.FromHost(d, pi)), must(runtime.Alloc[Payload](d, n))
					require.NoError(t, PairsPayload.Run(nil, kin, kout, pin, pout, begin, end, o), what)
					gotP := must(pout.ToHost())
					for i, j := range from {
						if j >= 0 {
							require.Equal(t, pi[j], gotP[i], "%s: value %d", what, i)
						}
					}
					from = oracle(ku, l.begin, l.end, desc)
					uin, uout := must(runtime.FromHost(d, ku)), must(runtime.Alloc[uint16](d, n))
					bin, bout := must(runtime.FromHost(d, bi)), must(runtime.Alloc[Big](d, n))
					require.NoError(t, PairsBig.Run(nil, uin, uout, bin, bout, begin, end, o), what)
					gotB := must(bout.ToHost())
					for i, j := range from {
						if j >= 0 {
							require.Equal(t, bi[j], gotB[i], "%s: value %d", what, i)
						}
					}
					for _, s := range []interface{ Free() error }{begin, end, kin, kout, pin, pout, uin, uout, bin, bout} {
						s.Free()
					}
				}
			}
		}
	}
}

// TestTempStorageBytes: the bound covers a layout of many just-too-long
// segments on the GPU, and is 0 on the CPU backend.
func TestTempStorageBytes(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	b, err := KeysUint32.TempStorageBytes(cpu, 1<<20, 100)
	require.NoError(t, err)
	require.Zero(t, b)
	gpu := devcheck.OpenGPU(t)
	b, err = KeysUint32.TempStorageBytes(gpu, 1<<20, 1<<20)
	require.NoError(t, err)
	require.Greater(t, b, 4<<20, "a copy of the keys at least")
}

// TestPortions sorts a segment longer than a look-back portion (2^29 - 1
// items rounded down to whole tiles) beside a large and a small one, so that
// the huge segment's second portion starts its digits from the histogram's
// counts of the first: int16 keys (two passes), keys and pairs, both
// directions, checked on the host (GPU only; not in -short).
func TestPortions(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gpu := devcheck.OpenGPU(t)
	const n = 1<<29 + 100_000
	r := rand.New(rand.NewPCG(9, 10))
	keys := make([]int16, n)
	for i := range keys {
		keys[i] = int16(r.Uint32() % 3000) // many equal keys: stability shows
	}
	begin, end := []int64{0, 50_003, n - 7}, []int64{50_000, n - 7, n}
	outside := []int{50_000, 50_001, 50_002}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	in, vin := must(runtime.FromHost(gpu, keys)), must(runtime.FromHost(gpu, idx))
	db, de := must(runtime.FromHost(gpu, begin)), must(runtime.FromHost(gpu, end))
	kout, vout := must(runtime.Alloc[int16](gpu, n)), must(runtime.Alloc[uint32](gpu, n))
	defer func() {
		for _, s := range []interface{ Free() error }{in, vin, db, de, kout, vout} {
			s.Free()
		}
	}()
	poisonK, poisonV := make([]int16, n), make([]uint32, n)
	gotK, gotV := make([]int16, n), make([]uint32, n)
	for i := range poisonK {
		poisonK[i], poisonV[i] = poison, poison
	}
	for _, desc := range []bool{false, true} {
		for _, pairs := range []bool{false, true} {
			what := fmt.Sprintf("desc=%v pairs=%v", desc, pairs)
			require.NoError(t, kout.CopyFromHost(poisonK))
			require.NoError(t, vout.CopyFromHost(poisonV))
			o := runtime.SegmentedSortOptions{Descending: desc}
			if pairs {
				require.NoError(t, PairsInt16.Run(nil, in, kout, vin, vout, db, de, o), what)
			} else {
				require.NoError(t, KeysInt16.Run(nil, in, kout, db, de, o), what)
			}
			require.NoError(t, kout.CopyToHost(gotK))
			require.NoError(t, vout.CopyToHost(gotV))
			for _, i := range outside {
				require.Equal(t, int16(poison), gotK[i], "%s: key %d outside the segments", what, i)
				require.Equal(t, uint32(poison), gotV[i], "%s: value %d outside the segments", what, i)
			}
			for s := range begin {
				b, e := int(begin[s]), int(end[s])
				var counts [1 << 16]int
				for i := b; i < e; i++ {
					counts[uint16(keys[i])]++
					counts[uint16(gotK[i])]--
					if i > b && radixorder.Bits(gotK[i-1], runtime.RadixOptions{Descending: desc}) > radixorder.Bits(gotK[i], runtime.RadixOptions{Descending: desc}) {
						t.Fatalf("%s: segment %d not sorted at %d: %d then %d", what, s, i, gotK[i-1], gotK[i])
					}
					if !pairs {
						continue
					}
					v := int(gotV[i])
					if v < b || v >= e || keys[v] != gotK[i] {
						t.Fatalf("%s: value %d is %d, not the position of its key in segment %d", what, i, v, s)
					}
					if i > b && gotK[i-1] == gotK[i] && gotV[i-1] >= gotV[i] {
						t.Fatalf("%s: equal keys at %d out of their input order (%d, %d)", what, i, gotV[i-1], gotV[i])
					}
				}
				for k, c := range counts {
					if c != 0 {
						t.Fatalf("%s: segment %d holds key %d %d times too few", what, s, int16(uint16(k)), c)
					}
				}
			}
		}
	}
}
