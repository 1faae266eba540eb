package runtime

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"

	"github.com/gocccl/gocccl/internal/iter"
)

// The argument checks that the Runs share, in the order a Run makes them:
// the stream it runs on (streamFor), the buffers it reads and writes
// (usable, and for the calls that check several at once bufferOf,
// checkBuffers, disjoint, atLeast), and whether two Slices share memory
// (span, overlaps, overlapsPartially, same). On good arguments none of
// them allocates (args_test.go), so that a GPU call can make no
// allocation; a bad argument still gets its full message, which names the
// algorithm and the argument.

// streamFor returns the stream a call runs on: s, or the default stream of
// the first buffer's device when s is nil, after checking that s is usable
// and that every buffer (its device given in argument order) lives on the
// stream's device. A nil device, of a composition that reads no buffer, is
// left out (buffer i of the message counts the others); with no device at
// all, s must be given.
func streamFor(alg string, s *Stream, devs ...*Device) (*Stream, error) {
	devs = devices(devs...)
	if len(devs) == 0 && s == nil {
		return nil, fmt.Errorf("gocccl: %s: no buffer tells the device: pass a stream", alg)
	}
	if s == nil {
		s = devs[0].DefaultStream()
	}
	if err := s.unusable(); err != nil {
		return nil, fmt.Errorf("gocccl: %s: %w", alg, err)
	}
	for i, d := range devs {
		if d != s.dev {
			return nil, fmt.Errorf("gocccl: %s: buffer %d (of %d) is on another device than the stream (%s; the stream is on %s): copy it to the stream's device, or run on a stream of its own device",
				alg, i+1, len(devs), d.shortName(), s.dev.shortName())
		}
	}
	return s, nil
}

