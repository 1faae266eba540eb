package difftest

// Inputs by reflection on the element type, the comparison of results field
// by field, and their formatting.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// valuesOf returns the edge values of T followed by n random values.
func valuesOf[T any](r *rand.Rand, n int) []T {
	t := reflect.TypeFor[T]()
	edges := edgeValues(t)
	out := make([]T, 0, len(edges)+n)
	for _, v := range edges {
		out = append(out, v.Interface().(T))
	}
	return append(out, randomsOf[T](r, n)...)
}

// randomsOf returns n random values of T.
func randomsOf[T any](r *rand.Rand, n int) []T {
	t := reflect.TypeFor[T]()
	out := make([]T, n)
	for i := range out {
		randomInto(reflect.ValueOf(&out[i]).Elem(), t, r)
	}
	return out
}

// pairsOf returns the cross product of the edge values of A and B, then n
// random pairs.
func pairsOf[A, B any](r *rand.Rand, n int) ([]A, []B) {
	ea, eb := edgeValues(reflect.TypeFor[A]()), edgeValues(reflect.TypeFor[B]())
	as := make([]A, 0, len(ea)*len(eb)+n)
	bs := make([]B, 0, len(ea)*len(eb)+n)
	for _, a := range ea {
		for _, b := range eb {
			as = append(as, a.Interface().(A))
			bs = append(bs, b.Interface().(B))
		}
	}
	return append(as, randomsOf[A](r, n)...), append(bs, randomsOf[B](r, n)...)
}

// maxCompositeEdges caps the edge values of a struct or an array type.
const maxCompositeEdges = 300

var edgeCache sync.Map // reflect.Type → []reflect.Value

