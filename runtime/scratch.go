package runtime

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gocccl/gocccl/internal/cuda"
)

// streamScratch is a stream's own scratch memory for kernels that keep a
// counter in it (the single-pass reduction): the counter is zero whenever a
// kernel starts, because every kernel resets it before it ends, so work
// enqueued on the stream reuses the memory in stream order with no
// allocation, memset or pool call. A CUDA graph captured on the stream
// therefore makes no allocation either.
type streamScratch struct {
	mu    sync.Mutex
	ptr   cuda.DevicePtr
	bytes int
	// graphs counts the open Graphs captured on the stream: their kernels
	// hold the scratch's address, so while there are any, growing it keeps
	// the old memory (retired) instead of freeing it.
	graphs  int
	retired []cuda.DevicePtr
	// capturing is set while Capture records the stream's work: growing the
	// scratch then would synchronize the stream, which ends the capture.
	capturing bool
	// epochs is the memory of the stream's epoch-tagged tile states.
	epochs epochRegion
}

// scratchMin is the smallest stream scratch: the counter and the partials of
// a reduction over every resident block of a large GPU.
const scratchMin = 256 << 10

// zeroedScratch returns at least bytes of the stream's scratch, whose first
// 16 bytes are zero in stream order. It grows the memory when needed: the
// old memory is freed once the stream's work is done with it. The caller
// has entered the device.
func (s *Stream) zeroedScratch(bytes int) (cuda.DevicePtr, error) {
	sc := &s.scratch
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.ptr != 0 && sc.bytes >= bytes {
		return sc.ptr, nil
	}
	d := s.dev
	size := max(bytes, scratchMin)
	if sc.ptr != 0 {
		if sc.graphs > 0 {
			sc.retired = append(sc.retired, sc.ptr) // freed with the stream
		} else {
			if err := d.ctx.StreamSynchronize(s.handle); err != nil {
				return 0, fmt.Errorf("growing stream scratch: %w", err)
			}
			untrackStreamOwned(d, sc.ptr)
			if err := d.ctx.MemFree(sc.ptr); err != nil {
				return 0, fmt.Errorf("growing stream scratch: %w", err)
			}
		}
		sc.ptr, sc.bytes = 0, 0
	}
	p, err := d.allocate(size)
	if err != nil {
		return 0, fmt.Errorf("stream scratch of %s: %w", byteSize(int64(size)), err)
	}
	trackStreamOwned(d, p)
	// In the stream's order: a non-blocking stream does not wait for the
	// legacy default stream, where a plain memset would run.
	if err := d.ctx.MemsetAsync(p, 0, 1, 16, s.handle); err != nil {
		untrackStreamOwned(d, p)
		d.ctx.MemFree(p)
		return 0, fmt.Errorf("stream scratch: %w", err)
	}
	sc.ptr, sc.bytes = p, size
	return p, nil
}

// freeScratch releases the stream's scratch after its work is done. The
// caller has entered the device.
func (s *Stream) freeScratch() error {
	sc := &s.scratch
	sc.mu.Lock()
	defer sc.mu.Unlock()
	ps := append(sc.retired, sc.ptr, sc.epochs.ptr)
	sc.ptr, sc.bytes, sc.retired, sc.epochs = 0, 0, nil, epochRegion{}
	var errs []error
	for _, p := range ps {
		if p != 0 {
			untrackStreamOwned(s.dev, p)
			errs = append(errs, s.dev.ctx.MemFree(p)) // waits for work still using it
		}
	}
	return errors.Join(errs...)
}

// growScratch makes the stream's scratch at least bytes long, as
// zeroedScratch does (once: later calls find it grown), unless a capture is
// open on the stream: growing synchronizes the stream, which a capture
// forbids, so the scratch stays as it is and the caller takes what does not
// fit from the pool (tileStates does). The caller has entered the device.
func (s *Stream) growScratch(bytes int) error {
	s.scratch.mu.Lock()
	capturing := s.scratch.capturing
	s.scratch.mu.Unlock()
	if capturing {
		return nil
	}
	_, err := s.zeroedScratch(bytes)
	return err
}

// setCapturing marks the start and end of a capture on the stream.
func (s *Stream) setCapturing(on bool) {
	s.scratch.mu.Lock()
	defer s.scratch.mu.Unlock()
	s.scratch.capturing = on
}

// graphCaptured and graphClosed count the open Graphs captured on the
// stream (streamScratch.graphs).
func (s *Stream) graphCaptured() {
	s.scratch.mu.Lock()
	defer s.scratch.mu.Unlock()
	s.scratch.graphs++
}

func (s *Stream) graphClosed() {
	s.scratch.mu.Lock()
	defer s.scratch.mu.Unlock()
	s.scratch.graphs--
}

// tileStatesOffset is where borrowed bytes start in the stream's scratch
// (CUB-form tile states of look-backs over values wider than 16 bytes,
// merge splits, the segmented sorts' fallback): past the reduction's
// counter, which must stay zero between kernels, at the 256-byte alignment
// of CUB's temporaries. Epoch tile states have memory of their own
// (epochs.go).
const tileStatesOffset = 256

// lockScratch returns bytes of the stream's scratch past the reduction's
// counter for work that initializes, in stream order, all it reads there
// (a look-back's init kernel writes every CUB-form tile state), and leaves
// the scratch locked: call unlockScratch after the work is enqueued, so that no other
// call grows and frees the memory in between. It returns 0, unlocked, when
// bytes do not fit in the scratch as it is: the caller then allocates from
// the pool. It makes the scratch when the stream has none, but never grows
// or replaces it for this, so a graph captured on the stream keeps the
// memory it recorded. The caller has entered the device.
func (s *Stream) lockScratch(bytes int) (cuda.DevicePtr, error) {
	sc := &s.scratch
	sc.mu.Lock()
	empty := sc.ptr == 0
	sc.mu.Unlock()
	if empty {
		if _, err := s.zeroedScratch(scratchMin); err != nil {
			return 0, err
		}
	}
	sc.mu.Lock()
	if sc.ptr == 0 || tileStatesOffset+bytes > sc.bytes {
		sc.mu.Unlock()
		return 0, nil
	}
	return sc.ptr + tileStatesOffset, nil
}

// unlockScratch ends the use lockScratch began.
func (s *Stream) unlockScratch() { s.scratch.mu.Unlock() }

// tileStates is where one call's tile states (a decoupled look-back's) live:
// in the stream's scratch, locked until release, when they fit there, else
// in the scratch pool. The zero value holds nothing.
type tileStates struct {
	s      *Stream
	ptr    cuda.DevicePtr
	pooled bool
}

// tileStates returns bytes of memory for one call's tile states, which its
// init kernel writes in full before anything reads them. Release it after
// the call's kernels are enqueued. The caller has entered the device.
func (s *Stream) tileStates(bytes int) (tileStates, error) {
	p, err := s.lockScratch(bytes)
	if err != nil {
		return tileStates{}, err
	}
	if p != 0 {
		return tileStates{s: s, ptr: p}, nil
	}
	if p, err = s.dev.tempAlloc(bytes, s); err != nil {
		return tileStates{}, err
	}
	return tileStates{s: s, ptr: p, pooled: true}, nil
}

// release ends the call's use of the memory: it unlocks the stream's
// scratch, or frees the pool's memory once the stream's work is done with it.
func (t tileStates) release() error {
	switch {
	case t.ptr == 0:
		return nil
	case t.pooled:
		return t.s.dev.tempFree(t.ptr, t.s)
	}
	t.s.unlockScratch()
	return nil
}