// devices returns the devices of a call's buffers, leaving out the
// compositions that read none. The result is ds itself when none is nil.
func devices(ds ...*Device) []*Device {
	if !slices.Contains(ds, nil) {
		return ds // every buffer has a device: the common call, which allocates nothing
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// usable reports whether s may be used, without entering its device.
func (s *Slice[T]) usable(op string) error { return s.usableAs(op, "") }

// usableAs is usable for the slice in a role of op ("Select(Even)",
// "input"): the two are joined only when there is an error to report, so
// that the check costs no allocation per call.
func (s *Slice[T]) usableAs(op, role string) error {
	if s != nil && s.dev != nil && s.err == nil && !s.freed && (s.root == nil || !s.root.freed) {
		return nil
	}
	if role != "" {
		op += " " + role
	}
	return fmt.Errorf("gocccl: %s: %w", op, s.unusable())
}

// buffer is one Slice argument of a call, its element type erased, for the
// calls that check their buffers together (the compactions, ReduceByKey).
type buffer struct {
	role   string // "input", "output", … in messages
	err    error  // the Slice's usable error
	dev    *Device
	n      int
	lo, hi uintptr // the bytes it spans, for overlap checks; lo == hi when empty
}

// bufferOf describes s as the argument role of the instance named alg.
func bufferOf[T any](alg, role string, s *Slice[T]) buffer {
	b := buffer{role: role, err: s.usableAs(alg, role)}
	if b.err != nil {
		return b
	}
	b.dev, b.n = s.dev, s.n
	b.lo, b.hi = span(s)
	return b
}

// sinkBuffer describes output a of a compaction as the argument role of
// the instance named alg: a plain buffer, or a composition by the device of
// the buffers it writes (no span to overlap) and its length (unlimited for
// one without a length, such as a Discard).
func sinkBuffer[T any](alg, role string, a sink[T]) buffer {
	if a.it == nil {
		return bufferOf(alg, role, a.s)
	}
	b := buffer{role: role, dev: a.dev(), n: a.len()}
	if b.n < 0 {
		b.n = math.MaxInt
	}
	return b
}

// srcBuffer describes input a of a compaction as the argument role of the
// instance named alg: a plain buffer, or a composition by the device of the
// buffers it reads (which have no span to overlap; ok is false when it
// reads none).
func srcBuffer[T any](alg, role string, a src[T]) (b buffer, ok bool) {
	if a.it == nil {
		return bufferOf(alg, role, a.s), true
	}
	if d := a.dev(); d != nil {
		return buffer{role: role, dev: d, n: a.len()}, true
	}
	return buffer{}, false
}

// written appends to bufs the spans of the buffers that output a writes
// through its composition (its Slice leaves, but the indices that a
// PermutationOutput reads), in the role of the output, so that
// checkBuffers finds one that overlaps an input, the counts or another
// output as it does a plain buffer: the kernels would read what they write.
func (a sink[T]) written(role string, bufs []buffer) []buffer {
	if a.it == nil {
		return bufs
	}
	return a.it.written(role, a.it.root, bufs)
}

// written is sink.written below node n of the composition b.
func (b *boundIter) written(role string, n *iter.Node, bufs []buffer) []buffer {
	switch n.Kind {
	case iter.Slice:
		buf, err := b.env.Buf(n)
		if err != nil || buf.N <= 0 {
			return bufs
		}
		lo := buf.Ptr
		if buf.Host != nil {
			lo = uintptr(reflect.ValueOf(buf.Host).UnsafePointer())
		}
		return append(bufs, buffer{role: role, dev: b.dev, n: int(buf.N), lo: lo, hi: lo + uintptr(buf.N)*n.Type.Size()})
	case iter.PermutationOutput:
		return b.written(role, n.In[0], bufs)
	}
	for _, c := range n.In {
		bufs = b.written(role, c, bufs)
	}
	return bufs
}

// checkBuffers checks that every buffer is usable and on the stream's device
// (s nil: the first buffer's default stream), and that no two overlap: the
// compactions read their inputs while they write their outputs.
func checkBuffers(alg string, s *Stream, bufs ...buffer) (*Stream, error) {
	// The devices in an array on the stack: a call allocates nothing (a
	// slice made at run time longer than 32 bytes would be on the heap).
	var room [8]*Device
	devs := room[:0]
	for _, b := range bufs {
		if b.err != nil {
			return nil, b.err
		}
		devs = append(devs, b.dev)
	}
	s, err := streamFor(alg, s, devs...) // a composition that touches no buffer has no device
	if err != nil {
		return nil, err
	}
	if err := disjoint(alg, bufs...); err != nil {
		return nil, err
	}
	return s, nil
}

// disjoint returns an error naming the first two buffers that share memory.
func disjoint(alg string, bufs ...buffer) error {
	for i, a := range bufs {
		for _, b := range bufs[i+1:] {
			if spansOverlap(a.lo, a.hi, b.lo, b.hi) {
				return fmt.Errorf("gocccl: %s: the %s and the %s overlap", alg, a.role, b.role)
			}
		}
	}
	return nil
}

// atLeast returns an error unless buffer b holds at least n elements.
func (b buffer) atLeast(alg string, n int, why string) error {
	if b.n < n {
		return fmt.Errorf("gocccl: %s: the %s has %d elements, fewer than the %d %s", alg, b.role, b.n, n, why)
	}
	return nil
}

// span returns the address range [lo, hi) that s's elements occupy: device
// addresses on a GPU, host addresses on the CPU backend; [0, 0) when s is
// empty.
func span[T any](s *Slice[T]) (lo, hi uintptr) {
	if s.n == 0 {
		return 0, 0
	}
	if s.host != nil {
		lo = uintptr(unsafe.Pointer(unsafe.SliceData(s.host)))
	} else {
		lo = uintptr(s.ptr)
	}
	return lo, lo + uintptr(s.bytes())
}

// spansOverlap reports whether the spans [alo, ahi) and [blo, bhi) share a
// byte. An empty span, [0, 0) as span gives it, shares none.
func spansOverlap(alo, ahi, blo, bhi uintptr) bool { return alo < bhi && blo < ahi }

// overlaps reports whether a and b share memory.
func overlaps[A, B any](a *Slice[A], b *Slice[B]) bool {
	alo, ahi := span(a)
	blo, bhi := span(b)
	return spansOverlap(alo, ahi, blo, bhi)
}

// overlapsPartially reports whether a and b share memory without being the
// same elements.
func overlapsPartially[A, B any](a *Slice[A], b *Slice[B]) bool {
	alo, ahi := span(a)
	blo, bhi := span(b)
	return overlaps(a, b) && (alo != blo || ahi != bhi)
}

// same reports whether two slices are the same memory: they overlap, and
// exactly (two empty slices are not the same).
func same[T any](a, b *Slice[T]) bool { return overlaps(a, b) && !overlapsPartially(a, b) }