// edgeValues returns the edge values of t: for integers 0, ±1, 0…130 and
// -1…-130 (shift counts up to twice the widest width, and negative ones),
// 2^k and 2^k±1 around every width, the limits of every type that fits;
// for floats ±0, ±1, the limits, the smallest and largest subnormals and
// the smallest normals (of float32 too), NaNs with and without payloads,
// ±Inf, halves that round to even, values around 2^k for the integer
// widths, and float32 rounding ties; for bools both; for structs and
// arrays, field by field (each field cycles through its own edge values,
// offset so that fields do not move in lockstep).
func edgeValues(t reflect.Type) []reflect.Value {
	if v, ok := edgeCache.Load(t); ok {
		return v.([]reflect.Value)
	}
	var out []reflect.Value
	add := func(set func(v reflect.Value)) {
		v := reflect.New(t).Elem()
		set(v)
		out = append(out, v)
	}
	switch t.Kind() {
	case reflect.Bool:
		add(func(v reflect.Value) { v.SetBool(false) })
		add(func(v reflect.Value) { v.SetBool(true) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		seen := map[int64]bool{}
		for _, x := range signedEdges() {
			if !seen[x] && !reflect.Zero(t).OverflowInt(x) {
				seen[x] = true
				add(func(v reflect.Value) { v.SetInt(x) })
			}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		seen := map[uint64]bool{}
		for _, x := range unsignedEdges() {
			if !seen[x] && !reflect.Zero(t).OverflowUint(x) {
				seen[x] = true
				add(func(v reflect.Value) { v.SetUint(x) })
			}
		}
	case reflect.Float64:
		seen := map[uint64]bool{}
		for _, x := range float64Edges() {
			if b := math.Float64bits(x); !seen[b] {
				seen[b] = true
				add(func(v reflect.Value) { v.SetFloat(x) })
			}
		}
	case reflect.Float32:
		seen := map[uint32]bool{}
		for _, x := range float32Edges() {
			if b := math.Float32bits(x); !seen[b] {
				seen[b] = true
				// SetFloat goes through float64, which keeps every float32
				// bit pattern except signalling NaNs: write the bits.
				add(func(v reflect.Value) { *(*float32)(v.Addr().UnsafePointer()) = x })
			}
		}
	case reflect.Array:
		elems := edgeValues(t.Elem())
		n := min(len(elems), maxCompositeEdges)
		for j := 0; j < n; j++ {
			add(func(v reflect.Value) {
				for i := 0; i < t.Len(); i++ {
					v.Index(i).Set(elems[(j+5*i)%len(elems)])
				}
			})
		}
	case reflect.Struct:
		fields := make([][]reflect.Value, t.NumField())
		n := 0
		for i := range fields {
			if !t.Field(i).IsExported() {
				continue // blank fields stay zero
			}
			fields[i] = edgeValues(t.Field(i).Type)
			n = max(n, len(fields[i]))
		}
		n = min(n, maxCompositeEdges)
		for j := 0; j < n; j++ {
			add(func(v reflect.Value) {
				for i, f := range fields {
					if f != nil {
						v.Field(i).Set(f[(j+7*i)%len(f)])
					}
				}
			})
		}
	default:
		panic("difftest: no edge values for " + t.String())
	}
	edgeCache.Store(t, out)
	return out
}

// widths are the exponents around which integer edge values are taken.
var widths = []uint{7, 8, 15, 16, 23, 24, 31, 32, 52, 53, 62, 63, 64}

func signedEdges() []int64 {
	xs := []int64{0, 1, -1, math.MinInt8, math.MaxInt8, math.MinInt16, math.MaxInt16,
		math.MinInt32, math.MaxInt32, math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1}
	for i := int64(0); i <= 130; i++ {
		xs = append(xs, i, -i)
	}
	for _, k := range widths {
		p := int64(uint64(1) << (k % 64)) // 2^64 wraps to 1: harmless
		xs = append(xs, p-1, p, p+1, -p-1, -p, -p+1)
	}
	return xs
}

func unsignedEdges() []uint64 {
	xs := []uint64{0, 1, math.MaxUint8, math.MaxUint16, math.MaxUint32, math.MaxUint64, math.MaxUint64 - 1,
		math.MaxInt64, math.MaxInt32, math.MaxInt16, math.MaxInt8}
	for i := uint64(0); i <= 130; i++ {
		xs = append(xs, i)
	}
	for _, k := range widths {
		var p uint64
		if k < 64 {
			p = 1 << k
		}
		xs = append(xs, p-1, p, p+1) // at 64: MaxUint64, 0, 1
	}
	return xs
}

func float64Edges() []float64 {
	pos := []float64{
		0, 1, 2, 3, 10, 0.1, 0.5, 1.5, 2.5, 3.5, 0.49999999999999994, 1 - 0x1p-53, 1 + 0x1p-52,
		math.Pi, math.E, 1e-300, 1e300, 1e-310,
		math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Float64frombits(0x000FFFFFFFFFFFFF), // largest subnormal
		math.Float64frombits(0x0010000000000000), // smallest normal
		math.Inf(1),
		math.MaxFloat32, math.Nextafter(math.MaxFloat32, math.Inf(1)),
		math.MaxFloat32 + 0x1p103, // halfway to the next float32 binade: rounds to +Inf
		0x1p128,
		math.SmallestNonzeroFloat32, 0x1p-150, 3 * 0x1p-151, 0x1p-126, 0x1p-126 - 0x1p-149,
		1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-52, 1 + 0x1p-23 + 0x1p-24, // float32 ties
		math.Nextafter(0x1p63, 0), math.Nextafter(0x1p64, 0),
		255.5, 256.5, 65535.5, 2147483647.5, 4294967295.5,
	}
	for _, k := range widths {
		p := math.Ldexp(1, int(k))
		pos = append(pos, p, p-1, p+1, p-0.5, p+0.5)
	}
	out := []float64{math.NaN(), math.Float64frombits(0xFFF8000000000000),
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0x7FF8000000000123),
		// NaNs of both kinds and signs whose payloads survive narrowing to
		// float32 (bits 29 and up), and the largest signalling payload.
		math.Float64frombits(0xFFF0000000012345), math.Float64frombits(0x7FF80000E0000000),
		math.Float64frombits(0xFFF4000020000000), math.Float64frombits(0x7FF7FFFFFFFFFFFF)}
	for _, x := range pos {
		out = append(out, x, -x)
	}
	return out
}

func float32Edges() []float32 {
	var out []float32
	for _, b := range []uint32{0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x7F800000, 0x3F800001, 0x3F7FFFFF} {
		out = append(out, math.Float32frombits(b), math.Float32frombits(b|0x80000000))
	}
	out = append(out, math.Float32frombits(0x7FC00000), math.Float32frombits(0xFFC00000),
		math.Float32frombits(0x7F800001), math.Float32frombits(0x7FC00123),
		math.Float32frombits(0xFF812345), math.Float32frombits(0x7FBFFFFF), math.Float32frombits(0xFFE00007))
	for _, x := range float64Edges() {
		if !math.IsNaN(x) {
			out = append(out, float32(x))
		}
	}
	return out
}

// randomInto sets v (of type t) to a random value: integers uniform over
// their bits, small, or near a power of two; floats with random bits,
// normally distributed at a random scale, integers and halves, or edge
// values moved by a few ulps; structs and arrays field by field.
func randomInto(v reflect.Value, t reflect.Type, r *rand.Rand) {
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w := uint(t.Bits())
		x := int64(randomBits(r, w)) << (64 - w) >> (64 - w) // sign-extended
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w := uint(t.Bits())
		v.SetUint(randomBits(r, w) << (64 - w) >> (64 - w))
	case reflect.Float64:
		v.SetFloat(randomFloat64(r))
	case reflect.Float32:
		*(*float32)(v.Addr().UnsafePointer()) = randomFloat32(r)
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			randomInto(v.Index(i), t.Elem(), r)
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() { // blank fields stay zero
				randomInto(v.Field(i), t.Field(i).Type, r)
			}
		}
	default:
		panic("difftest: no random values for " + t.String())
	}
}

