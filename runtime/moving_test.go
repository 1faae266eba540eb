package runtime

import (
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// backends runs f on a CPU device and, where one is present, on GPU 0: the
// GPU bundle runs this package's tests on the H200.
func backends(t *testing.T, f func(t *testing.T, d *Device)) {
	t.Run("cpu", func(t *testing.T) { f(t, cpuDevice(t)) })
	g, err := OpenGPU(0)
	if err != nil {
		return
	}
	t.Cleanup(func() { assert.NoError(t, g.Close()) })
	t.Run("gpu", func(t *testing.T) { f(t, g) })
}

func randomInt64s(r *rand.Rand, n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(r.Uint64())
	}
	return xs
}

// TestPinnedAsyncRoundTrip: host data goes up from pinned memory (allocated
// and registered) on one non-blocking stream, is copied device to device,
// and comes back into pinned memory on a second stream that waits for the
// first through an event; the poisoned destination ends equal to the source.
func TestPinnedAsyncRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 36))
		up, err := d.NewStreamWith(StreamOptions{NonBlocking: true})
		require.NoError(t, err)
		down, err := d.NewStreamWith(StreamOptions{NonBlocking: true})
		require.NoError(t, err)
		ev, err := d.NewSyncEvent()
		require.NoError(t, err)
		for _, n := range []int{0, 1, 1003, 1<<20 + 7} {
			src, err := AllocPinned[int64](d, n)
			require.NoError(t, err)
			copy(src.Host(), randomInt64s(r, n))
			buf := make([]int64, n)
			for i := range buf {
				buf[i] = ^src.Host()[i] // poison
			}
			dst, err := RegisterPinned(d, buf)
			require.NoError(t, err)
			a, b := mustAlloc[int64](t, d, n), mustAlloc[int64](t, d, n)
			require.NoError(t, a.CopyFromPinned(up, src))
			require.NoError(t, b.CopyFrom(up, a))
			require.NoError(t, ev.Record(up))
			require.NoError(t, down.Wait(ev))
			require.NoError(t, b.CopyToPinned(down, dst))
			require.NoError(t, down.Synchronize())
			assert.Equal(t, src.Host(), buf, "n=%d", n)
			done, err := ev.Query()
			require.NoError(t, err)
			assert.True(t, done)

			// Halves through Ranges of both kinds of buffer.
			h := n / 2
			require.NoError(t, b.Range(0, h).CopyFromPinned(up, src.Range(n-h, n)))
			got := make([]int64, h)
			require.NoError(t, b.Range(0, h).CopyToHostAsync(up, got))
			assert.Equal(t, src.Host()[n-h:], got, "n=%d: ranges", n)

			require.NoError(t, src.Free())
			require.NoError(t, dst.Free())
			require.NoError(t, a.Free())
			require.NoError(t, b.Free())
		}
		require.NoError(t, ev.Close())
		require.NoError(t, up.Close())
		require.NoError(t, down.Close())
	})
}

// TestPageableAsyncCopies: the pageable forms are correct, and the source
// of CopyFromHostAsync may be reused as soon as it returns.
func TestPageableAsyncCopies(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 37))
		st, err := d.NewStream()
		require.NoError(t, err)
		defer st.Close()
		for _, n := range []int{1, 4097, 1<<19 + 1} {
			src := randomInt64s(r, n)
			want := append([]int64(nil), src...)
			s := mustAlloc[int64](t, d, n)
			require.NoError(t, s.CopyFromHostAsync(st, src))
			for i := range src {
				src[i] = 0 // reused at once
			}
			got := make([]int64, n)
			require.NoError(t, s.CopyToHostAsync(st, got))
			assert.Equal(t, want, got, "n=%d", n)
		}
	})
}

type fillPair struct {
	A int32
	B int16
	C uint8
}

