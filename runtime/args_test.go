package runtime

import (
	"fmt"
	"testing"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/stretchr/testify/require"
)

// The tests of args.go: the argument checks allocate nothing on good
// arguments, and the overlap family's truth table.

// TestChecksDoNotAllocate: the argument checks every call makes (the
// stream it runs on, a slice's usability in a role, the instance's name,
// that buffers do not overlap) cost no allocation when the arguments are
// good, so that a GPU call can make none (the GPU suite's
// TestGPUAllocations measures whole calls); a bad argument still gets its
// full message.
func TestChecksDoNotAllocate(t *testing.T) {
	d := openCPUDevice(t)
	s, err := Alloc[int32](d, 16)
	require.NoError(t, err)
	c, err := Alloc[int64](d, 1)
	require.NoError(t, err)
	st, err := d.NewStream()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	in := newInstance(algo.Select, []any{func(int32) bool { return true }}, nil)
	k, v, u, a := s.Range(0, 4), s.Range(4, 8), s.Range(8, 12), s.Range(12, 16)
	var name string
	allocs := testing.AllocsPerRun(100, func() {
		name = in.name()
		// The stream: the default one of the buffers' device, or the given one.
		if got, err := streamFor(name, nil, s.dev, c.dev); err != nil || got != d.DefaultStream() {
			t.Fatal(got, err)
		}
		if got, err := streamFor(name, st, s.dev, c.dev, s.dev); err != nil || got != st {
			t.Fatal(got, err)
		}
		if err := s.usableAs(name, "input"); err != nil {
			t.Fatal(err)
		}
		_ = bufferOf(name, "output", s)
		// Three buffers, as Select checks them, and their lengths.
		bin, bout, bcount := bufferOf(name, "input", k), bufferOf(name, "output", v), bufferOf(name, "count", c)
		if got, err := checkBuffers(name, nil, bin, bout, bcount); err != nil || got != d.DefaultStream() {
			t.Fatal(got, err)
		}
		if err := bout.atLeast(name, k.Len(), "input elements it may receive"); err != nil {
			t.Fatal(err)
		}
		// Five buffers, as ReduceByKey checks them.
		if err := disjoint(name, bufferOf(name, "keys", k), bufferOf(name, "values", v),
			bufferOf(name, "unique keys", u), bufferOf(name, "aggregates", a), bufferOf(name, "run count", c)); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "allocations per check")
	require.NoError(t, s.Free())
	err = s.usableAs(name, "input")
	require.ErrorIs(t, err, ErrFreed)
	require.Contains(t, err.Error(), name+" input")
	require.ErrorContains(t, (*Slice[int32])(nil).usableAs("Op", "output"), "gocccl: Op output: nil slice")
}

// TestStreamForErrors: the resolver's messages, which the misuse and
// conformance suites match.
func TestStreamForErrors(t *testing.T) {
	d := openCPUDevice(t)
	other := openCPUDevice(t)
	_, err := streamFor("Alg", nil)
	require.EqualError(t, err, "gocccl: Alg: no buffer tells the device: pass a stream")
	_, err = streamFor("Alg", nil, nil, nil)
	require.EqualError(t, err, "gocccl: Alg: no buffer tells the device: pass a stream")
	got, err := streamFor("Alg", d.DefaultStream(), nil)
	require.NoError(t, err)
	require.Same(t, d.DefaultStream(), got)
	_, err = streamFor("Alg", nil, d, nil, other)
	require.ErrorContains(t, err, "gocccl: Alg: buffer 2 (of 2) is on another device than the stream")
	_, err = streamFor("Alg", other.DefaultStream(), d)
	require.ErrorContains(t, err, "gocccl: Alg: buffer 1 (of 1) is on another device than the stream")
}

// TestOverlapTruthTable: span, overlaps, overlapsPartially and same over
// pairs of slices, both ways round, on host memory (the CPU backend) and on
// device addresses (a GPU's Slices, made here without one); disjoint over
// their buffers agrees with overlaps.
func TestOverlapTruthTable(t *testing.T) {
	d := openCPUDevice(t)
	host, err := Alloc[int32](d, 16)
	require.NoError(t, err)
	const base = 0x10000 // a device address, 4-byte aligned
	dev := func(lo, hi int) *Slice[int32] {
		return &Slice[int32]{dev: d, n: hi - lo, ptr: cuda.DevicePtr(base + 4*lo)}
	}
	backends := []struct {
		name string
		r    func(lo, hi int) *Slice[int32]
	}{
		{"host", host.Range},
		{"device", dev},
	}
	cases := []struct {
		name                    string
		alo, ahi, blo, bhi      int
		overlaps, partial, same bool
	}{
		{"disjoint", 0, 4, 8, 12, false, false, false},
		{"adjacent", 0, 4, 4, 8, false, false, false},
		{"identical", 2, 6, 2, 6, true, false, true},
		{"partial", 0, 4, 2, 6, true, true, false},
		{"contained", 0, 8, 2, 4, true, true, false},
		{"same start", 0, 4, 0, 8, true, true, false},
		{"same end", 4, 8, 0, 8, true, true, false},
		{"one element", 3, 4, 3, 4, true, false, true},
		{"empty inside", 4, 4, 0, 8, false, false, false},
		{"empty at start", 0, 0, 0, 8, false, false, false},
		{"both empty", 4, 4, 4, 4, false, false, false},
	}
	for _, be := range backends {
		for _, c := range cases {
			for _, swap := range []bool{false, true} {
				a, b := be.r(c.alo, c.ahi), be.r(c.blo, c.bhi)
				if swap {
					a, b = b, a
				}
				name := fmt.Sprintf("%s/%s/swap=%v", be.name, c.name, swap)
				require.Equal(t, c.overlaps, overlaps(a, b), "%s: overlaps", name)
				require.Equal(t, c.partial, overlapsPartially(a, b), "%s: overlapsPartially", name)
				require.Equal(t, c.same, same(a, b), "%s: same", name)
				err := disjoint("Alg", bufferOf("Alg", "a", a), bufferOf("Alg", "b", b))
				if c.overlaps {
					require.EqualError(t, err, "gocccl: Alg: the a and the b overlap", name)
				} else {
					require.NoError(t, err, name)
				}
			}
		}
		// A slice is the same memory as itself, unless it is empty.
		x, e := be.r(1, 5), be.r(5, 5)
		require.True(t, same(x, x), be.name)
		require.False(t, same(e, e), be.name)
		lo, hi := span(x)
		require.Equal(t, uintptr(16), hi-lo, be.name)
		lo, hi = span(e)
		require.Zero(t, lo, be.name)
		require.Zero(t, hi, be.name)
	}
	// Slices of different element types: an int64 over the bytes of two
	// int32s overlaps them, partially when it is not the same bytes.
	wide := func(lo, hi int) *Slice[int64] {
		return &Slice[int64]{dev: d, n: hi - lo, ptr: cuda.DevicePtr(base + 8*lo)}
	}
	require.True(t, overlaps(wide(0, 1), dev(1, 2)))
	require.True(t, overlapsPartially(wide(0, 1), dev(1, 2)))
	require.False(t, overlapsPartially(wide(0, 1), dev(0, 2)))
	require.False(t, overlaps(wide(1, 2), dev(0, 2)))
}
