package runtime

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// fillSizes are the lengths of the Fill, Generate and TransformIf tests:
// around the tiles of 4- and 1-byte items (2048, 8192), the CPU backend's
// chunk, primes and 10^6+3.
var fillSizes = []int{0, 1, 2, 2047, 2048, 2049, 8191, 8193, minChunk + 1, 7919, 1_000_003}

// poisoned returns n elements whose bytes are all 0xAB.
func poisoned[T any](n int) []T {
	xs := make([]T, n)
	if n > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), n*int(unsafe.Sizeof(xs[0])))
		for i := range b {
			b[i] = 0xAB
		}
	}
	return xs
}

type fillRec struct {
	A uint32
	B float32
	C int16
}

func genRec(i int64) fillRec {
	return fillRec{A: uint32(i * 2654435761), B: float32(i) * 0.5, C: int16(i)}
}
func genU8(i int64) uint8    { return uint8(i*7 + 3) }
func genF64(i int64) float64 { return float64(i)*0.25 - 3 }

type genScale struct{ K int64 }

func (g genScale) at(i int64) int64 { return g.K * i }

func TestFillCPU(t *testing.T) {
	d := cpuDevice(t)
	for _, n := range fillSizes {
		// Into the middle of a poisoned buffer: the ends stay poison.
		check := func(name string, run func(*Slice[fillRec]) error, want func(i int) fillRec) {
			t.Helper()
			buf := upload(t, d, poisoned[fillRec](n+2))
			require.NoError(t, run(buf.Range(1, n+1)), "%s n=%d", name, n)
			exp := poisoned[fillRec](n + 2)
			for i := range n {
				exp[i+1] = want(i)
			}
			require.Equal(t, exp, download(t, buf), "%s n=%d", name, n)
		}
		v := fillRec{A: 9, B: -1, C: 4}
		check("Fill", func(s *Slice[fillRec]) error { return Fill[fillRec]().Run(nil, s, v) }, func(int) fillRec { return v })
		check("Generate", func(s *Slice[fillRec]) error { return Generate(genRec).Run(nil, s) }, func(i int) fillRec { return genRec(int64(i)) })

		u8 := upload(t, d, poisoned[uint8](n))
		require.NoError(t, Fill[uint8]().Run(nil, u8, 0x5A))
		for i, x := range download(t, u8) {
			require.Equal(t, uint8(0x5A), x, "Fill[uint8] n=%d at %d", n, i)
		}
		require.NoError(t, Generate(genU8).Run(nil, u8))
		for i, x := range download(t, u8) {
			require.Equal(t, genU8(int64(i)), x, "Generate(genU8) n=%d at %d", n, i)
		}
		f64 := upload(t, d, poisoned[float64](n))
		require.NoError(t, Generate(genF64).Run(nil, f64))
		for i, x := range download(t, f64) {
			require.Equal(t, genF64(int64(i)), x, "Generate(genF64) n=%d at %d", n, i)
		}
		i64 := upload(t, d, poisoned[int64](n))
		require.NoError(t, GenerateWith(genScale.at).Bind(genScale{K: -3}).Run(nil, i64))
		for i, x := range download(t, i64) {
			require.Equal(t, int64(-3*i), x, "GenerateWith n=%d at %d", n, i)
		}
	}
}

func tiOdd(x int32) bool      { return x&1 != 0 }
func tiWiden(x int32) float64 { return float64(x) * 1.5 }
func tiNeg(x int32) int32     { return -x }

func TestTransformIfCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 37))
	for _, n := range fillSizes {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = int32(r.Uint32())
		}
		out := upload(t, d, poisoned[float64](n))
		require.NoError(t, TransformIf(tiWiden, tiOdd).Run(nil, upload(t, d, xs), out))
		want := poisoned[float64](n)
		for i, x := range xs {
			if tiOdd(x) {
				want[i] = tiWiden(x)
			}
		}
		got := download(t, out)
		for i := range want { // poison is a NaN: compare bits
			require.Equal(t, *(*uint64)(unsafe.Pointer(&want[i])), *(*uint64)(unsafe.Pointer(&got[i])), "n=%d at %d", n, i)
		}
		// In place.
		in := upload(t, d, xs)
		require.NoError(t, TransformIf(tiNeg, tiOdd).Run(nil, in, in))
		wantIn := make([]int32, n)
		for i, x := range xs {
			wantIn[i] = x
			if tiOdd(x) {
				wantIn[i] = -x
			}
		}
		require.Equal(t, wantIn, download(t, in), "in place n=%d", n)
	}
}