func checkFill[T comparable](t *testing.T, d *Device, v, poison T) {
	t.Helper()
	for _, n := range []int{0, 1, 2, 3, 1000, 1_000_003} {
		host := make([]T, n+2)
		for i := range host {
			host[i] = poison
		}
		s := mustFromHost(t, d, host)
		require.NoError(t, s.Range(1, n+1).Fill(nil, v))
		got, err := s.ToHost()
		require.NoError(t, err)
		bad := 0
		for i := 1; i <= n; i++ {
			if got[i] != v {
				bad++
			}
		}
		assert.Zero(t, bad, "%T n=%d: elements not filled", v, n)
		assert.Equal(t, poison, got[0], "%T n=%d: wrote before the range", v, n)
		assert.Equal(t, poison, got[n+1], "%T n=%d: wrote past the range", v, n)
	}
}

// TestFill: memset widths (1, 2, 4 bytes and periodic 8-byte values) and
// the doubling copies (8-byte and odd-sized structs), inside a Range whose
// neighbours must stay poisoned.
func TestFill(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		checkFill[int8](t, d, -7, 3)
		checkFill[uint16](t, d, 0xbeef, 1)
		checkFill[float32](t, d, -1.5, 2)
		checkFill[uint64](t, d, 0x0101010101010101, 5) // a memset of bytes
		checkFill[uint64](t, d, 0x1234567890abcdef, 5) // doubling copies
		checkFill[float64](t, d, 3.25, 0)
		checkFill(t, d, fillPair{A: -9, B: 77, C: 200}, fillPair{1, 2, 3})
		checkFill(t, d, [3]uint8{1, 2, 3}, [3]uint8{9, 9, 9})
	})
}

func TestMemsetWord(t *testing.T) {
	for _, c := range []struct {
		b     []byte
		width int
		word  uint32
		ok    bool
	}{
		{[]byte{7}, 1, 7, true},
		{[]byte{7, 7, 7, 7, 7, 7, 7, 7}, 1, 7, true},
		{[]byte{1, 2}, 2, 0x0201, true},
		{[]byte{1, 2, 1, 2}, 2, 0x0201, true},
		{[]byte{1, 2, 3, 4, 1, 2, 3, 4}, 4, 0x04030201, true},
		{[]byte{1, 2, 3, 4, 1, 2, 3, 5}, 0, 0, false},
		{[]byte{1, 2, 3}, 0, 0, false},
		{[]byte{1, 2, 1}, 0, 0, false},
	} {
		w, word, ok := memsetWord(c.b)
		assert.Equal(t, c.ok, ok, "%v", c.b)
		assert.Equal(t, c.width, w, "%v", c.b)
		assert.Equal(t, c.word, word, "%v", c.b)
	}
}

// TestEvents: timing, queries, waits between streams, and misuse.
func TestEvents(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		start, err := d.NewEvent()
		require.NoError(t, err)
		end, err := d.NewEvent()
		require.NoError(t, err)
		s := mustAlloc[int64](t, d, 1<<22)
		require.NoError(t, start.Record(nil))
		require.NoError(t, s.Fill(nil, 0x1234567890abcdef))
		require.NoError(t, end.Record(nil))
		require.NoError(t, end.Synchronize())
		el, err := end.Elapsed(start)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, el, time.Duration(0))
		assert.Less(t, el, 10*time.Second)

		sync, err := d.NewSyncEvent()
		require.NoError(t, err)
		require.NoError(t, sync.Record(nil))
		_, err = sync.Elapsed(start)
		assert.ErrorContains(t, err, "records no time")

		other := cpuDevice(t) // never d: a second CPU device, or a CPU beside the GPU
		oe, err := other.NewEvent()
		require.NoError(t, err)
		require.NoError(t, oe.Record(nil))
		_, err = oe.Elapsed(start)
		assert.ErrorContains(t, err, "two devices")
		ost, err := other.NewStream()
		require.NoError(t, err)
		assert.ErrorContains(t, ost.Wait(start), "another device")
		assert.ErrorContains(t, start.Record(ost), "another device")

		require.NoError(t, sync.Close())
		assert.ErrorIs(t, sync.Close(), errEventClosed)
		assert.ErrorIs(t, sync.Record(nil), errEventClosed)
		assert.ErrorIs(t, d.DefaultStream().Wait(sync), errEventClosed)
		var nilEvent *Event
		assert.ErrorContains(t, nilEvent.Record(nil), "nil event")
		assert.ErrorContains(t, (&Event{}).Synchronize(), "uninitialized Event")
	})
}

