package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// affine is x ↦ a·x + b over wrapping uint64 arithmetic; composing them is
// associative but not commutative, so any reordering of a scan shows.
type affine struct{ A, B uint64 }

// then applies f, then g.
func then(f, g affine) affine { return affine{f.A * g.A, f.B*g.A + g.B} }

func maxInt32(a, b int32) int32 { return max(a, b) }

// seqScan is the oracle: a plain loop.
func seqScan[T any](op func(T, T) T, in []T, init T, hasInit, inclusive bool) []T {
	out := make([]T, len(in))
	acc, has := init, hasInit
	for i, v := range in {
		if !inclusive {
			out[i] = acc
		}
		if has {
			acc = op(acc, v)
		} else {
			acc, has = v, true
		}
		if inclusive {
			out[i] = acc
		}
	}
	return out
}

var scanSizes = []int{0, 1, 2, minChunk - 1, minChunk, minChunk + 1, 7919, 104_729, 9*minChunk + 5, 1_000_003}

// scanModes are the ways to call a scan, each with its oracle.
type scanMode struct {
	name      string
	inclusive bool
	hasInit   bool
	from      bool // init from a device buffer
}

var scanModes = []scanMode{
	{"Inclusive", true, false, false},
	{"InclusiveInit", true, true, false},
	{"InclusiveInitFrom", true, true, true},
	{"Exclusive", false, true, false},
	{"ExclusiveInitFrom", false, true, true},
}

// runScanMode runs op's scan in mode m over xs on d into a poisoned output
// and returns the result.
func runScanMode[T any](t *testing.T, d *Device, op func(T, T) T, m scanMode, xs []T, init, poison T) []T {
	t.Helper()
	in, err := FromHost(d, xs)
	require.NoError(t, err)
	defer in.Free()
	junk := make([]T, len(xs))
	for i := range junk {
		junk[i] = poison
	}
	out, err := FromHost(d, junk)
	require.NoError(t, err)
	defer out.Free()
	initBuf, err := FromHost(d, []T{init})
	require.NoError(t, err)
	defer initBuf.Free()
	switch {
	case m.inclusive && !m.hasInit:
		err = InclusiveScan(op).Run(nil, in, out)
	case m.inclusive && m.from:
		err = InclusiveScan(op).RunWithInitFrom(nil, in, out, initBuf)
	case m.inclusive:
		err = InclusiveScan(op).RunWithInit(nil, in, out, init)
	case m.from:
		err = ExclusiveScan(op).RunWithInitFrom(nil, in, out, initBuf)
	default:
		err = ExclusiveScan(op).Run(nil, in, out, init)
	}
	require.NoError(t, err)
	got, err := out.ToHost()
	require.NoError(t, err)
	return got
}

func TestScanCPUMatchesLoop(t *testing.T) {
	d := cpuDevice(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	for _, m := range scanModes {
		for _, n := range scanSizes {
			t.Run(fmt.Sprintf("%s/n=%d", m.name, n), func(t *testing.T) {
				xs := make([]int64, n)
				fs := make([]affine, n)
				ms := make([]int32, n)
				for i := range xs {
					xs[i] = int64(r.Uint64())
					fs[i] = affine{r.Uint64() | 1, r.Uint64()}
					ms[i] = int32(r.Uint32())
				}
				init := int64(r.Uint64())
				require.Equal(t, seqScan(add, xs, init, m.hasInit, m.inclusive), runScanMode(t, d, add, m, xs, init, -7))
				finit := affine{r.Uint64(), r.Uint64()}
				require.Equal(t, seqScan(then, fs, finit, m.hasInit, m.inclusive), runScanMode(t, d, then, m, fs, finit, affine{7, 7}))
				require.Equal(t, seqScan(maxInt32, ms, -5, m.hasInit, m.inclusive), runScanMode(t, d, maxInt32, m, ms, -5, 99))
			})
		}
	}
}

// TestExclusiveMaxScanNeedsNoIdentity checks cuda.compute's known failure:
// an exclusive max scan seeded with an init value, whatever the values.
func TestExclusiveMaxScanNeedsNoIdentity(t *testing.T) {
	d := cpuDevice(t)
	xs := []int32{-9, -3, -7, -1, -8}
	require.Equal(t, []int32{-20, -9, -3, -3, -1}, runScanMode(t, d, maxInt32, scanModes[3], xs, -20, 0))
	require.Equal(t, []int32{-2, -2, -2, -2, -1}, runScanMode(t, d, maxInt32, scanModes[4], xs, -2, 0))
}

func TestScanInPlace(t *testing.T) {
	d := cpuDevice(t)
	xs := make([]int64, 3*minChunk+11)
	for i := range xs {
		xs[i] = int64(i%13) - 6
	}
	for _, inclusive := range []bool{true, false} {
		buf, err := FromHost(d, xs)
		require.NoError(t, err)
		if inclusive {
			require.NoError(t, InclusiveScan(add).RunWithInit(nil, buf, buf, 5))
		} else {
			require.NoError(t, ExclusiveScan(add).Run(nil, buf, buf, 5))
		}
		got, err := buf.ToHost()
		require.NoError(t, err)
		require.Equal(t, seqScan(add, xs, 5, true, inclusive), got)
	}
}

func TestScanOnRanges(t *testing.T) {
	d := cpuDevice(t)
	buf, err := FromHost(d, []int64{1, 2, 3, 4, 5, 6, 7, 8})
	require.NoError(t, err)
	// Scan elements 1..4 into 4..7 (disjoint views), init from element 0.
	require.NoError(t, ExclusiveScan(add).RunWithInitFrom(nil, buf.Range(1, 4), buf.Range(4, 7), buf.Range(0, 1)))
	got, err := buf.ToHost()
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 3, 4, 1, 3, 6, 8}, got)
}

