package segtopk

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

// margin is how many poisoned elements follow the segments*k an output must
// hold: a segmented top-k writes out[:segments*k] only.
const margin = 3

// number and entry are devcheck's key types: an entry is a key's
// ordered bits (devcheck.OrderedBits) and its position in the whole input.
type (
	number = devcheck.Number
	entry  = devcheck.Entry
)

// layout is a segmentation of an input of n keys.
type layout struct {
	name       string
	n          int
	begin, end []int64
}

func (l layout) segments() int { return len(l.begin) }

// maxLen is the longest segment's length.
func (l layout) maxLen() int {
	m := 0
	for s := range l.begin {
		m = max(m, int(l.end[s]-l.begin[s]))
	}
	return m
}

// shuffle permutes the segments (begin and end together).
func (l *layout) shuffle(r *rand.Rand) {
	r.Shuffle(len(l.begin), func(i, j int) {
		l.begin[i], l.begin[j] = l.begin[j], l.begin[i]
		l.end[i], l.end[j] = l.end[j], l.end[i]
	})
}

// small is segs segments of random lengths in [0, maxLen] (an eighth of
// them at the edges: empty, one key, around a warp, maxLen), with gaps of
// up to two keys between them, then three overlapping segments, all in a
// random order: a warp per segment on a GPU.
func small(r *rand.Rand, name string, segs, maxLen int) layout {
	l := layout{name: name}
	edges := []int{0, 1, 31, 32, 33, maxLen}
	at := int64(0)
	for range segs {
		at += int64(r.IntN(3))
		m := r.IntN(maxLen + 1)
		if r.IntN(8) == 0 {
			m = min(edges[r.IntN(len(edges))], maxLen)
		}
		l.begin, l.end = append(l.begin, at), append(l.end, at+int64(m))
		at += int64(m)
	}
	n := at + 5
	for _, b := range []int64{0, n / 3, n - int64(maxLen)} {
		b = max(b, 0)
		l.begin, l.end = append(l.begin, b), append(l.end, min(b+int64(maxLen), n))
	}
	l.n = int(n)
	l.shuffle(r)
	return l
}

// large is a few long segments of the given lengths, one empty segment
// among them, back to back with gaps, in reverse order: a block per
// segment on a GPU.
func large(name string, lens []int) layout {
	l := layout{name: name}
	at := int64(0)
	for i, m := range lens {
		at += 7
		l.begin, l.end = append(l.begin, at), append(l.end, at+int64(m))
		at += int64(m)
		if i == len(lens)/2 {
			l.begin, l.end = append(l.begin, at), append(l.end, at)
		}
	}
	l.n = int(at) + 3
	slices.Reverse(l.begin)
	slices.Reverse(l.end)
	return l
}

// uniform is segs back-to-back segments of size keys each.
func uniform(name string, segs, size int) layout {
	l := layout{name: name, n: segs * size}
	for s := range segs {
		l.begin, l.end = append(l.begin, int64(s*size)), append(l.end, int64((s+1)*size))
	}
	return l
}

// layouts are the segmentations checked: no segments, empty segments
// only, many small ones (a warp each), medium ones (around the warp and
// block kernels' boundary), a few large ones and uniform ones (the bench
// shape on a GPU). The GPU's are larger.
func layouts(r *rand.Rand, gpu bool) []layout {
	ls := []layout{
		{name: "none", n: 5},
		{name: "empty", n: 4, begin: []int64{0, 4, 2}, end: []int64{0, 4, 2}},
		small(r, "small", 1500, 70),
	}
	if gpu {
		ls = append(ls,
			small(r, "small-many", 1<<15, 70),
			small(r, "medium", 3000, 3000),
			large("large", []int{4095, 4096, 4097, 7919, 100_003, 1_000_003, 1 << 22}),
			uniform("uniform", 1<<16, 1024))
	} else {
		ls = append(ls,
			small(r, "medium", 100, 3000),
			large("large", []int{4095, 4097, 7919, 100_003}),
			uniform("uniform", 256, 1024))
	}
	return ls
}

