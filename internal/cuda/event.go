package cuda

import "time"

// Event is a CUDA event handle (CUevent).
type Event uintptr

// EventFlags are the flags of cuEventCreate.
type EventFlags uint32

const (
	// EventBlockingSync makes EventSynchronize block the calling thread
	// instead of spinning (CU_EVENT_BLOCKING_SYNC).
	EventBlockingSync EventFlags = 0x1
	// EventDisableTiming makes an event that records no time, cheaper to
	// record and wait for (CU_EVENT_DISABLE_TIMING).
	EventDisableTiming EventFlags = 0x2
)

// EventCreate creates an event that records timing (cuEventCreate with
// CU_EVENT_DEFAULT).
func (c *Context) EventCreate() (Event, error) { return c.EventCreateFlags(0) }

// EventCreateFlags creates an event with flags (cuEventCreate).
func (c *Context) EventCreateFlags(flags EventFlags) (Event, error) {
	const call = "cuEventCreate"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	e, r := cuEventCreate(h, flags)
	return e, check(call, r)
}

// EventRecord records e on stream s: it completes when the work queued on s
// before it does (cuEventRecord).
func (c *Context) EventRecord(e Event, s Stream) error {
	const call = "cuEventRecord"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuEventRecord(h, e, s))
}

// EventSynchronize waits until e has completed (cuEventSynchronize).
func (c *Context) EventSynchronize(e Event) error {
	const call = "cuEventSynchronize"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuEventSynchronize(h, e))
}

// EventElapsed returns the time between two completed events
// (cuEventElapsedTime), with a resolution of about half a microsecond.
func (c *Context) EventElapsed(start, end Event) (time.Duration, error) {
	const call = "cuEventElapsedTime"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	ms, r := cuEventElapsedTime(h, start, end)
	if err := check(call, r); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// EventDestroy destroys an event made by [Context.EventCreate]
// (cuEventDestroy).
func (c *Context) EventDestroy(e Event) error {
	const call = "cuEventDestroy"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuEventDestroy(h, e))
}

// EventQuery reports whether e has completed (cuEventQuery): true when it
// has, false while work before it is still running.
func (c *Context) EventQuery(e Event) (bool, error) {
	const call = "cuEventQuery"
	h, err := c.enter(call)
	if err != nil {
		return false, err
	}
	defer c.exit()
	r := cuEventQuery(h, e)
	if r == ErrorNotReady {
		return false, nil
	}
	return true, check(call, r)
}

// StreamWaitEvent makes the work queued on s after this call wait until e
// has completed (cuStreamWaitEvent); the host does not wait.
func (c *Context) StreamWaitEvent(s Stream, e Event) error {
	const call = "cuStreamWaitEvent"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuStreamWaitEvent(h, s, e))
}