// TestEventAfterClose: a device's Close destroys its events; using one
// afterwards is an error, not a crash.
func TestEventAfterClose(t *testing.T) {
	d, err := Open(CPU)
	require.NoError(t, err)
	e, err := d.NewEvent()
	require.NoError(t, err)
	require.NoError(t, d.Close())
	assert.ErrorIs(t, e.Record(nil), ErrDeviceClosed)
	_, err = e.Query()
	assert.ErrorIs(t, err, ErrDeviceClosed)
}

// TestPinnedFreeWhileInFlight: a registered buffer freed right after an
// asynchronous upload from it is kept until the upload is done, so
// overwriting the Go memory after Free cannot change what arrived.
func TestPinnedFreeWhileInFlight(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 38))
		const n = 32 << 20 // 256 MiB: long enough to be in flight at Free
		buf := randomInt64s(r, n)
		want := append([]int64(nil), buf...)
		p, err := RegisterPinned(d, buf)
		require.NoError(t, err)
		st, err := d.NewStreamWith(StreamOptions{NonBlocking: true})
		require.NoError(t, err)
		s := mustAlloc[int64](t, d, n)
		require.NoError(t, s.Fill(st, 0))
		require.NoError(t, s.CopyFromPinned(st, p))
		require.NoError(t, p.Free())
		for i := range buf {
			buf[i] = -1
		}
		require.NoError(t, st.Synchronize())
		got, err := s.ToHost()
		require.NoError(t, err)
		assert.True(t, equalInt64s(want, got), "the upload saw memory changed after Free")
		assert.ErrorIs(t, s.CopyFromPinned(st, p), ErrFreed)
		assert.Nil(t, p.Host())
		require.NoError(t, st.Close())
	})
}

func equalInt64s(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMovingMisuse: every bad argument is an error naming what is wrong.
func TestMovingMisuse(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		_, err := AllocPinned[int64](d, -1)
		assert.ErrorContains(t, err, "negative length -1")
		_, err = AllocPinned[*int](d, 1)
		assert.Error(t, err, "a pointer element type")
		var nilDev *Device
		_, err = AllocPinned[int64](nilDev, 1)
		assert.Error(t, err)

		p, err := AllocPinned[int64](d, 10)
		require.NoError(t, err)
		s := mustAlloc[int64](t, d, 9)
		assert.ErrorContains(t, s.CopyFromPinned(nil, p), "pinned buffer has 10 elements, slice has 9")
		assert.ErrorContains(t, s.CopyToPinned(nil, p), "pinned buffer has 10 elements, slice has 9")
		assert.ErrorContains(t, s.CopyFromPinned(nil, p.Range(3, 2)), "Range(3, 2)")
		assert.ErrorContains(t, s.CopyFromHostAsync(nil, make([]int64, 8)), "source has 8 elements")
		assert.ErrorContains(t, s.CopyToHostAsync(nil, make([]int64, 8)), "destination has 8 elements")
		assert.ErrorContains(t, s.CopyFromPinned(nil, nil), "nil pinned buffer")
		assert.ErrorContains(t, p.Range(0, 1).Free(), "view made by Range")
		assert.ErrorContains(t, s.CopyFrom(nil, s.Range(0, 8)), "source has 8 elements, destination 9")
		big := mustAlloc[int64](t, d, 20)
		assert.ErrorContains(t, big.Range(0, 10).CopyFrom(nil, big.Range(5, 15)), "overlap")
		require.NoError(t, big.Range(0, 10).CopyFrom(nil, big.Range(0, 10)), "the same elements: nothing to do")

		other := cpuDevice(t)
		o := mustAlloc[int64](t, other, 9)
		assert.ErrorContains(t, s.CopyFrom(nil, o), "another device")
		ost, err := other.NewStream()
		require.NoError(t, err)
		assert.ErrorContains(t, s.Fill(ost, 1), "another device")
		if d.Backend() == GPU {
			cp, err := AllocPinned[int64](other, 9)
			require.NoError(t, err)
			assert.ErrorContains(t, s.CopyFromPinned(nil, cp), "pinned buffer is of a cpu device")
		}

		require.NoError(t, p.Free())
		assert.ErrorIs(t, p.Free(), ErrFreed)
		assert.ErrorIs(t, s.CopyToPinned(nil, p.Range(0, 9)), ErrFreed)
		require.NoError(t, s.Free())
		assert.ErrorIs(t, s.Fill(nil, 1), ErrFreed)
		assert.ErrorIs(t, s.CopyFromHostAsync(nil, make([]int64, 9)), ErrFreed)
	})
}