// ks are the k checked over l: 0, 1 up to the longest segment and one
// past it; a few on the larger layouts. Sorted selections take k <=
// runtime.SegmentedTopKSortedMax.
func ks(l layout, gpu bool) []int {
	m := l.maxLen()
	cand := []int{0, 1, 2, 7, 16, 32, 33, 256, 1024, m / 2, m, m + 1}
	switch {
	case l.name == "uniform":
		cand = []int{1, 16, 1024, 1025}
	case l.name == "large" && !gpu:
		cand = []int{0, 1, 16, 1024, 5000, m}
	case l.name == "large":
		cand = []int{1, 16, 1024, 4097, 100_003, m}
	}
	var out []int
	for _, k := range cand {
		if k <= m+1 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// oracle returns each segment's entries, best first: a stable sort by
// ordered bits. The first k of each are its top k.
func oracle[K number](keys []K, l layout, largest bool) [][]entry {
	out := make([][]entry, l.segments())
	for s := range out {
		b, e := int(l.begin[s]), int(l.end[s])
		es := make([]entry, e-b)
		for i := range es {
			es[i] = entry{Bits: devcheck.OrderedBits(keys[b+i], largest), Pos: b + i}
		}
		slices.SortFunc(es, devcheck.CmpEntry)
		out[s] = es
	}
	return out
}

// result is what one Run wrote: segments*k keys, and the positions the
// values carried (nil for keys only); written marks the places where the
// keys or values are no longer poison (a written key may equal the poison:
// only places that must stay poison are checked with it).
type result[K number] struct {
	keys    []K
	pos     []int
	written []bool
}

// runner uploads one instance's inputs to d and returns a function that
// runs it over l's offsets.
type runner[K number] func(t *testing.T, d *runtime.Device, keys []K, l layout) func(k int, o runtime.TopKOptions) result[K]

// poisonedOut allocates an output of m + margin poisoned elements.
func poisonedOut[T any](t *testing.T, d *runtime.Device, m int) *runtime.Slice[T] {
	return devcheck.Upload(t, d, devcheck.Poison[T](m+margin))
}

// download returns out[:m] after checking that its margin is still
// poison, and which of out[:m] are not.
func download[T any](t *testing.T, out *runtime.Slice[T], m int, what string) ([]T, []bool) {
	got := devcheck.Download(t, out)
	devcheck.RequireBitEqual(t, devcheck.Poison[T](margin), got[m:], what+": past segments*k")
	p := devcheck.Poison[T](1)
	size := int(unsafe.Sizeof(p[0]))
	pb := unsafe.Slice((*byte)(unsafe.Pointer(&p[0])), size)
	written := make([]bool, m)
	for i := range written {
		gb := unsafe.Slice((*byte)(unsafe.Pointer(&got[i])), size)
		written[i] = string(gb) != string(pb)
	}
	return got[:m], written
}

// either marks the places where keys or values were written.
func either(a, b []bool) []bool {
	for i := range a {
		a[i] = a[i] || b[i]
	}
	return a
}

func offsets(t *testing.T, d *runtime.Device, l layout) (*runtime.Slice[int64], *runtime.Slice[int64]) {
	return devcheck.Upload(t, d, l.begin), devcheck.Upload(t, d, l.end)
}

func keysRunner[K number](op *runtime.SegmentedTopKKeysOp[K]) runner[K] {
	return func(t *testing.T, d *runtime.Device, keys []K, l layout) func(k int, o runtime.TopKOptions) result[K] {
		in := devcheck.Upload(t, d, keys)
		b, e := offsets(t, d, l)
		return func(k int, o runtime.TopKOptions) result[K] {
			m := l.segments() * k
			out := poisonedOut[K](t, d, m)
			require.NoError(t, op.Run(nil, in, out, b, e, k, o))
			var r result[K]
			r.keys, r.written = download(t, out, m, "keys")
			return r
		}
	}
}

// positionsRunner carries the positions as int64 values.
func positionsRunner[K number](op *runtime.SegmentedTopKPairsOp[K, int64]) runner[K] {
	return func(t *testing.T, d *runtime.Device, keys []K, l layout) func(k int, o runtime.TopKOptions) result[K] {
		vs := make([]int64, len(keys))
		for i := range vs {
			vs[i] = int64(i)
		}
		in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, vs)
		b, e := offsets(t, d, l)
		return func(k int, o runtime.TopKOptions) result[K] {
			m := l.segments() * k
			kout, vout := poisonedOut[K](t, d, m), poisonedOut[int64](t, d, m)
			require.NoError(t, op.Run(nil, in, kout, vin, vout, b, e, k, o))
			var r result[K]
			r.keys, r.written = download(t, kout, m, "keys")
			gv, vw := download(t, vout, m, "values")
			r.written = either(r.written, vw)
			r.pos = make([]int, m)
			for i, v := range gv {
				r.pos[i] = int(v)
			}
			return r
		}
	}
}

// payloadRunner carries the positions in a struct with a check tag.
func payloadRunner(op *runtime.SegmentedTopKPairsOp[uint64, Payload]) runner[uint64] {
	tag := func(i int64) uint16 { return uint16(i*7 + 1) }
	return func(t *testing.T, d *runtime.Device, keys []uint64, l layout) func(k int, o runtime.TopKOptions) result[uint64] {
		vs := make([]Payload, len(keys))
		for i := range vs {
			vs[i] = Payload{Pos: int64(i), Tag: tag(int64(i))}
		}
		in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, vs)
		b, e := offsets(t, d, l)
		return func(k int, o runtime.TopKOptions) result[uint64] {
			m := l.segments() * k
			kout, vout := poisonedOut[uint64](t, d, m), poisonedOut[Payload](t, d, m)
			require.NoError(t, op.Run(nil, in, kout, vin, vout, b, e, k, o))
			var r result[uint64]
			r.keys, r.written = download(t, kout, m, "keys")
			gv, vw := download(t, vout, m, "values")
			r.written = either(r.written, vw)
			r.pos = make([]int, m)
			for i, v := range gv {
				if !vw[i] {
					continue
				}
				if v.Tag != tag(v.Pos) {
					t.Fatalf("value %d: tag %d, want %d for position %d", i, v.Tag, tag(v.Pos), v.Pos)
				}
				r.pos[i] = int(v.Pos)
			}
			return r
		}
	}
}

