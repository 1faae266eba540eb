package iterator_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/iterator"
	"github.com/gocccl/gocccl/runtime"
)

type pairZ struct {
	A int64
	B float32
}

// TestBindErrors: every misuse of a binding is an error at Run, none a
// panic or a silent result.
func TestBindErrors(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	out, err := runtime.Alloc[int64](d, 1)
	require.NoError(t, err)
	xs, err := runtime.FromHost(d, []int64{1, 2, 3})
	require.NoError(t, err)
	bad, err := runtime.FromHost(d, []int64{5, -1})
	require.NoError(t, err)
	other := iterator.Counting[int64]()
	for _, c := range []struct {
		in   runtime.Input[int64]
		want string
	}{
		{Squares.Bind(), "no value bound to its Counting[int64] leaf"},
		{Squares.Bind(Start.With(1)), "has no length"},
		{Squares.Bind(Start.With(1), other.With(2)).Take(3), "not in"},
		{Squares.Bind(Start.With(1), Start.With(2)).Take(3), "two values"},
		{Squares.Bind(Start.With(1)).Take(-1), "negative Take"},
		{Gathered.Bind(Values.With(xs), Indices.With(xs)).Take(9), "Take(9) of an iterator of 3 elements"},
		{Gathered.Bind(Values.With(xs), Indices.With(bad)), "index 5 (at 0) is outside the 3 values"},
		{iterator.Reverse[int64](Start).Bind(Start.With(1)).Take(3), "no length to reverse"},
		{iterator.Transform(iterator.Zip[pairZ](Start, Start), func(p pairZ) int64 { return p.A }).Bind(Start.With(1)).Take(1), "field B is float32 but iterator 2 is of int64"},
	} {
		err := SumSquares.Run(nil, c.in, out, 0)
		require.ErrorContains(t, err, c.want)
	}
	// An iterator that reads no buffer needs a stream to tell the device.
	require.ErrorContains(t, SumSquares.Run(nil, Squares.Bind(Start.With(1)).Take(3), iterator.Discard[int64]().Bind(), 0), "pass a stream")
	require.NoError(t, SumSquares.Run(d.DefaultStream(), Squares.Bind(Start.With(1)).Take(3), iterator.Discard[int64]().Bind(), 0))
}
