package runtime

import (
	"fmt"
	"sync"

	"github.com/gocccl/gocccl/runtime/cuda"
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
		if err := d.ctx.StreamSynchronize(s.handle); err != nil {
			return 0, fmt.Errorf("growing stream scratch: %w", err)
		}
		untrack(d, &d.allocs, sc.ptr)
		if err := d.ctx.MemFree(sc.ptr); err != nil {
			return 0, fmt.Errorf("growing stream scratch: %w", err)
		}
		sc.ptr, sc.bytes = 0, 0
	}
	p, err := d.allocate(size)
	if err != nil {
		return 0, fmt.Errorf("stream scratch of %s: %w", byteSize(int64(size)), err)
	}
	track(d, &d.allocs, p)
	if err := d.ctx.MemsetD8(p, 0, 16); err != nil {
		untrack(d, &d.allocs, p)
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
	if sc.ptr == 0 {
		return nil
	}
	p := sc.ptr
	sc.ptr, sc.bytes = 0, 0
	untrack(s.dev, &s.dev.allocs, p)
	return s.dev.ctx.MemFree(p) // waits for work still using it
}