// TestWrap: a foreign address becomes a Slice that reads and writes the
// memory in place and that gocccl never frees; bad addresses are refused.
func TestWrap(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		xs := []int64{1, 2, 3, 4, 5, 6, 7, 8}
		owner := mustFromHost(t, d, xs)
		addr, err := owner.Address()
		require.NoError(t, err)
		require.NotZero(t, addr)
		var w *Slice[int64]
		if d.Backend() == CPU {
			_, err = Wrap[int64](d, addr, 8)
			assert.ErrorContains(t, err, "WrapHost")
			host := append([]int64(nil), xs...)
			w, err = WrapHost(d, host[2:])
			require.NoError(t, err)
			require.NoError(t, w.Fill(nil, 9))
			assert.Equal(t, []int64{1, 2, 9, 9, 9, 9, 9, 9}, host, "the Slice shares the host memory")
		} else {
			_, err = WrapHost(d, xs)
			assert.ErrorContains(t, err, "cannot use host memory")
			w, err = Wrap[int64](d, addr+16, 6)
			require.NoError(t, err)
			got, err := w.ToHost()
			require.NoError(t, err)
			assert.Equal(t, xs[2:], got)
			require.NoError(t, w.Range(0, 1).Fill(nil, -1))
			back, err := owner.ToHost()
			require.NoError(t, err)
			assert.Equal(t, int64(-1), back[2], "writes through the wrap reach the owner's memory")

			_, err = Wrap[int64](d, addr+4, 1)
			assert.ErrorContains(t, err, "not aligned for int64")
			_, err = Wrap[int64](d, addr+16, 7)
			assert.ErrorContains(t, err, "run past the end of their allocation")
			_, err = Wrap[int64](d, 0x1000, 1)
			assert.ErrorContains(t, err, "not memory CUDA allocated")
			pin, err := AllocPinned[int64](d, 4)
			require.NoError(t, err)
			_, err = Wrap[int64](d, uintptr(unsafe.Pointer(&pin.Host()[0])), 4)
			assert.ErrorContains(t, err, "host memory, not device memory")
			require.NoError(t, pin.Free())
		}
		assert.True(t, w.Foreign())
		assert.False(t, owner.Foreign())
		assert.ErrorIs(t, w.Free(), errForeign)
		assert.ErrorIs(t, w.FreeAfter(nil), errForeign)
		_, err = w.ToHost()
		assert.NoError(t, err, "a refused Free leaves the slice usable")
		e, err := Wrap[int64](d, 0, 0)
		if d.Backend() == GPU {
			require.NoError(t, err)
			assert.Zero(t, e.Len())
		}
		_, err = Wrap[int64](d, addr, -1)
		assert.ErrorContains(t, err, "negative length")

		st, err := d.NewStream()
		require.NoError(t, err)
		ws, err := d.WrapStream(st.Handle())
		if d.Backend() == CPU {
			require.NoError(t, err) // handle 0: the default stream
			assert.Same(t, d.DefaultStream(), ws)
			assert.Zero(t, d.ContextHandle())
		} else {
			require.NoError(t, err)
			require.NoError(t, owner.Fill(ws, 4))
			require.NoError(t, ws.Synchronize())
			require.NoError(t, ws.Close(), "closing a wrapped stream leaves it to its owner")
			require.NoError(t, owner.Fill(st, 5), "the owner's stream still works")
			assert.NotZero(t, d.ContextHandle())
		}
		require.NoError(t, st.Close())
	})
}

