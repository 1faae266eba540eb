package runtime

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func addMisuse(a, b uint32) uint32   { return a + b }
func halfMisuse(x uint32) uint32     { return x / 2 }
func subMisuse(a, b uint32) uint32   { return a - b }
func eqMisuse(a, b uint32) bool      { return a == b }
func lessMisuse(a, b uint32) bool    { return a < b }
func oddMisuse(x uint32) bool        { return x&1 == 1 }
func lessMisuseRev(a, b uint32) bool { return a > b }

// misuseCall is one algorithm called with an input, an output (nil where
// the algorithm sorts in place) and a count buffer (nil where it writes
// none).
type misuseCall struct {
	name     string
	outLen   func(n int) int // the output length a call over n items needs
	hasCount bool
	run      func(s *Stream, in, out *Slice[uint32], count *Slice[int64]) error
}

func misuseCalls() []misuseCall {
	same := func(n int) int { return n }
	none := func(int) int { return 0 }
	var (
		reduce = Reduce(addMisuse)
		incl   = InclusiveScan(addMisuse)
		excl   = ExclusiveScan(addMisuse)
		sel    = Select(oddMisuse)
		part   = Partition(oddMisuse)
		uniq   = Unique(eqMisuse)
		radix  = RadixSortKeys[uint32]()
		merge  = MergeSortKeys(lessMisuse)
		unary  = UnaryTransform(halfMisuse)
		adj    = AdjacentDifference(subMisuse)
	)
	return []misuseCall{
		{"Reduce", func(int) int { return 1 }, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error { return reduce.Run(s, in, out, 0) }},
		{"InclusiveScan", same, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error { return incl.Run(s, in, out) }},
		{"ExclusiveScan", same, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error { return excl.Run(s, in, out, 7) }},
		{"Select", same, true, func(s *Stream, in, out *Slice[uint32], c *Slice[int64]) error { return sel.Run(s, in, out, c) }},
		{"Partition", same, true, func(s *Stream, in, out *Slice[uint32], c *Slice[int64]) error { return part.Run(s, in, out, c) }},
		{"Unique", same, true, func(s *Stream, in, out *Slice[uint32], c *Slice[int64]) error { return uniq.Run(s, in, out, c) }},
		{"RadixSortKeys", same, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error {
			return radix.Run(s, in, out, RadixOptions{})
		}},
		{"MergeSortKeys", none, false, func(s *Stream, in, _ *Slice[uint32], _ *Slice[int64]) error { return merge.Run(s, in) }},
		{"UnaryTransform", same, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error { return unary.Run(s, in, out) }},
		{"AdjacentDifference", same, false, func(s *Stream, in, out *Slice[uint32], _ *Slice[int64]) error { return adj.Run(s, in, out) }},
	}
}

// callSafely runs c and turns a panic into an error that fails the test:
// no panic may reach a user from a library call.
func callSafely(t *testing.T, c misuseCall, s *Stream, in, out *Slice[uint32], count *Slice[int64]) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v", c.name, p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return c.run(s, in, out, count)
}

// TestAlgorithmMisuse calls every algorithm of one shape with each mistake
// issue 13 lists (a freed input, an input of another device, an output too
// short, a missing count buffer) and requires an error that names the
// algorithm and the problem, no panic, and a zero-length call that is valid.
func TestAlgorithmMisuse(t *testing.T) {
	d := openCPUDevice(t)
	other := openCPUDevice(t)
	const n = 1000
	host := make([]uint32, n)
	for i := range host {
		host[i] = uint32(i*2654435761) >> 7
	}
	alloc := func(d *Device, k int) *Slice[uint32] {
		s, err := FromHost(d, make([]uint32, k))
		require.NoError(t, err)
		return s
	}
	for _, c := range misuseCalls() {
		t.Run(c.name, func(t *testing.T) {
			fresh := func(d *Device) *Slice[uint32] {
				in, err := FromHost(d, host)
				require.NoError(t, err)
				return in
			}
			out := func(k int) *Slice[uint32] {
				if c.outLen(n) == 0 {
					return nil
				}
				return alloc(d, k)
			}
			count, err := FromHost(d, []int64{-1})
			require.NoError(t, err)
			s := d.DefaultStream()

			require.NoError(t, callSafely(t, c, s, fresh(d), out(c.outLen(n)), count), "a valid call")

			empty := alloc(d, 0)
			require.NoError(t, callSafely(t, c, s, empty, out(c.outLen(0)), count), "a zero-length call is valid")

			freed := fresh(d)
			require.NoError(t, freed.Free())
			err = callSafely(t, c, s, freed, out(c.outLen(n)), count)
			require.Error(t, err, "a freed input")
			assert.True(t, errors.Is(err, ErrFreed), "%v", err)
			assert.Contains(t, err.Error(), c.name)

			err = callSafely(t, c, s, fresh(other), out(c.outLen(n)), count)
			require.Error(t, err, "an input of another device")
			assert.Contains(t, err.Error(), "another device")
			assert.Contains(t, err.Error(), c.name)

			if c.outLen(n) > 0 {
				short := c.outLen(n) - 1
				err = callSafely(t, c, s, fresh(d), alloc(d, short), count)
				require.Error(t, err, "an output of %d items", short)
				if short > 0 {
					assert.Contains(t, err.Error(), fmt.Sprint(short), "the message gives the output's length")
				} else {
					assert.Contains(t, err.Error(), "no element")
				}
				assert.Contains(t, err.Error(), c.name)
			}
			if c.hasCount {
				err = callSafely(t, c, s, fresh(d), out(c.outLen(n)), nil)
				require.Error(t, err, "no count buffer")
				assert.Contains(t, err.Error(), c.name)
				err = callSafely(t, c, s, fresh(d), out(c.outLen(n)), &Slice[int64]{})
				require.Error(t, err, "a zero Slice as the count buffer")
			}
		})
	}
}

// openCPUDevice opens a CPU device that the test closes.
func openCPUDevice(t *testing.T) *Device {
	t.Helper()
	d, err := Open(CPU)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}