// checkLayout checks one instance on d over keys segmented by l against
// the oracle, for every k of ks, smallest and largest, sorted (k <=
// runtime.SegmentedTopKSortedMax) and not.
func checkLayout[K number](t *testing.T, d *runtime.Device, run runner[K], keys []K, l layout, gpu bool) {
	runK := run(t, d, keys, l)
	for _, largest := range []bool{false, true} {
		want := oracle(keys, l, largest)
		for _, k := range ks(l, gpu) {
			for _, sorted := range []bool{false, true} {
				if sorted && k > runtime.SegmentedTopKSortedMax {
					continue
				}
				o := runtime.TopKOptions{Largest: largest, Sorted: sorted}
				what := fmt.Sprintf("%s k=%d largest=%v sorted=%v on %s", l.name, k, largest, sorted, d)
				got := runK(k, o)
				compare(t, keys, l, want, got, k, largest, sorted, what)
			}
		}
	}
}

// compare checks every segment's k places: the first min(k, length) hold
// the oracle's first entries (in order when sorted, else as sets), the
// rest are still poison. Keys compare by their ordered bits, so NaN
// payloads and -0 count; values must be the positions of the keys they
// came with.
func compare[K number](t *testing.T, keys []K, l layout, want [][]entry, got result[K], k int, largest, sorted bool, what string) {
	t.Helper()
	for s := range l.segments() {
		w := want[s][:min(k, len(want[s]))]
		c := len(w)
		at := s * k
		for i := c; i < k; i++ {
			if got.written[at+i] {
				t.Fatalf("%s: segment %d of %d keys: place %d of its k was written", what, s, len(want[s]), i)
			}
		}
		es := make([]entry, c)
		for i := range es {
			es[i].Bits = devcheck.OrderedBits(got.keys[at+i], largest)
			if got.pos != nil {
				p := got.pos[at+i]
				if p < int(l.begin[s]) || p >= int(l.end[s]) {
					t.Fatalf("%s: segment %d [%d, %d): value %d is position %d, outside the segment", what, s, l.begin[s], l.end[s], i, p)
				}
				if b := devcheck.OrderedBits(keys[p], largest); b != es[i].Bits {
					t.Fatalf("%s: segment %d: key %d (bits %#x) is not the key at its value's position %d (bits %#x)", what, s, i, es[i].Bits, p, b)
				}
				es[i].Pos = p
			}
		}
		if !sorted {
			slices.SortFunc(es, devcheck.CmpEntry)
		}
		for i, e := range w {
			if got.pos == nil {
				e.Pos = 0 // keys only: equal keys are indistinguishable
			}
			if es[i] != e {
				t.Fatalf("%s: segment %d [%d, %d): result %d of %d is (bits %#x, position %d), want (bits %#x, position %d)",
					what, s, l.begin[s], l.end[s], i, c, es[i].Bits, es[i].Pos, e.Bits, e.Pos)
			}
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

// check runs every instance over l on d; the large layouts keep to a few
// instances (uint32, float32 and both float pairs).
func check(t *testing.T, r *rand.Rand, d *runtime.Device, l layout, gpu bool) {
	all := l.name != "large" && l.name != "uniform" || gpu && l.n <= 1<<20
	sub := func(name string, wide bool, f func(t *testing.T)) {
		if wide && !all {
			return
		}
		t.Run(name, f)
	}
	n := l.n
	sub("int8", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysInt8), gen[int8](r, n), l, gpu) })
	sub("int16", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysInt16), gen[int16](r, n), l, gpu) })
	sub("int32", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysInt32), gen[int32](r, n), l, gpu) })
	sub("int64", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysInt64), gen[int64](r, n), l, gpu) })
	sub("uint8", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysUint8), gen[uint8](r, n), l, gpu) })
	sub("uint16", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysUint16), gen[uint16](r, n), l, gpu) })
	sub("uint32", false, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysUint32), gen[uint32](r, n), l, gpu) })
	sub("uint64", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysUint64), gen[uint64](r, n), l, gpu) })
	sub("float32", false, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysFloat32), gen[float32](r, n), l, gpu) })
	sub("float64", true, func(t *testing.T) { checkLayout(t, d, keysRunner(KeysFloat64), gen[float64](r, n), l, gpu) })
	sub("pairs/float32", false, func(t *testing.T) { checkLayout(t, d, positionsRunner(PairsFloat32), gen[float32](r, n), l, gpu) })
	sub("pairs/int16", true, func(t *testing.T) { checkLayout(t, d, positionsRunner(PairsInt16), gen[int16](r, n), l, gpu) })
	sub("pairs/uint64", true, func(t *testing.T) { checkLayout(t, d, payloadRunner(PairsUint64), gen[uint64](r, n), l, gpu) })
	// Every key equal: the selection is decided by positions alone.
	sub("pairs/equal", false, func(t *testing.T) {
		keys := make([]float32, n)
		for i := range keys {
			keys[i] = 5
		}
		checkLayout(t, d, positionsRunner(PairsFloat32), keys, l, gpu)
	})
}