// randomBits returns random low bits for an integer of width w.
func randomBits(r *rand.Rand, w uint) uint64 {
	switch r.IntN(4) {
	case 0, 1:
		return r.Uint64()
	case 2:
		return uint64(r.IntN(2*130+1) - 130)
	default:
		k := uint(r.IntN(int(w)))
		x := uint64(1)<<k + uint64(r.IntN(5)-2)
		if r.IntN(2) == 0 {
			x = -x
		}
		return x
	}
}

func randomFloat64(r *rand.Rand) float64 {
	switch n := r.IntN(21); {
	case n == 20: // a NaN with a random payload, sign and kind
		return math.Float64frombits(0x7FF0000000000000 | r.Uint64()&0x800FFFFFFFFFFFFF | 1)
	case n < 8:
		return math.Float64frombits(r.Uint64())
	case n < 14:
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(21)-10))
	case n < 17:
		return float64(r.IntN(4001)-2000) / 2
	default:
		e := float64Edges()
		x := e[r.IntN(len(e))]
		for range r.IntN(4) {
			x = math.Nextafter(x, math.Inf(2*r.IntN(2)-1))
		}
		return x
	}
}

func randomFloat32(r *rand.Rand) float32 {
	switch n := r.IntN(21); {
	case n == 20: // a NaN with a random payload, sign and kind
		return math.Float32frombits(0x7F800000 | r.Uint32()&0x807FFFFF | 1)
	case n < 8:
		return math.Float32frombits(r.Uint32())
	case n < 14:
		return float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(21)-10)))
	case n < 17:
		return float32(r.IntN(4001)-2000) / 2
	default:
		e := float32Edges()
		x := e[r.IntN(len(e))]
		for range r.IntN(4) {
			x = math.Nextafter32(x, float32(math.Inf(2*r.IntN(2)-1)))
		}
		return x
	}
}

// classMismatch is the distance reported when a NaN or an infinity meets a
// different value under an ulp bound.
const classMismatch = math.MaxUint64

// equalValues compares want and got field by field: integers and bools
// exactly; floats bit for bit, NaNs too (payload, sign and kind), or, when
// bound is not 0, within bound ulps (NaNs must still have the same bits,
// infinities match, and +0 and -0 are 0 ulps apart). d is the largest distance in ulps over the
// float fields.
func equalValues(want, got any, bound uint64) (ok bool, d uint64) {
	return equalValue(reflect.ValueOf(want), reflect.ValueOf(got), bound, false)
}

// payloadOnly reports whether want and got differ only in the bits of NaNs:
// equal when any NaN equals any NaN.
func payloadOnly(want, got any, bound uint64) bool {
	ok, _ := equalValue(reflect.ValueOf(want), reflect.ValueOf(got), bound, true)
	return ok
}

