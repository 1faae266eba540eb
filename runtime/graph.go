package runtime

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gocccl/gocccl/internal/cuda"
)

// Graph is a sequence of calls captured once on a stream and replayed with
// Launch, each replay enqueued with one driver call (a CUDA graph). A
// captured call allocates nothing outside the stream and never waits, so
// every algorithm can be captured; the buffers it was given are bound into
// the graph, so they must stay allocated (and the stream open) until the
// graph is closed. Write new inputs into the same buffers between replays.
//
// On the CPU backend a Graph keeps the function it was captured from and
// Launch calls it again.
type Graph struct {
	s    *Stream
	fn   func() error // CPU backend
	mu   sync.Mutex
	exec cuda.GraphExec
	g    cuda.Graph
	done bool
}

// Capture runs fn, which should enqueue work on s, and records that work as a
// Graph instead of running it (on a GPU; the CPU backend runs nothing until
// Launch). s must be a stream made by NewStream: CUDA cannot capture the
// legacy default stream.
func (s *Stream) Capture(fn func() error) (*Graph, error) {
	if err := s.unusable(); err != nil {
		return nil, fmt.Errorf("gocccl: Capture: %w", err)
	}
	if fn == nil {
		return nil, errors.New("gocccl: Capture: nil function")
	}
	if s.dev.ctx == nil {
		return &Graph{s: s, fn: fn}, nil
	}
	if !s.owned {
		return nil, errors.New("gocccl: Capture: CUDA cannot capture the default stream; capture on a stream made by NewStream")
	}
	// The stream's scratch exists before the capture, so no call allocates.
	if err := s.withContext(func(*cuda.Context) error { _, err := s.zeroedScratch(scratchMin); return err }); err != nil {
		return nil, fmt.Errorf("gocccl: Capture: %w", err)
	}
	if err := s.withContext(func(ctx *cuda.Context) error { return ctx.StreamBeginCapture(s.handle) }); err != nil {
		return nil, fmt.Errorf("gocccl: Capture: %w", err)
	}
	s.setCapturing(true)
	ferr := fn()
	var g cuda.Graph
	err := s.withContext(func(ctx *cuda.Context) (err error) { g, err = ctx.StreamEndCapture(s.handle); return err })
	s.setCapturing(false)
	if ferr != nil || err != nil {
		if g != 0 {
			s.withContext(func(ctx *cuda.Context) error { return ctx.GraphDestroy(g) })
		}
		if ferr != nil {
			return nil, ferr
		}
		return nil, fmt.Errorf("gocccl: Capture: %w", err)
	}
	var exec cuda.GraphExec
	if err := s.withContext(func(ctx *cuda.Context) (err error) { exec, err = ctx.GraphInstantiate(g); return err }); err != nil {
		s.withContext(func(ctx *cuda.Context) error { return ctx.GraphDestroy(g) })
		return nil, fmt.Errorf("gocccl: Capture: %w", err)
	}
	s.graphCaptured()
	return &Graph{s: s, g: g, exec: exec}, nil
}

// Launch enqueues the captured work on the stream it was captured on.
func (g *Graph) Launch() error {
	if g == nil || g.s == nil {
		return errors.New("gocccl: Graph.Launch: nil or zero Graph; use Stream.Capture")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return errors.New("gocccl: Graph.Launch: the graph is closed")
	}
	if g.fn != nil {
		return g.fn()
	}
	if err := g.s.withContext(func(ctx *cuda.Context) error { return ctx.GraphLaunch(g.exec, g.s.handle) }); err != nil {
		return fmt.Errorf("gocccl: Graph.Launch: %w", err)
	}
	return nil
}

// Close releases the graph. Replays already enqueued still run.
func (g *Graph) Close() error {
	if g == nil || g.s == nil {
		return errors.New("gocccl: Graph.Close: nil or zero Graph")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return errors.New("gocccl: Graph.Close: closed twice")
	}
	g.done = true
	if g.fn != nil {
		g.fn = nil
		return nil
	}
	// Replays already enqueued keep the stream's scratch they recorded: it
	// is freed with the stream at the earliest.
	g.s.graphClosed()
	if err := g.s.withContext(func(ctx *cuda.Context) error {
		return errors.Join(ctx.GraphExecDestroy(g.exec), ctx.GraphDestroy(g.g))
	}); err != nil {
		return fmt.Errorf("gocccl: Graph.Close: %w", err)
	}
	return nil
}