// TestGPUMatchesCPU checks the GPU against the oracle, which follows the
// CPU backend's order (TestCPUBackend checks the CPU backend against it).
func TestGPUMatchesCPU(t *testing.T) {
	gpu := devcheck.OpenGPU(t)
	t.Logf("device: %s", gpu)
	r := devcheck.Rand(t)
	for _, l := range layouts(r, true) {
		if testing.Short() && l.n > 1<<20 {
			continue
		}
		t.Run(l.name, func(t *testing.T) { check(t, r, gpu, l, true) })
	}
}

// TestCPUBackend checks the CPU backend against the oracle; it runs
// everywhere (the small layouts alone with -short).
func TestCPUBackend(t *testing.T) {
	cpu := devcheck.OpenCPU(t)
	r := devcheck.Rand(t)
	for _, l := range layouts(r, false) {
		if testing.Short() && l.n > 10_000 {
			continue
		}
		t.Run(l.name, func(t *testing.T) { check(t, r, cpu, l, false) })
	}
}

// TestCPUOrder pins the order of floats and the tie rule within segments.
func TestCPUOrder(t *testing.T) {
	d := devcheck.OpenCPU(t)
	negNaN := float32(math.Float32frombits(0xffc00000))
	// Segment 0: −NaN, −Inf, −0, +0, 1, 1, +Inf, NaN in a shuffled order;
	// segment 1 (overlapping it): the last five keys.
	keys := []float32{1, float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(-1)), negNaN, 1, float32(math.Inf(1))}
	pos := make([]int64, len(keys))
	for i := range pos {
		pos[i] = int64(i)
	}
	in, vin := devcheck.Upload(t, d, keys), devcheck.Upload(t, d, pos)
	b, e := devcheck.Upload(t, d, []int64{0, 3}), devcheck.Upload(t, d, []int64{8, 8})
	for _, c := range []struct {
		largest bool
		want    []int64
	}{
		{false, []int64{5, 4, 2, 3, 0, 6, 7, 1, 5, 4, 3, 6, 7, -1, -1, -1}}, // −NaN, −Inf, −0, +0, 1, 1, +Inf, NaN
		{true, []int64{1, 7, 0, 6, 3, 2, 4, 5, 7, 6, 3, 4, 5, -1, -1, -1}},  // ties: the lower position first
	} {
		kout := devcheck.Alloc[float32](t, d, 2*len(keys))
		vout := devcheck.Upload(t, d, []int64{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1})
		require.NoError(t, PairsFloat32.Run(nil, in, kout, vin, vout, b, e, len(keys), runtime.TopKOptions{Largest: c.largest, Sorted: true}))
		require.Equal(t, c.want, devcheck.Download(t, vout), "largest=%v", c.largest)
	}
}