func equalValue(w, g reflect.Value, bound uint64, nanClass bool) (bool, uint64) {
	switch w.Kind() {
	case reflect.Bool:
		return w.Bool() == g.Bool(), 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return w.Int() == g.Int(), 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return w.Uint() == g.Uint(), 0
	case reflect.Float32:
		// Read the bits: a signalling NaN would not survive v.Float().
		return equalFloat(float64(w.Float()), float64(g.Float()), float32Bits(w) == float32Bits(g), ulp32, bound, nanClass)
	case reflect.Float64:
		return equalFloat(w.Float(), g.Float(), math.Float64bits(w.Float()) == math.Float64bits(g.Float()), ulp64, bound, nanClass)
	case reflect.Array:
		ok, d := true, uint64(0)
		for i := 0; i < w.Len(); i++ {
			o, di := equalValue(w.Index(i), g.Index(i), bound, nanClass)
			ok, d = ok && o, max(d, di)
		}
		return ok, d
	case reflect.Struct:
		ok, d := true, uint64(0)
		for i := 0; i < w.NumField(); i++ {
			if !w.Type().Field(i).IsExported() {
				continue // blank fields are padding
			}
			o, di := equalValue(w.Field(i), g.Field(i), bound, nanClass)
			ok, d = ok && o, max(d, di)
		}
		return ok, d
	}
	panic("difftest: cannot compare " + w.Type().String())
}

// equalFloat compares two floats of one width, given as float64s (exact
// for float32) with sameBits saying whether their bits at their own width
// are equal; with nanClass any NaN equals any NaN.
func equalFloat(w, g float64, sameBits bool, dist func(a, b float64) uint64, bound uint64, nanClass bool) (bool, uint64) {
	wn, gn := math.IsNaN(w), math.IsNaN(g)
	switch {
	case sameBits, nanClass && wn && gn:
		return true, 0
	case wn || gn:
		return false, classMismatch // NaNs with other bits, or a NaN and a number
	case bound > 0 && (math.IsInf(w, 0) || math.IsInf(g, 0)):
		return false, classMismatch
	}
	d := dist(w, g)
	return bound > 0 && d <= bound, d
}

// float32Bits returns the bits of a float32 value (or a named type over
// float32) without converting it to float64.
func float32Bits(v reflect.Value) uint32 {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return math.Float32bits(*(*float32)(c.Addr().UnsafePointer()))
}

func ulp64(a, b float64) uint64 {
	oa, ob := ordered(math.Float64bits(a)), ordered(math.Float64bits(b))
	if oa < ob {
		oa, ob = ob, oa
	}
	return uint64(oa) - uint64(ob)
}

func ulp32(a, b float64) uint64 {
	oa := ordered(uint64(math.Float32bits(float32(a))) << 32)
	ob := ordered(uint64(math.Float32bits(float32(b))) << 32)
	if oa < ob {
		oa, ob = ob, oa
	}
	return (uint64(oa) - uint64(ob)) >> 32
}

// ordered maps the bits of a float64 to an integer that orders like the
// float, with -0 and +0 both 0 and neighbouring floats 1 apart.
func ordered(bits uint64) int64 {
	if int64(bits) < 0 {
		return math.MinInt64 - int64(bits)
	}
	return int64(bits)
}

// format writes a value with its bits in hex: numbers as "value (0xbits)",
// structs as {Field: …}, arrays as […].
func format(x any) string {
	var b strings.Builder
	formatValue(&b, reflect.ValueOf(x))
	return b.String()
}

func formatValue(b *strings.Builder, v reflect.Value) {
	t := v.Type()
	switch t.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w := t.Bits()
		fmt.Fprintf(b, "%d (0x%0*x)", v.Int(), w/4, uint64(v.Int())<<(64-w)>>(64-w))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprintf(b, "%d (0x%0*x)", v.Uint(), t.Bits()/4, v.Uint())
	case reflect.Float32:
		c := reflect.New(t).Elem() // read the bits: a signalling NaN would not survive v.Float()
		c.Set(v)
		f := *(*float32)(c.Addr().UnsafePointer())
		fmt.Fprintf(b, "%s (0x%08x)", strconv.FormatFloat(float64(f), 'g', -1, 32), math.Float32bits(f))
	case reflect.Float64:
		fmt.Fprintf(b, "%s (0x%016x)", strconv.FormatFloat(v.Float(), 'g', -1, 64), math.Float64bits(v.Float()))
	case reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, v.Index(i))
		}
		b.WriteByte(']')
	case reflect.Struct:
		b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.Field(i).Name)
			if !t.Field(i).IsExported() {
				continue
			}
			b.WriteString(": ")
			formatValue(b, v.Field(i))
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}