// TestOpenGPUContext: a Device over the context another library uses runs
// gocccl's work there, and its Close leaves the context to its owner.
func TestOpenGPUContext(t *testing.T) {
	_, err := OpenGPUContext(0)
	assert.Error(t, err)
	g, err := OpenGPU(0)
	if err != nil {
		t.Skip("no GPU")
	}
	defer g.Close()
	d, err := OpenGPUContext(g.ContextHandle())
	require.NoError(t, err)
	assert.Equal(t, g.ContextHandle(), d.ContextHandle())
	assert.Equal(t, g.Info().Ordinal, d.Info().Ordinal)
	s := mustFromHost(t, d, []int64{1, 2, 3})
	addr, err := s.Address()
	require.NoError(t, err)
	w, err := Wrap[int64](g, addr, 3)
	require.NoError(t, err, "memory of the shared context is the other device's to wrap")
	got, err := w.ToHost()
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 2, 3}, got)
	require.NoError(t, d.Close())
	x := mustFromHost(t, g, []int64{4})
	got, err = x.ToHost()
	require.NoError(t, err, "the owner's context survives the Close")
	assert.Equal(t, []int64{4}, got)
}

// TestPinnedCollected: a Pinned dropped without Free is released by its
// cleanup (the retention tests of the seed issue, for pinned memory), and
// a wrapped Slice keeps nothing alive either.
func TestPinnedCollected(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		buf := make([]int64, 1<<16)
		p, err := RegisterPinned(d, buf)
		require.NoError(t, err)
		s := mustAlloc[int64](t, d, len(buf))
		require.NoError(t, s.CopyFromPinned(nil, p))
		wp := weak.Make(p)
		p = nil
		gone := false
		for range 20 {
			goruntime.GC()
			if wp.Value() == nil {
				gone = true
				break
			}
			time.Sleep(time.Millisecond)
		}
		assert.True(t, gone, "a Pinned no longer referenced was kept")
		// Its cleanup leaves the device's record of it.
		for range 200 {
			d.mu.Lock()
			n := len(d.pinned)
			d.mu.Unlock()
			if n == 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		d.mu.Lock()
		assert.Empty(t, d.pinned, "the cleanup did not release the pinned memory")
		d.mu.Unlock()

		addr, err := s.Address()
		require.NoError(t, err)
		if d.Backend() == GPU {
			w, err := Wrap[int64](d, addr, len(buf))
			require.NoError(t, err)
			ww := weak.Make(w)
			w = nil
			assert.True(t, collectedSoonAny(ww), "a wrapped Slice no longer referenced was kept")
		}
	})
}

// TestMovingDoesNotAllocate: the asynchronous copies, fills and event calls
// allocate no Go memory.
func TestMovingDoesNotAllocate(t *testing.T) {
	backends(t, func(t *testing.T, d *Device) {
		st, err := d.NewStreamWith(StreamOptions{NonBlocking: true})
		require.NoError(t, err)
		defer st.Close()
		p, err := AllocPinned[int64](d, 4096)
		require.NoError(t, err)
		defer p.Free()
		a, b := mustAlloc[int64](t, d, 4096), mustAlloc[int64](t, d, 4096)
		ev, err := d.NewSyncEvent()
		require.NoError(t, err)
		defer ev.Close()
		for name, f := range map[string]func(){
			"CopyFromPinned": func() { _ = a.CopyFromPinned(st, p) },
			"CopyToPinned":   func() { _ = a.CopyToPinned(st, p) },
			"CopyFrom":       func() { _ = b.CopyFrom(st, a) },
			"Fill":           func() { _ = a.Fill(st, 7) },
			"FillDoubling":   func() { _ = a.Fill(st, 0x1234567890abcdef) },
			"Record+Wait":    func() { _ = ev.Record(st); _ = d.DefaultStream().Wait(ev) },
		} {
			f()
			assert.Zero(t, testing.AllocsPerRun(50, f), name)
		}
		require.NoError(t, st.Synchronize())
	})
}
