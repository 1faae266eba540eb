package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// The N×M transforms' tests: every arity over the same four input columns
// (int32, float32, uint16, float64) and three result columns (float64,
// int32, uint8), each arity's operator nmAll with the inputs it lacks fixed.

// nmAll is the operator every arity's is a part of: its results depend on
// every input.
func nmAll(a int32, b float32, c uint16, d float64) (float64, int32, uint8) {
	return float64(a)*0.5 + float64(b) - d*float64(c), a ^ int32(c)<<3 + int32(b), uint8(a) + uint8(c)*3
}

// The inputs an arity lacks.
const (
	nmB float32 = 0.75
	nmC uint16  = 7
	nmD float64 = -2.25
)

func nm3x1(a int32, b float32, c uint16) float64 { r, _, _ := nmAll(a, b, c, nmD); return r }
func nm4x1(a int32, b float32, c uint16, d float64) float64 {
	r, _, _ := nmAll(a, b, c, d)
	return r
}
func nm1x2(a int32) (float64, int32) { r1, r2, _ := nmAll(a, nmB, nmC, nmD); return r1, r2 }
func nm2x2(a int32, b float32) (float64, int32) {
	r1, r2, _ := nmAll(a, b, nmC, nmD)
	return r1, r2
}
func nm3x2(a int32, b float32, c uint16) (float64, int32) {
	r1, r2, _ := nmAll(a, b, c, nmD)
	return r1, r2
}
func nm4x2(a int32, b float32, c uint16, d float64) (float64, int32) {
	r1, r2, _ := nmAll(a, b, c, d)
	return r1, r2
}
func nm1x3(a int32) (float64, int32, uint8) { return nmAll(a, nmB, nmC, nmD) }
func nm2x3(a int32, b float32) (float64, int32, uint8) {
	return nmAll(a, b, nmC, nmD)
}
func nm3x3(a int32, b float32, c uint16) (float64, int32, uint8) {
	return nmAll(a, b, c, nmD)
}
func nm4x3(a int32, b float32, c uint16, d float64) (float64, int32, uint8) {
	return nmAll(a, b, c, d)
}

// nmCols are the columns of one call: inputs a…d, outputs o1…o3.
type nmCols struct {
	a  *Slice[int32]
	b  *Slice[float32]
	c  *Slice[uint16]
	d  *Slice[float64]
	o1 *Slice[float64]
	o2 *Slice[int32]
	o3 *Slice[uint8]
}

// nmArities runs each arity over the columns it uses.
var nmArities = []struct {
	n, m int
	run  func(x nmCols) error
}{
	{3, 1, func(x nmCols) error { return Transform3(nm3x1).Run(nil, x.a, x.b, x.c, x.o1) }},
	{4, 1, func(x nmCols) error { return Transform4(nm4x1).Run(nil, x.a, x.b, x.c, x.d, x.o1) }},
	{1, 2, func(x nmCols) error { return Transform1x2(nm1x2).Run(nil, x.a, x.o1, x.o2) }},
	{2, 2, func(x nmCols) error { return Transform2x2(nm2x2).Run(nil, x.a, x.b, x.o1, x.o2) }},
	{3, 2, func(x nmCols) error { return Transform3x2(nm3x2).Run(nil, x.a, x.b, x.c, x.o1, x.o2) }},
	{4, 2, func(x nmCols) error { return Transform4x2(nm4x2).Run(nil, x.a, x.b, x.c, x.d, x.o1, x.o2) }},
	{1, 3, func(x nmCols) error { return Transform1x3(nm1x3).Run(nil, x.a, x.o1, x.o2, x.o3) }},
	{2, 3, func(x nmCols) error { return Transform2x3(nm2x3).Run(nil, x.a, x.b, x.o1, x.o2, x.o3) }},
	{3, 3, func(x nmCols) error { return Transform3x3(nm3x3).Run(nil, x.a, x.b, x.c, x.o1, x.o2, x.o3) }},
	{4, 3, func(x nmCols) error { return Transform4x3(nm4x3).Run(nil, x.a, x.b, x.c, x.d, x.o1, x.o2, x.o3) }},
}

// nonZero returns n random values of T, none of them zero.
func nonZero[T int32 | uint16 | float32 | float64](r *rand.Rand, n int) []T {
	xs := make([]T, n)
	for i := range xs {
		for xs[i] == 0 {
			switch any(xs[i]).(type) {
			case float32, float64:
				xs[i] = T(r.Float64()*2000 - 1000)
			default:
				xs[i] = T(r.Uint32())
			}
		}
	}
	return xs
}

