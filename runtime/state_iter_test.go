package runtime_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

// SIModulus is the state of the stateful iterator tests: a modulus, a
// scale and a read-only table.
type SIModulus struct {
	M     int64
	Scale float32
	Table runtime.View[float32]
}

// Add is (a + b) mod M.
//
//gocccl:op
func (s SIModulus) Add(a, b int64) int64 { return (a + b) % s.M }

// Axpy is Scale*x + y.
//
//gocccl:op
func (s SIModulus) Axpy(p SIPair, y float32) float32 { return s.Scale*p.X*float32(p.K) + y }

// Keep reports whether x mod M is below M/2.
//
//gocccl:op
func (s SIModulus) Keep(x int64) bool { return x%s.M < s.M/2 }

// Get is Scale times the table's entry at x modulo its length.
//
//gocccl:op
func (s SIModulus) Get(x int64) float32 { return s.Scale * s.Table.At(int(x)%s.Table.Len()) }

// SIPair is what the binary transform's zipped input reads.
type SIPair struct {
	X float32
	K int64
}

// SISquare is the plain operator of the compositions.
//
//gocccl:op
func SISquare(x int64) int64 { return (x * x) & 0xfffff }

// SINeg is the plain operator of a TransformOutput.
//
//gocccl:op
func SINeg(x float32) float32 { return -x }

var (
	siCount   = iterator.Counting[int64]()
	siSquares = iterator.Transform(siCount, SISquare)
	siXs      = iterator.Slice[float32]()
	siKs      = iterator.Slice[int64]()
	siIdx     = iterator.Slice[int64]()
	siZipped  = iterator.Zip[SIPair](iterator.Permutation(siXs, siIdx), siKs)
	siNegOut  = iterator.TransformOutput(siXs, SINeg)

	siSum    = runtime.ReduceWith(SIModulus.Add).Over(siSquares)
	siAxpy   = runtime.BinaryTransformWith(SIModulus.Axpy).Over(siZipped, nil).Into(siNegOut)
	siSelect = runtime.SelectWith(SIModulus.Keep).Over(siSquares)
	siLookUp = runtime.UnaryTransformWith(SIModulus.Get).Over(siSquares)
	siScan   = runtime.InclusiveScanWith(SIModulus.Add).Over(siSquares)
)

func siDevice(t *testing.T) *runtime.Device {
	t.Helper()
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

func siRand(t *testing.T) *rand.Rand {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 11))
}

func siUpload[T any](t *testing.T, d *runtime.Device, xs []T) *runtime.Slice[T] {
	t.Helper()
	s, err := runtime.FromHost(d, xs)
	require.NoError(t, err)
	t.Cleanup(func() { s.Free() })
	return s
}

func siHost[T any](t *testing.T, s *runtime.Slice[T]) []T {
	t.Helper()
	xs, err := s.ToHost()
	require.NoError(t, err)
	return xs
}

// siTable is a table for the states whose operator does not read it:
// every View of a state must be made by Slice.View.
func siTable(t *testing.T, d *runtime.Device) runtime.View[float32] {
	return siUpload(t, d, []float32{0}).View()
}

var siSizes = []int{0, 1, 2, 1000, 70_001}

// TestStatefulReduceOverIterator: a stateful reduction over a Transform of
// a Counting iterator, with a plain operator in the composition, against
// a sequential loop, into a poisoned output.
func TestStatefulReduceOverIterator(t *testing.T) {
	d, r := siDevice(t), siRand(t)
	for _, n := range siSizes {
		st := SIModulus{M: 2 + r.Int64N(1<<40), Table: siTable(t, d)}
		start, init := r.Int64N(1<<20), r.Int64N(st.M)
		want := init
		for i := range n {
			want = st.Add(want, SISquare(start+int64(i)))
		}
		out := siUpload(t, d, []int64{-7, -7})
		require.NoError(t, siSum.Bind(st).Run(nil, siSquares.Bind(siCount.With(start)).Take(n), out, init))
		require.Equal(t, []int64{want, -7}, siHost(t, out), "n=%d", n)

		// The scan too, over the same composition.
		scan := siUpload(t, d, slices.Repeat([]int64{-7}, n))
		require.NoError(t, siScan.Bind(st).Run(nil, siSquares.Bind(siCount.With(start)).Take(n), scan))
		acc, seq := int64(0), make([]int64, n)
		for i := range n {
			if v := SISquare(start + int64(i)); i == 0 {
				acc = v
			} else {
				acc = st.Add(acc, v)
			}
			seq[i] = acc
		}
		require.Equal(t, seq, siHost(t, scan), "scan, n=%d", n)
	}
}

// TestStatefulBinaryTransformThroughIterators: a stateful binary
// transform over a Zip of a Permutation and a Slice, and a plain Slice,
// into a TransformOutput.
func TestStatefulBinaryTransformThroughIterators(t *testing.T) {
	d, r := siDevice(t), siRand(t)
	for _, n := range siSizes {
		xs, ys, ks, idx := make([]float32, n), make([]float32, n), make([]int64, n), make([]int64, n)
		for i := range xs {
			xs[i], ys[i], ks[i], idx[i] = float32(r.NormFloat64()), float32(r.NormFloat64()), r.Int64N(9)-4, int64(r.IntN(n))
		}
		st := SIModulus{Scale: float32(r.NormFloat64()), Table: siTable(t, d)}
		want := make([]float32, n)
		for i := range want {
			want[i] = SINeg(st.Axpy(SIPair{xs[idx[i]], ks[i]}, ys[i]))
		}
		poison := math.Float32frombits(0x7fc0dead)
		out := siUpload(t, d, slices.Repeat([]float32{poison}, n+1))
		in := siZipped.Bind(siXs.With(siUpload(t, d, xs)), siIdx.With(siUpload(t, d, idx)), siKs.With(siUpload(t, d, ks)))
		require.NoError(t, siAxpy.Bind(st).Run(nil, in, siUpload(t, d, ys), siNegOut.Bind(siXs.With(out.Range(0, n)))))
		got := siHost(t, out)
		require.Equal(t, want, got[:n], "n=%d", n)
		require.Equal(t, math.Float32bits(poison), math.Float32bits(got[n]), "wrote past the output, n=%d", n)
	}
}

