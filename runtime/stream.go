package runtime

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Stream is an ordered queue of work on a device. Algorithms enqueue their
// launches on the stream they are given and return without waiting; on the
// CPU backend they complete before returning.
//
// Streams made by NewStream synchronize with the device's default stream, as
// CUDA's blocking streams do, so host copies (which use the default stream)
// see the results of earlier work on any stream.
type Stream struct {
	dev     *Device
	handle  cuda.Stream
	owned   bool
	closed  atomic.Bool
	scratch streamScratch
}

// DefaultStream returns the device's default stream (CUDA's legacy default
// stream on a GPU). It needs no Close.
func (d *Device) DefaultStream() *Stream { return &d.defaultStream }

// NewStream creates a stream on the device. Close it when done; Device.Close
// destroys the streams still open.
func (d *Device) NewStream() (*Stream, error) { return d.NewStreamWith(StreamOptions{}) }

// StreamOptions configure a stream made by NewStreamWith.
type StreamOptions struct {
	// NonBlocking makes a stream that does not synchronize with the
	// default stream (CU_STREAM_NON_BLOCKING): its work may overlap work on
	// the default stream, and the synchronous host copies (CopyFromHost,
	// CopyToHost, ToHost) no longer wait for it. Order such a stream with
	// Events, and read its results after Synchronize or an Event.
	NonBlocking bool
}

// NewStreamWith creates a stream with options; see NewStream.
func (d *Device) NewStreamWith(o StreamOptions) (*Stream, error) {
	if err := d.enter(); err != nil {
		return nil, fmt.Errorf("gocccl: NewStream: %w", err)
	}
	defer d.exit()
	s := &Stream{dev: d, owned: true}
	if d.ctx != nil {
		h, err := d.ctx.StreamCreate(o.NonBlocking)
		if err != nil {
			return nil, fmt.Errorf("gocccl: creating stream: %w", err)
		}
		s.handle = h
		track(d, &d.streams, h)
	}
	return s, nil
}

// Device returns the stream's device.
func (s *Stream) Device() *Device { return s.dev }

// Synchronize waits until all work enqueued on the stream has finished and
// returns the first error a launch on it reported.
func (s *Stream) Synchronize() error {
	if err := s.unusable(); err != nil {
		return fmt.Errorf("gocccl: Synchronize: %w", err)
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: Synchronize: %w", err)
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		return nil
	}
	if err := s.dev.ctx.StreamSynchronize(s.handle); err != nil {
		return fmt.Errorf("gocccl: synchronizing stream: %w", s.dev.noteFault(err))
	}
	return nil
}

// Close destroys a stream made by NewStream after its work has finished.
// Closing the default stream does nothing; closing twice is an error.
func (s *Stream) Close() error {
	if err := s.unusable(); err != nil {
		return fmt.Errorf("gocccl: Stream.Close: %w", err)
	}
	if !s.owned {
		return nil
	}
	if err := s.dev.enter(); err != nil {
		return fmt.Errorf("gocccl: Stream.Close: %w", err)
	}
	defer s.dev.exit()
	if !s.closed.CompareAndSwap(false, true) {
		return fmt.Errorf("gocccl: Stream.Close: %w", errStreamClosed)
	}
	if s.dev.ctx == nil {
		return nil
	}
	if err := s.freeScratch(); err != nil {
		return fmt.Errorf("gocccl: freeing stream scratch: %w", err)
	}
	untrack(s.dev, &s.dev.streams, s.handle)
	if err := s.dev.ctx.StreamDestroy(s.handle); err != nil {
		return fmt.Errorf("gocccl: destroying stream: %w", err)
	}
	return nil
}

// Time runs fn, which should enqueue work on s, and returns how long the
// device took for that work, measured with CUDA events on a GPU and with the
// wall clock on the CPU backend. It waits for the work to finish. An error
// of fn is returned as it is, on both backends.
func (s *Stream) Time(fn func() error) (time.Duration, error) {
	if err := s.unusable(); err != nil {
		return 0, fmt.Errorf("gocccl: Time: %w", err)
	}
	if s.dev.ctx == nil {
		start := time.Now()
		err := fn()
		return time.Since(start), err
	}
	// Each event operation enters the device on its own: fn enters it too,
	// and must not do so while this goroutine holds it.
	var start, end cuda.Event
	err := s.withContext(func(ctx *cuda.Context) (err error) {
		if start, err = ctx.EventCreate(); err != nil {
			return err
		}
		if end, err = ctx.EventCreate(); err != nil {
			return err
		}
		return ctx.EventRecord(start, s.handle)
	})
	defer s.withContext(func(ctx *cuda.Context) error {
		if start != 0 {
			ctx.EventDestroy(start)
		}
		if end != 0 {
			ctx.EventDestroy(end)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	if err := fn(); err != nil {
		return 0, err // fn's error as it is, as on the CPU backend: it has its own prefix
	}
	var d time.Duration
	err = s.withContext(func(ctx *cuda.Context) (err error) {
		if err = ctx.EventRecord(end, s.handle); err != nil {
			return err
		}
		if err = ctx.EventSynchronize(end); err != nil {
			return err
		}
		d, err = ctx.EventElapsed(start, end)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	return d, nil
}

// withContext runs f with the device's context, inside enter and exit.
func (s *Stream) withContext(f func(*cuda.Context) error) error {
	if err := s.dev.enter(); err != nil {
		return err
	}
	defer s.dev.exit()
	return f(s.dev.ctx)
}

var errStreamClosed = errors.New("stream is closed")

// unusable returns why s cannot be used, without the "gocccl: " prefix, for
// an algorithm to name itself before it; nil when s can be used.
func (s *Stream) unusable() error {
	switch {
	case s == nil:
		return errors.New("nil stream")
	case s.dev == nil:
		return errors.New("uninitialized Stream: use Device.NewStream or Device.DefaultStream")
	case s.closed.Load():
		return errStreamClosed
	}
	return nil
}