func TestBatchedCopyCPU(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 38))
	for _, k := range []int{0, 1, 2, 31, 33, 1000, 7919} {
		for _, maxLen := range []int{1, 17, 4096} {
			sizes := make([]int64, k)
			srcOff := make([]int64, k)
			dstOff := make([]int64, k)
			var srcLen, dstLen int64
			for i := range sizes {
				sizes[i] = int64(r.IntN(maxLen + 1))
				srcLen += int64(r.IntN(3))
				srcOff[i] = srcLen
				srcLen += sizes[i]
			}
			for _, i := range r.Perm(k) {
				dstLen += int64(r.IntN(3))
				dstOff[i] = dstLen
				dstLen += sizes[i]
			}
			src := make([]uint16, srcLen)
			for i := range src {
				src[i] = uint16(r.Uint32())
			}
			want := poisoned[uint16](int(dstLen))
			for i := range sizes {
				copy(want[dstOff[i]:dstOff[i]+sizes[i]], src[srcOff[i]:srcOff[i]+sizes[i]])
			}
			dst := upload(t, d, poisoned[uint16](int(dstLen)))
			require.NoError(t, BatchedCopy[uint16]().Run(nil, upload(t, d, src), dst, upload(t, d, srcOff), upload(t, d, dstOff), upload(t, d, sizes)))
			require.Equal(t, want, download(t, dst), "k=%d max=%d", k, maxLen)
		}
	}
	b, err := BatchedCopy[uint8]().TempStorageBytes(d, 100, 1<<30)
	require.NoError(t, err)
	require.Equal(t, 0, b, "the CPU backend takes no scratch")
	require.Equal(t, 100, batchedCopyQueue(100, 1<<30, 1))
	require.Equal(t, 2, batchedCopyQueue(100, 64<<10, 1))
	require.Equal(t, 0, batchedCopyQueue(100, 1000, 4))
}

func TestFillFamilyErrors(t *testing.T) {
	d := cpuDevice(t)
	xs := upload(t, d, []int32{1, 2, 3})
	ints := func(v ...int64) *Slice[int64] { return upload(t, d, v) }
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"Fill nil handle":       {(*FillOp[int32])(nil).Run(nil, xs, 0), "Fill: nil"},
		"Fill nil output":       {Fill[int32]().Run(nil, nil, 0), "Fill[int32] output"},
		"Fill bad view":         {Fill[int32]().Run(nil, xs.Range(1, 9), 0), "Fill[int32] output"},
		"Generate nil operator": {Generate[int32](nil).Run(nil, xs), "Generate: nil operator"},
		"Generate panic":        {Generate(func(int64) int32 { panic("boom") }).Run(nil, xs), "boom"},
		"TransformIf lengths":   {TransformIf(tiNeg, tiOdd).Run(nil, xs, upload(t, d, []int32{0})), "input has 3 elements, output 1"},
		"TransformIf nil pred":  {TransformIf(tiNeg, nil).Run(nil, xs, xs), "TransformIf: nil operator"},
		"TransformIf panic":     {TransformIf(tiNeg, func(int32) bool { panic("boom") }).Run(nil, xs, xs), "boom"},
		"BatchedCopy source":    {BatchedCopy[int32]().Run(nil, xs, xs, ints(2), ints(0), ints(2)), "range 0: source elements [2, 4) are outside the source's 3"},
		"BatchedCopy dest":      {BatchedCopy[int32]().Run(nil, xs, xs, ints(0, 0), ints(0, 3), ints(1, 1)), "range 1: destination elements [3, 4) are outside the destination's 3"},
		"BatchedCopy size":      {BatchedCopy[int32]().Run(nil, xs, xs, ints(0), ints(0), ints(-2)), "range 0 has size -2"},
		"BatchedCopy counts":    {BatchedCopy[int32]().Run(nil, xs, xs, ints(0), ints(0, 1), ints(1)), "1 source offsets, 2 destination offsets and 1 sizes"},
		"BatchedCopy nil src":   {BatchedCopy[int32]().Run(nil, nil, xs, ints(0), ints(0), ints(1)), "BatchedCopy[int32] source"},
		"BatchedCopy nil sizes": {BatchedCopy[int32]().Run(nil, xs, xs, ints(0), ints(0), nil), "BatchedCopy[int32] sizes"},
	} {
		require.Error(t, c.err, name)
		require.Contains(t, c.err.Error(), c.want, name)
	}
	require.Equal(t, []int32{1, 2, 3}, download(t, xs), "no call changed the data")
}
