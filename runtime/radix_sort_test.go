package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// oracleBits is the ordered window of k, written independently of the
// backend: CUB's twiddle, then the window.
func oracleBits[K RadixKey](k K, o RadixOptions) uint64 {
	var b uint64
	var width int
	switch v := any(k).(type) {
	case float32:
		u := math.Float32bits(v)
		if u>>31 == 1 {
			u = ^u
		} else {
			u |= 1 << 31
		}
		b, width = uint64(u), 32
	case float64:
		u := math.Float64bits(v)
		if u>>63 == 1 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		b, width = u, 64
	case int8:
		b, width = uint64(uint8(v)^0x80), 8
	case int16:
		b, width = uint64(uint16(v)^0x8000), 16
	case int32:
		b, width = uint64(uint32(v)^0x80000000), 32
	case int64:
		b, width = uint64(v)^1<<63, 64
	case int:
		b, width = uint64(v)^1<<63, 64
	case uint8:
		b, width = uint64(v), 8
	case uint16:
		b, width = uint64(v), 16
	case uint32:
		b, width = uint64(v), 32
	case uint64:
		b, width = v, 64
	case uint:
		b, width = uint64(v), 64
	case uintptr:
		b, width = uint64(v), 64
	}
	if o.Descending {
		b = ^b
		if width < 64 {
			b &= 1<<width - 1
		}
	}
	end := o.EndBit
	if end == 0 {
		end = width
	}
	b >>= o.BeginBit
	if w := end - o.BeginBit; w < 64 {
		b &= 1<<w - 1
	}
	return b
}

// oracleSort sorts pairs of keys and input positions with
// slices.SortStableFunc.
func oracleSort[K RadixKey](keys []K, o RadixOptions) ([]K, []int) {
	type kv struct {
		bits uint64
		i    int
	}
	p := make([]kv, len(keys))
	for i, k := range keys {
		p[i] = kv{oracleBits(k, o), i}
	}
	slices.SortStableFunc(p, func(a, b kv) int {
		switch {
		case a.bits < b.bits:
			return -1
		case a.bits > b.bits:
			return 1
		}
		return 0
	})
	ks, idx := make([]K, len(keys)), make([]int, len(keys))
	for j, e := range p {
		ks[j], idx[j] = keys[e.i], e.i
	}
	return ks, idx
}

// patterns returns inputs of n keys drawn from gen.
func patterns[K RadixKey](r *rand.Rand, n int, gen func(*rand.Rand) K, special []K) map[string][]K {
	random := make([]K, n)
	for i := range random {
		random[i] = gen(r)
	}
	sorted, _ := oracleSort(slices.Clone(random), RadixOptions{})
	nearly := slices.Clone(sorted)
	for i := 0; i < n/100+1 && n > 1; i++ {
		a, b := r.IntN(n), r.IntN(n)
		nearly[a], nearly[b] = nearly[b], nearly[a]
	}
	reversed := slices.Clone(sorted)
	slices.Reverse(reversed)
	equal := make([]K, n)
	few := make([]K, n)
	edges := make([]K, n)
	if n > 0 {
		for i := range equal {
			equal[i] = random[0]
			few[i] = random[r.IntN(min(n, 5))]
			edges[i] = special[r.IntN(len(special))]
		}
	}
	return map[string][]K{"random": random, "nearly": nearly, "reversed": reversed, "equal": equal, "few": few, "edges": edges}
}

// specials are the edge values of each key type: minimum, maximum, zeros,
// infinities and NaN.
func specials[K RadixKey]() []K {
	var z K
	var v any
	switch any(z).(type) {
	case float32:
		v = []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(0, -1)), 0, 1, -1,
			math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32}
	case float64:
		v = []float64{math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.Copysign(0, -1), 0, 1, -1, math.MaxFloat64, math.SmallestNonzeroFloat64}
	case int8:
		v = []int8{math.MinInt8, math.MaxInt8, 0, 1, -1}
	case int16:
		v = []int16{math.MinInt16, math.MaxInt16, 0, 1, -1}
	case int32:
		v = []int32{math.MinInt32, math.MaxInt32, 0, 1, -1}
	case int64:
		v = []int64{math.MinInt64, math.MaxInt64, 0, 1, -1}
	case int:
		v = []int{math.MinInt, math.MaxInt, 0, 1, -1}
	case uint8:
		v = []uint8{0, math.MaxUint8, 1, 0x80}
	case uint16:
		v = []uint16{0, math.MaxUint16, 1, 0x8000}
	case uint32:
		v = []uint32{0, math.MaxUint32, 1, 1 << 31}
	case uint64:
		v = []uint64{0, math.MaxUint64, 1, 1 << 63}
	case uint:
		v = []uint{0, math.MaxUint, 1, 1 << 63}
	case uintptr:
		v = []uintptr{0, ^uintptr(0), 1, 1 << 63}
	}
	return v.([]K)
}