// TestBadArguments requires misuse to be reported before anything is
// written.
func TestBadArguments(t *testing.T) {
	d := devcheck.OpenCPU(t)
	xs := devcheck.Upload(t, d, []int32{3, 1, 2, 5, 4, 9})
	out := devcheck.Upload(t, d, devcheck.Poison[int32](6))
	b, e := devcheck.Upload(t, d, []int64{0, 3}), devcheck.Upload(t, d, []int64{3, 6})
	o := runtime.TopKOptions{}
	untouched := func() {
		t.Helper()
		devcheck.RequireBitEqual(t, devcheck.Poison[int32](6), devcheck.Download(t, out), "output after an error")
	}
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, b, e, -1, o), "negative k")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, b, e, 4, o), "fewer than")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, b, devcheck.Upload(t, d, []int64{3}), 2, o), "end offsets")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, b, devcheck.Upload(t, d, []int64{3, 7}), 2, o), "segment 1")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, devcheck.Upload(t, d, []int64{0, 4}), devcheck.Upload(t, d, []int64{3, 3}), 2, o), "segment 1")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, out, devcheck.Upload(t, d, []int64{-1, 0}), e, 2, o), "segment 0")
	require.ErrorContains(t, KeysInt32.Run(nil, xs, xs, b, e, 2, o), "overlaps")
	untouched()
	big := devcheck.Alloc[int32](t, d, 2*(runtime.SegmentedTopKSortedMax+1))
	require.ErrorContains(t, KeysInt32.Run(nil, xs, big, b, e, runtime.SegmentedTopKSortedMax+1, runtime.TopKOptions{Sorted: true}), "SegmentedTopKSortedMax")
	require.NoError(t, KeysInt32.Run(nil, xs, big, b, e, runtime.SegmentedTopKSortedMax+1, o))
	require.NoError(t, KeysInt32.Run(nil, xs, out, b, e, 0, o))
	untouched()

	ks := devcheck.Upload(t, d, []float32{1, 2, 3})
	vs := devcheck.Upload(t, d, []int64{0, 1, 2})
	kout, vout := devcheck.Alloc[float32](t, d, 3), devcheck.Alloc[int64](t, d, 3)
	b1, e1 := devcheck.Upload(t, d, []int64{0}), devcheck.Upload(t, d, []int64{3})
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, devcheck.Upload(t, d, []int64{0, 1}), vout, b1, e1, 1, o), "values")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, vs, devcheck.Alloc[int64](t, d, 1), b1, e1, 2, o), "values output")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, kout, vs, vs, b1, e1, 2, o), "overlaps")
	require.ErrorContains(t, PairsFloat32.Run(nil, ks, ks, vs, vout, b1, e1, 2, o), "overlaps")

	freed := devcheck.Alloc[int32](t, d, 2)
	freed.Free()
	require.Error(t, KeysInt32.Run(nil, freed, out, b, e, 1, o))
	n, err := KeysInt32.TempStorageBytes(d, 10, 3, o)
	require.NoError(t, err)
	require.Zero(t, n, "no scratch")
	_, err = KeysInt32.TempStorageBytes(d, 10, -1, o)
	require.Error(t, err)
}