// bytesOf is xs's memory, to compare floats bit for bit.
func bytesOf[T any](xs []T) []byte {
	if len(xs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*int(unsafe.Sizeof(xs[0])))
}

// middle uploads n+2 poisoned elements and returns them and the middle n.
func middle[T any](t *testing.T, d *Device, n int) (all, mid *Slice[T]) {
	all = upload(t, d, poisoned[T](n+2))
	return all, all.Range(1, n+1)
}

// expect is n+2 poisoned elements with want in the middle.
func expect[T any](want []T) []T {
	exp := poisoned[T](len(want) + 2)
	copy(exp[1:], want)
	return exp
}

func TestTransformNMCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 37))
	for _, n := range fillSizes {
		a, b, c, dd := nonZero[int32](r, n), nonZero[float32](r, n), nonZero[uint16](r, n), nonZero[float64](r, n)
		for _, ar := range nmArities {
			name := fmt.Sprintf("Transform%dx%d n=%d", ar.n, ar.m, n)
			// The oracle: a sequential loop of nmAll, with the inputs the
			// arity lacks fixed.
			w1, w2, w3 := make([]float64, n), make([]int32, n), make([]uint8, n)
			for i := range n {
				bi, ci, di := nmB, nmC, nmD
				if ar.n > 1 {
					bi = b[i]
				}
				if ar.n > 2 {
					ci = c[i]
				}
				if ar.n > 3 {
					di = dd[i]
				}
				w1[i], w2[i], w3[i] = nmAll(a[i], bi, ci, di)
			}
			all1, o1 := middle[float64](t, d, n)
			all2, o2 := middle[int32](t, d, n)
			all3, o3 := middle[uint8](t, d, n)
			x := nmCols{a: upload(t, d, a), b: upload(t, d, b), c: upload(t, d, c), d: upload(t, d, dd), o1: o1, o2: o2, o3: o3}
			require.NoError(t, ar.run(x), name)
			require.Equal(t, bytesOf(expect(w1)), bytesOf(download(t, all1)), "%s: output 1", name)
			if ar.m > 1 {
				require.Equal(t, expect(w2), download(t, all2), "%s: output 2", name)
			} else {
				require.Equal(t, poisoned[int32](n+2), download(t, all2), "%s: output 2 untouched", name)
			}
			if ar.m > 2 {
				require.Equal(t, expect(w3), download(t, all3), "%s: output 3", name)
			} else {
				require.Equal(t, poisoned[uint8](n+2), download(t, all3), "%s: output 3 untouched", name)
			}
			require.Equal(t, a, download(t, x.a), "%s: input unchanged", name)
		}
	}
}

func nmDivMod(a, b int32) (int32, int32) { return a / b, a % b }

type nmScale struct {
	K   float32
	Cut int32
}

func (s nmScale) split(a int32, b float32) (float32, int32) { return float32(a) * s.K * b, a % s.Cut }
func (s nmScale) scale(x int32) float32                     { return float32(x) * s.K }
func (s nmScale) below(x int32) bool                        { return x < s.Cut }

// TestTransformNMInPlace: each output may be one of the inputs itself.
func TestTransformNMInPlace(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 38))
	for _, n := range []int{0, 1, 2049, 1_000_003} {
		a, b := nonZero[int32](r, n), nonZero[int32](r, n)
		q, m := make([]int32, n), make([]int32, n)
		for i := range n {
			q[i], m[i] = nmDivMod(a[i], b[i])
		}
		x, y := upload(t, d, a), upload(t, d, b)
		require.NoError(t, Transform2x2(nmDivMod).Run(nil, x, y, y, x), "n=%d", n)
		require.Equal(t, m, download(t, x), "n=%d remainders in a", n)
		require.Equal(t, q, download(t, y), "n=%d quotients in b", n)
	}
}

func TestTransformNMWithCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 39))
	split := Transform2x2With(nmScale.split)
	tif := TransformIfWith(nmScale.scale, nmScale.below)
	for _, n := range fillSizes {
		a, b := nonZero[int32](r, n), nonZero[float32](r, n)
		st := nmScale{K: 0.25, Cut: int32(r.Uint32()) | 1}
		w1, w2 := make([]float32, n), make([]int32, n)
		for i := range n {
			w1[i], w2[i] = st.split(a[i], b[i])
		}
		all1, o1 := middle[float32](t, d, n)
		all2, o2 := middle[int32](t, d, n)
		require.NoError(t, split.Bind(st).Run(nil, upload(t, d, a), upload(t, d, b), o1, o2), "n=%d", n)
		require.Equal(t, bytesOf(expect(w1)), bytesOf(download(t, all1)), "Transform2x2With n=%d", n)
		require.Equal(t, expect(w2), download(t, all2), "Transform2x2With n=%d", n)

		// TransformIfWith: only the selected elements are written.
		all, out := middle[float32](t, d, n)
		require.NoError(t, tif.Bind(st).Run(nil, upload(t, d, a), out), "TransformIfWith n=%d", n)
		want := poisoned[float32](n)
		for i, x := range a {
			if st.below(x) {
				want[i] = st.scale(x)
			}
		}
		require.Equal(t, bytesOf(expect(want)), bytesOf(download(t, all)), "TransformIfWith n=%d", n)
	}
	// An unbound stateful handle has no operator.
	var unbound *Stateful[nmScale, *TransformIfOp[int32, float32]]
	require.Nil(t, unbound.Bind(nmScale{}))
}

func TestTransformNMErrors(t *testing.T) {
	d := cpuDevice(t)
	xs := upload(t, d, []int32{1, 2, 3})
	fs := upload(t, d, []float32{1, 2, 3})
	ys := upload(t, d, []int32{4, 5, 6})
	o1 := upload(t, d, []float64{7, 8, 9})
	long := upload(t, d, []int32{1, 2, 3, 4, 5})
	freed := upload(t, d, []int32{1, 2, 3})
	require.NoError(t, freed.Free())
	op := Transform2x2(nmDivMod)
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"nil handle":        {(*Transform3x2Op[int32, float32, uint16, float64, int32])(nil).Run(nil, xs, fs, nil, o1, ys), "Transform3x2: nil operator"},
		"nil operator":      {Transform1x2[int32, float64, int32](nil).Run(nil, xs, o1, ys), "Transform1x2: nil operator"},
		"nil input":         {op.Run(nil, xs, nil, ys, xs), "second input: nil slice"},
		"freed input":       {op.Run(nil, freed, ys, xs, ys), "first input"},
		"nil output":        {op.Run(nil, xs, ys, nil, ys), "output 1: nil slice"},
		"input lengths":     {op.Run(nil, xs, long, xs, ys), "inputs of different lengths: 3, 5"},
		"output length":     {op.Run(nil, xs, ys, xs, long), "inputs have 3 elements, output 2 5"},
		"one length":        {Transform3(nm3x1).Run(nil, xs, fs, upload(t, d, []uint16{1}), o1), "inputs of different lengths: 3, 3, 1"},
		"outputs overlap":   {op.Run(nil, xs, ys, long.Range(0, 3), long.Range(2, 5)), "outputs 1 and 2 overlap"},
		"same output twice": {op.Run(nil, xs, ys, long.Range(0, 3), long.Range(0, 3)), "outputs 1 and 2 overlap"},
		"partial overlap":   {op.Run(nil, long.Range(0, 3), ys, long.Range(1, 4), o1Int(t, d)), "output 1 overlaps the first input partially"},
		"panic": {Transform1x2(func(int32) (float64, int32) { panic("boom") }).Run(nil, xs, o1, ys),
			"operator panicked on the CPU backend: boom"},
		"temp storage": {func() error { _, err := op.TempStorageBytes(d, -1); return err }(), "negative length -1"},
		"TransformIfWith unbound": {(&Stateful[nmScale, *TransformIfOp[int32, float32]]{}).Bind(nmScale{}).Run(nil, xs, fs),
			"TransformIf: nil operator"},
	} {
		require.Error(t, c.err, name)
		require.Contains(t, c.err.Error(), c.want, name)
	}
	require.Equal(t, []int32{1, 2, 3}, download(t, xs), "no call changed the data")
	require.Equal(t, []int32{4, 5, 6}, download(t, ys), "no call changed the data")
	require.Equal(t, []float64{7, 8, 9}, download(t, o1), "no call changed the data")
	require.Equal(t, []int32{1, 2, 3, 4, 5}, download(t, long), "no call changed the data")
	n, err := Transform4x3(nm4x3).TempStorageBytes(d, 1<<20)
	require.NoError(t, err)
	require.Zero(t, n)
}

// o1Int is a fresh int32 output of 3 elements.
func o1Int(t *testing.T, d *Device) *Slice[int32] { return upload(t, d, []int32{0, 0, 0}) }