// TestStatefulSelectOverIterator: a stateful selection over a composition.
func TestStatefulSelectOverIterator(t *testing.T) {
	d, r := siDevice(t), siRand(t)
	for _, n := range siSizes {
		st := SIModulus{M: 2 + r.Int64N(50), Table: siTable(t, d)}
		start := r.Int64N(1 << 20)
		want := []int64{}
		for i := range n {
			if v := SISquare(start + int64(i)); st.Keep(v) {
				want = append(want, v)
			}
		}
		out, cnt := siUpload(t, d, slices.Repeat([]int64{-7}, n)), siUpload(t, d, []int64{-1})
		require.NoError(t, siSelect.Bind(st).Run(nil, siSquares.Bind(siCount.With(start)).Take(n), out, cnt))
		got := siHost(t, out)
		require.Equal(t, int64(len(want)), siHost(t, cnt)[0], "count, n=%d", n)
		require.Equal(t, want, got[:len(want)], "n=%d", n)
		require.Equal(t, slices.Repeat([]int64{-7}, n-len(want)), got[len(want):], "past the count, n=%d", n)
	}
}

// TestStatefulViewWithIterator: a state holding a View of a table, read at
// the values of a composition.
func TestStatefulViewWithIterator(t *testing.T) {
	d, r := siDevice(t), siRand(t)
	for _, n := range siSizes {
		tab := make([]float32, 1+r.IntN(100))
		for i := range tab {
			tab[i] = float32(r.NormFloat64())
		}
		st := SIModulus{Scale: float32(r.NormFloat64()), Table: siUpload(t, d, tab).View()}
		start := r.Int64N(1 << 20)
		want := make([]float32, n)
		for i := range want {
			want[i] = st.Scale * tab[int(SISquare(start+int64(i)))%len(tab)]
		}
		out := siUpload(t, d, slices.Repeat([]float32{float32(math.NaN())}, n))
		require.NoError(t, siLookUp.Bind(st).Run(nil, siSquares.Bind(siCount.With(start)).Take(n), out))
		require.Equal(t, want, siHost(t, out), "n=%d", n)
	}
}

// TestStatefulIteratorMisuse: a composition no instance declared is
// ErrNotGenerated naming the stateful declaration to add (a CPU device
// refuses it as a GPU does); a freed View and an unbound handle are errors
// of the call through a composition; all prefixed once.
func TestStatefulIteratorMisuse(t *testing.T) {
	t.Setenv(runtime.EnvUngenerated, "")
	d := siDevice(t)
	tab := siUpload(t, d, []float32{1, 2, 3})
	st := SIModulus{M: 7, Scale: 1, Table: tab.View()}
	out := siUpload(t, d, []int64{0})
	rev := iterator.Reverse(siKs)
	ks := siUpload(t, d, []int64{1, 2, 3})

	err := siSum.Bind(st).Run(nil, rev.Bind(siKs.With(ks)), out, 0)
	require.ErrorIs(t, err, runtime.ErrNotGenerated)
	require.Contains(t, err.Error(), "through iterators Reverse[int64](Slice[int64])>-")
	require.Contains(t, err.Error(), "declare the instance with them where it is declared, runtime.ReduceWith(github.com/gocccl/gocccl/runtime_test.SIModulus.Add).Over(iterator.Reverse(iterator.Slice[int64]()))")
	require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), err.Error())

	t.Setenv(runtime.EnvUngenerated, "1")
	u := siDevice(t)
	utab := siUpload(t, u, []float32{1, 2, 3})
	uout := siUpload(t, u, []float32{0, 0})
	h := siLookUp.Bind(SIModulus{M: 7, Scale: 1, Table: utab.View()})
	require.NoError(t, h.Run(nil, siSquares.Bind(siCount.With(1)).Take(2), uout))
	require.NoError(t, utab.Free())
	err = h.Run(nil, siSquares.Bind(siCount.With(1)).Take(2), uout)
	require.ErrorIs(t, err, runtime.ErrFreed)
	require.Contains(t, err.Error(), "state runtime_test.SIModulus, field Table")
	require.Equal(t, 1, strings.Count(err.Error(), "gocccl: "), err.Error())

	other := siUpload(t, d, []float32{1})
	err = siLookUp.Bind(SIModulus{M: 7, Scale: 1, Table: other.View()}).Run(nil, siSquares.Bind(siCount.With(1)).Take(2), uout)
	require.ErrorContains(t, err, "make the view from a slice on the call's device")

	var unbound *runtime.Stateful[SIModulus, *runtime.ReduceOp[int64]]
	require.Nil(t, unbound.Over(siSquares).Bind(st), "a nil Stateful binds no handle")
	err = unbound.Over(siSquares).Bind(st).Run(nil, siSquares.Bind(siCount.With(1)).Take(2), siUpload(t, u, []int64{0}), 0)
	require.ErrorContains(t, err, "gocccl: Reduce: nil operator")
}