func TestScanBadArguments(t *testing.T) {
	d := cpuDevice(t)
	in, err := FromHost(d, []int64{1, 2, 3, 4})
	require.NoError(t, err)
	out3, err := Alloc[int64](d, 3)
	require.NoError(t, err)
	out, err := Alloc[int64](d, 4)
	require.NoError(t, err)
	empty, err := Alloc[int64](d, 0)
	require.NoError(t, err)
	freed, err := Alloc[int64](d, 4)
	require.NoError(t, err)
	require.NoError(t, freed.Free())
	other := cpuDevice(t)
	elsewhere, err := Alloc[int64](other, 1)
	require.NoError(t, err)

	inc, exc := InclusiveScan(add), ExclusiveScan(add)
	for i, c := range []struct {
		err  error
		want string
	}{
		{inc.Run(nil, in, out3), "input has 4 elements, output 3"},
		{exc.Run(nil, in, out3, 0), "input has 4 elements, output 3"},
		{inc.Run(nil, nil, out), "nil slice"},
		{exc.Run(nil, in, nil, 0), "nil slice"},
		{inc.Run(nil, freed, out), "freed"},
		{exc.Run(nil, in, freed, 0), "freed"},
		{inc.Run(nil, in, in.Range(0, 5)), "out of bounds"},
		{exc.RunWithInitFrom(nil, in, out, empty), "init buffer has no element"},
		{exc.RunWithInitFrom(nil, in, out, nil), "nil slice"},
		{inc.RunWithInitFrom(nil, in, out, freed), "freed"},
		{exc.RunWithInitFrom(nil, in, out, out.Range(2, 3)), "init buffer overlaps the output"},
		{exc.RunWithInitFrom(nil, in, out, elsewhere), "buffer 3"},
		{inc.Run(nil, in.Range(0, 3), in.Range(1, 4)), "overlaps the input"},
		{InclusiveScan[int64](nil).Run(nil, in, out), "nil operator"},
		{(*ExclusiveScanOp[int64])(nil).Run(nil, in, out, 0), "nil operator"},
	} {
		require.ErrorContains(t, c.err, c.want, "case %d", i)
	}
	_, err = inc.TempStorageBytes(d, -1)
	require.ErrorContains(t, err, "negative length")
	_, err = exc.TempStorageBytes(nil, 10)
	require.ErrorContains(t, err, "uninitialized Device")
	n, err := exc.TempStorageBytes(d, 1<<20)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestScanOperatorPanicIsError(t *testing.T) {
	d := cpuDevice(t)
	for _, n := range []int{3, 5 * minChunk} {
		xs := make([]int32, n)
		for i := range xs {
			xs[i] = 1
		}
		xs[n-2] = 0
		in, err := FromHost(d, xs)
		require.NoError(t, err)
		out, err := Alloc[int32](d, n)
		require.NoError(t, err)
		require.ErrorContains(t, InclusiveScan(div).Run(nil, in, out), "divide by zero")
		require.ErrorContains(t, ExclusiveScan(div).Run(nil, in, out, 1), "divide by zero")
	}
}

func TestScanStateBytes(t *testing.T) {
	// One tile descriptor of 16 bytes, or a status word and two values per
	// tile, with 32 tiles of padding and four alignments of 256 bytes.
	require.Equal(t, (10+32)*(8+2*16)+1024, scanStateBytes(10, 4))
	require.Equal(t, (10+32)*(8+2*32)+1024, scanStateBytes(10, 24))
	require.GreaterOrEqual(t, scanStateBytes(1, 1), (1+32)*16)
}
