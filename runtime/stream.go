package runtime

import (
	"errors"
	"fmt"
	"time"

	"github.com/gocccl/gocccl/runtime/cuda"
)

// Stream is an ordered queue of work on a device. Algorithms enqueue their
// launches on the stream they are given and return without waiting; on the
// CPU backend they complete before returning.
//
// Streams made by NewStream synchronize with the device's default stream, as
// CUDA's blocking streams do, so host copies (which use the default stream)
// see the results of earlier work on any stream.
type Stream struct {
	dev    *Device
	handle cuda.Stream
	owned  bool
	closed bool
}

// DefaultStream returns the device's default stream (CUDA's legacy default
// stream on a GPU). It needs no Close.
func (d *Device) DefaultStream() *Stream { return &d.defaultStream }

// NewStream creates a stream on the device. Close it when done.
func (d *Device) NewStream() (*Stream, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	s := &Stream{dev: d, owned: true}
	if d.ctx != nil {
		h, err := d.ctx.StreamCreate(false)
		if err != nil {
			return nil, fmt.Errorf("gocccl: creating stream: %w", err)
		}
		s.handle = h
	}
	return s, nil
}

// Device returns the stream's device.
func (s *Stream) Device() *Device { return s.dev }

// Synchronize waits until all work enqueued on the stream has finished and
// returns the first error a launch on it reported.
func (s *Stream) Synchronize() error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.dev.ctx == nil {
		return nil
	}
	if err := s.dev.ctx.StreamSynchronize(s.handle); err != nil {
		return fmt.Errorf("gocccl: synchronizing stream: %w", err)
	}
	return nil
}

// Close destroys a stream made by NewStream after its work has finished.
// Closing the default stream does nothing.
func (s *Stream) Close() error {
	if !s.owned {
		return nil
	}
	if err := s.usable(); err != nil {
		return err
	}
	s.closed = true
	if s.dev.ctx == nil {
		return nil
	}
	if err := s.dev.ctx.StreamDestroy(s.handle); err != nil {
		return fmt.Errorf("gocccl: destroying stream: %w", err)
	}
	return nil
}

// Time runs fn, which should enqueue work on s, and returns how long the
// device took for that work, measured with CUDA events on a GPU and with the
// wall clock on the CPU backend. It waits for the work to finish.
func (s *Stream) Time(fn func() error) (time.Duration, error) {
	if err := s.usable(); err != nil {
		return 0, err
	}
	ctx := s.dev.ctx
	if ctx == nil {
		start := time.Now()
		err := fn()
		return time.Since(start), err
	}
	start, err := ctx.EventCreate()
	if err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	defer ctx.EventDestroy(start)
	end, err := ctx.EventCreate()
	if err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	defer ctx.EventDestroy(end)
	if err := ctx.EventRecord(start, s.handle); err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	if err := fn(); err != nil {
		return 0, err
	}
	if err := ctx.EventRecord(end, s.handle); err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	if err := ctx.EventSynchronize(end); err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	d, err := ctx.EventElapsed(start, end)
	if err != nil {
		return 0, fmt.Errorf("gocccl: timing: %w", err)
	}
	return d, nil
}

var errStreamClosed = errors.New("gocccl: stream is closed")

func (s *Stream) usable() error {
	if s == nil {
		return errors.New("gocccl: nil stream")
	}
	if s.closed {
		return errStreamClosed
	}
	return s.dev.check()
}
