package runtime

import "github.com/gocccl/gocccl/internal/cuda"

// pendingFree is memory given up by FreeAfter: it is freed once its event,
// recorded on the stream after the work that uses the memory, completes.
type pendingFree struct {
	event cuda.Event
	ptr   cuda.DevicePtr
}

// freeQueue is a device's FreeAfter frees waiting for their streams. One
// worker goroutine at a time drains it in order, sleeping in the driver
// (blocking-sync events) rather than spinning, and ends when it is empty:
// a burst of FreeAfter calls costs one goroutine, not one each.
type freeQueue struct {
	pending []pendingFree
	running bool // a worker is draining pending
}

// queueFree hands f to the device's free worker. The caller has entered the
// device; the worker exits it once f's memory is freed, so Close, which
// frees what is still tracked, waits for the frees in flight.
func (d *Device) queueFree(f pendingFree) {
	d.freesPending.Add(1)
	d.mu.Lock()
	d.frees.pending = append(d.frees.pending, f)
	start := !d.frees.running
	d.frees.running = true
	d.mu.Unlock()
	if start {
		go d.drainFrees()
	}
}

// drainFrees frees the queued memory in order, each after its event.
func (d *Device) drainFrees() {
	for {
		d.mu.Lock()
		if len(d.frees.pending) == 0 {
			d.frees.pending = d.frees.pending[:0]
			d.frees.running = false
			d.mu.Unlock()
			return
		}
		f := d.frees.pending[0]
		d.frees.pending[0] = pendingFree{}
		d.frees.pending = d.frees.pending[1:]
		d.mu.Unlock()
		d.free(f)
	}
}

// free waits for f's event and frees its memory, then ends the operation
// that queueFree's caller entered.
func (d *Device) free(f pendingFree) {
	defer d.exit()
	defer d.freesPending.Add(-1)
	if err := d.ctx.EventSynchronize(f.event); err != nil {
		d.noteFault(err) // the context is lost, and the memory with it
		return
	}
	_ = d.ctx.EventDestroy(f.event)
	_ = d.ctx.MemFree(f.ptr)
	untrack(d, &d.allocs, f.ptr)
}
