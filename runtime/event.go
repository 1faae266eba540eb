package runtime

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Event marks a point in a stream's work: record it on one stream, and
// another stream can wait for it (Stream.Wait) without the host waiting, the
// host can ask whether it has passed (Query) or wait for it (Synchronize),
// and two recorded events give the device time between them (Elapsed). On
// the CPU backend, whose work completes before each call returns, an event
// records the wall clock and has always passed.
type Event struct {
	dev    *Device
	handle cuda.Event
	timing bool
	at     time.Time // CPU backend: when it was recorded
	closed atomic.Bool
}

// NewEvent creates an event that also records time, for Elapsed.
func (d *Device) NewEvent() (*Event, error) { return d.newEvent(true) }

// NewSyncEvent creates an event without timing, cheaper to record and wait
// for: for ordering streams and waiting, not for Elapsed.
func (d *Device) NewSyncEvent() (*Event, error) { return d.newEvent(false) }

func (d *Device) newEvent(timing bool) (*Event, error) {
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: NewEvent: %w", err)
	}
	defer d.exit()
	e := &Event{dev: d, timing: timing}
	if d.ctx == nil {
		return e, nil
	}
	flags := cuda.EventDisableTiming
	if timing {
		flags = 0
	}
	h, err := d.ctx.EventCreateFlags(flags)
	if err != nil {
		return nil, fmt.Errorf("gocccl: NewEvent: %w", d.noteFault(err))
	}
	e.handle = h
	track(d, &d.events, h)
	return e, nil
}

var errEventClosed = errors.New("event is closed")

// use checks e (and st, with onStream: nil is the default stream) for op
// and enters the device; the caller exits.
func (e *Event) use(op string, st *Stream, onStream bool) (*Stream, error) {
	switch {
	case e == nil:
		return nil, fmt.Errorf("gocccl: %s: nil event", op)
	case e.dev == nil:
		return nil, fmt.Errorf("gocccl: %s: uninitialized Event: use Device.NewEvent", op)
	case e.closed.Load():
		return nil, fmt.Errorf("gocccl: %s: %w", op, errEventClosed)
	}
	if onStream {
		var err error
		if st, err = streamFor(op, st, e.dev); err != nil {
			return nil, err
		}
	}
	if err := e.dev.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", op, err)
	}
	return st, nil
}

// Record marks the current end of st's queued work (nil: the device's
// default stream): the event passes when that work has completed.
// Recording again moves the mark.
func (e *Event) Record(st *Stream) error {
	const op = "Event.Record"
	st, err := e.use(op, st, true)
	if err != nil {
		return err
	}
	defer e.dev.exit()
	if e.dev.ctx == nil {
		e.at = time.Now()
		return nil
	}
	if err := e.dev.ctx.EventRecord(e.handle, st.handle); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, e.dev.noteFault(err))
	}
	return nil
}

// Wait makes the work enqueued on s after this call wait until e has passed,
// without blocking the host: e may be recorded on another stream of the same
// device.
func (s *Stream) Wait(e *Event) error {
	const op = "Stream.Wait"
	st, err := e.use(op, s, true)
	if err != nil {
		return err
	}
	defer e.dev.exit()
	if e.dev.ctx == nil {
		return nil
	}
	if err := e.dev.ctx.StreamWaitEvent(st.handle, e.handle); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, e.dev.noteFault(err))
	}
	return nil
}

// Query reports whether e has passed: true once the work before its last
// Record has completed (and for an event never recorded).
func (e *Event) Query() (bool, error) {
	const op = "Event.Query"
	if _, err := e.use(op, nil, false); err != nil {
		return false, err
	}
	defer e.dev.exit()
	if e.dev.ctx == nil {
		return true, nil
	}
	done, err := e.dev.ctx.EventQuery(e.handle)
	if err != nil {
		return false, fmt.Errorf("gocccl: %s: %w", op, e.dev.noteFault(err))
	}
	return done, nil
}

// Synchronize waits until e has passed.
func (e *Event) Synchronize() error {
	const op = "Event.Synchronize"
	if _, err := e.use(op, nil, false); err != nil {
		return err
	}
	defer e.dev.exit()
	if e.dev.ctx == nil {
		return nil
	}
	if err := e.dev.ctx.EventSynchronize(e.handle); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, e.dev.noteFault(err))
	}
	return nil
}

// Elapsed returns the device time from start's last Record to e's; both
// must have passed, and both be timing events (NewEvent) of one device.
func (e *Event) Elapsed(start *Event) (time.Duration, error) {
	const op = "Event.Elapsed"
	if _, err := start.use(op, nil, false); err != nil {
		return 0, err
	}
	start.dev.exit()
	if _, err := e.use(op, nil, false); err != nil {
		return 0, err
	}
	defer e.dev.exit()
	if start.dev != e.dev {
		return 0, fmt.Errorf("gocccl: %s: the events are of two devices (%s, %s)", op, start.dev.shortName(), e.dev.shortName())
	}
	if !e.timing || !start.timing {
		return 0, fmt.Errorf("gocccl: %s: an event made by NewSyncEvent records no time: use NewEvent", op)
	}
	if e.dev.ctx == nil {
		return e.at.Sub(start.at), nil
	}
	d, err := e.dev.ctx.EventElapsed(start.handle, e.handle)
	if err != nil {
		return 0, fmt.Errorf("gocccl: %s: %w", op, e.dev.noteFault(err))
	}
	return d, nil
}

// Close destroys the event; Device.Close destroys those still open. Closing
// twice is an error.
func (e *Event) Close() error {
	const op = "Event.Close"
	if _, err := e.use(op, nil, false); err != nil {
		return err
	}
	defer e.dev.exit()
	if !e.closed.CompareAndSwap(false, true) {
		return fmt.Errorf("gocccl: %s: %w", op, errEventClosed)
	}
	if e.dev.ctx == nil {
		return nil
	}
	untrack(e.dev, &e.dev.events, e.handle)
	if err := e.dev.ctx.EventDestroy(e.handle); err != nil {
		return fmt.Errorf("gocccl: %s: %w", op, err)
	}
	return nil
}