func bitsEqual[K RadixKey](a, b []K) bool {
	for i := range a {
		if oracleBits(a[i], RadixOptions{}) != oracleBits(b[i], RadixOptions{}) {
			return false
		}
	}
	return len(a) == len(b)
}

var radixOptions = []RadixOptions{{}, {Descending: true}, {BeginBit: 3, EndBit: 11}, {BeginBit: 3, EndBit: 11, Descending: true}, {BeginBit: 1, EndBit: 7}}

func checkKeyType[K RadixKey](t *testing.T, d *Device, gen func(*rand.Rand) K, sizes []int, opts ...RadixOptions) {
	if opts == nil {
		opts = radixOptions
	}
	r := rand.New(rand.NewPCG(1, 2))
	keysOp := RadixSortKeys[K]()
	pairsOp := RadixSortPairs[K, int]()
	for _, n := range sizes {
		for name, keys := range patterns(r, n, gen, specials[K]()) {
			for _, o := range opts {
				if o.EndBit > 8*elemSize[K]() {
					continue
				}
				wantK, wantIdx := oracleSort(keys, o)
				in, err := FromHost(d, keys)
				require.NoError(t, err)
				out, err := Alloc[K](d, n)
				require.NoError(t, err)
				require.NoError(t, keysOp.Run(nil, in, out, o))
				got, _ := out.ToHost()
				require.Truef(t, bitsEqual(wantK, got), "keys %s n=%d %+v", name, n, o)
				back, _ := in.ToHost()
				require.Equal(t, bitsEqual(keys, back), true, "input changed")

				idx := make([]int, n)
				for i := range idx {
					idx[i] = i
				}
				vin, _ := FromHost(d, idx)
				vout, _ := Alloc[int](d, n)
				require.NoError(t, pairsOp.Run(nil, in, out, vin, vout, o))
				gotIdx, _ := vout.ToHost()
				require.Equalf(t, wantIdx, gotIdx, "pairs %s n=%d %+v: not the stable order", name, n, o)
				in.Free()
				out.Free()
				vin.Free()
				vout.Free()
			}
		}
	}
}

func TestRadixSortCPUTypes(t *testing.T) {
	d := cpuDevice(t)
	sizes := []int{0, 1, 2, 255, 256, 257, 4095, 4097}
	t.Run("int8", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) int8 { return int8(r.Uint32()) }, sizes) })
	t.Run("int16", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) int16 { return int16(r.Uint32()) }, sizes) })
	t.Run("int32", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) int32 { return int32(r.Uint32()) }, sizes) })
	t.Run("int64", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, sizes) })
	t.Run("int", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) int { return int(r.Uint64()) }, sizes) })
	t.Run("uint8", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, sizes) })
	t.Run("uint16", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }, sizes) })
	t.Run("uint32", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) uint32 { return r.Uint32() }, sizes) })
	t.Run("uint64", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) uint64 { return r.Uint64() }, sizes) })
	t.Run("uint", func(t *testing.T) { checkKeyType(t, d, func(r *rand.Rand) uint { return uint(r.Uint64()) }, sizes) })
	t.Run("uintptr", func(t *testing.T) {
		checkKeyType(t, d, func(r *rand.Rand) uintptr { return uintptr(r.Uint64()) }, sizes)
	})
	t.Run("float32", func(t *testing.T) {
		checkKeyType(t, d, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * 1e3) }, sizes)
	})
	t.Run("float64", func(t *testing.T) {
		checkKeyType(t, d, func(r *rand.Rand) float64 { return r.NormFloat64() * 1e3 }, sizes)
	})
	t.Run("large", func(t *testing.T) {
		if testing.Short() {
			t.Skip("short")
		}
		checkKeyType(t, d, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }, []int{1_000_003}, RadixOptions{BeginBit: 3, EndBit: 11, Descending: true})
	})
}

// TestRadixSortFloatOrder pins the float order: −Inf < −1 < −0 < +0 < 1 <
// +Inf < NaN ascending, reversed descending.
func TestRadixSortFloatOrder(t *testing.T) {
	d := cpuDevice(t)
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	in, _ := FromHost(d, []float64{nan, math.Inf(1), 1, 0, negZero, -1, math.Inf(-1)})
	out, _ := Alloc[float64](d, 7)
	require.NoError(t, RadixSortKeys[float64]().Run(nil, in, out, RadixOptions{}))
	got, _ := out.ToHost()
	want := []float64{math.Inf(-1), -1, negZero, 0, 1, math.Inf(1), nan}
	for i := range want {
		require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "position %d: %v", i, got)
	}
	require.NoError(t, RadixSortKeys[float64]().Run(nil, in, out, RadixOptions{Descending: true}))
	got, _ = out.ToHost()
	for i := range want {
		require.Equal(t, math.Float64bits(want[len(want)-1-i]), math.Float64bits(got[i]), "position %d: %v", i, got)
	}
}

// TestRadixPermutationChunks runs the parallel passes with many chunks.
func TestRadixPermutationChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := make([]int32, 200_000)
	for i := range keys {
		keys[i] = int32(r.IntN(1000)) - 500
	}
	for _, o := range radixOptions {
		begin, end, err := o.window(4)
		require.NoError(t, err)
		_, want := oracleSort(keys, o)
		require.Equal(t, want, radixPermutation(keys, begin, end, o.Descending, 7), "%+v", o)
	}
}

type payload struct {
	A int16
	B [3]float64
	C bool
}

func TestRadixSortCPUStructValuesAndDoubleBuffer(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(5, 6))
	const n = 5000
	keys := make([]uint16, n)
	vals := make([]payload, n)
	for i := range keys {
		keys[i] = uint16(r.IntN(300))
		vals[i] = payload{A: int16(i), B: [3]float64{float64(i), 1, 2}, C: i%2 == 0}
	}
	for _, o := range []RadixOptions{{}, {BeginBit: 3, EndBit: 11}, {Descending: true}, {BeginBit: 4, EndBit: 4}} {
		wantK, wantIdx := oracleSort(keys, o)
		kb := NewDoubleBuffer(must(FromHost(d, keys)), must(Alloc[uint16](d, n)))
		vb := NewDoubleBuffer(must(FromHost(d, vals)), must(Alloc[payload](d, n)))
		require.NoError(t, RadixSortPairs[uint16, payload]().RunDoubleBuffer(nil, kb, vb, o))
		end := o.EndBit
		if end == 0 {
			end = 16
		}
		require.Equal(t, radixPasses(o.BeginBit, end)%2, kb.Selector, "%+v", o)
		require.Equal(t, kb.Selector, vb.Selector)
		gotK, _ := kb.Current().ToHost()
		gotV, _ := vb.Current().ToHost()
		require.Equal(t, wantK, gotK, "%+v", o)
		for i, v := range gotV {
			require.Equal(t, vals[wantIdx[i]], v, "%+v: value %d", o, i)
		}

		// In place: the same slice as input and output.
		ks, vs := must(FromHost(d, keys)), must(FromHost(d, vals))
		require.NoError(t, RadixSortPairs[uint16, payload]().Run(nil, ks, ks, vs, vs, o))
		gotK, _ = ks.ToHost()
		require.Equal(t, wantK, gotK)

		kb2 := NewDoubleBuffer(must(FromHost(d, keys)), must(Alloc[uint16](d, n)))
		require.NoError(t, RadixSortKeys[uint16]().RunDoubleBuffer(nil, kb2, o))
		gotK, _ = kb2.Current().ToHost()
		require.Equal(t, wantK, gotK)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestRadixSortErrors(t *testing.T) {
	d := cpuDevice(t)
	op := RadixSortKeys[uint8]()
	a, _ := Alloc[uint8](d, 10)
	b, _ := Alloc[uint8](d, 9)
	c, _ := Alloc[uint8](d, 10)
	require.ErrorContains(t, op.Run(nil, a, b, RadixOptions{}), "input has 10 elements, output 9")
	require.ErrorContains(t, op.Run(nil, a, c, RadixOptions{BeginBit: 3, EndBit: 9}), "not within the 8 bits")
	require.ErrorContains(t, op.Run(nil, a, c, RadixOptions{BeginBit: -1}), "not within")
	require.ErrorContains(t, op.Run(nil, a.Range(0, 5), a.Range(3, 8), RadixOptions{}), "overlap")
	require.ErrorContains(t, op.RunDoubleBuffer(nil, NewDoubleBuffer(a, b), RadixOptions{}), "10 and 9 elements")
	require.ErrorContains(t, op.RunDoubleBuffer(nil, nil, RadixOptions{}), "nil DoubleBuffer")
	p := RadixSortPairs[uint8, int32]()
	v, _ := Alloc[int32](d, 9)
	w, _ := Alloc[int32](d, 9)
	require.ErrorContains(t, p.Run(nil, a, c, v, w, RadixOptions{}), "10 keys and 9 values")
	n, err := op.TempStorageBytes(d, 1000, RadixOptions{})
	require.NoError(t, err)
	require.Zero(t, n)
	_, err = op.TempStorageBytes(d, -1, RadixOptions{})
	require.ErrorContains(t, err, "negative")
	c.Free()
	require.ErrorIs(t, op.Run(nil, a, c, RadixOptions{}), ErrFreed)
}
