package runtime

import (
	"fmt"
	"strings"
	"testing"
)

// Mistakes that FuzzRunArgs makes, one bit each of its misuse argument.
const (
	fuzzRangeIn       = 1 << iota // the input is in.Range(inLo, inHi)
	fuzzRangeOut                  // the output is out.Range(outLo, outHi)
	fuzzRangeTwice                // the input view is ranged again, as a whole
	fuzzFreeIn                    // the input's allocation is freed
	fuzzFreeOut                   // the output's allocation is freed
	fuzzForeignIn                 // the input is on another device
	fuzzForeignOut                // the output is on another device
	fuzzNilCount                  // the count buffer is nil
	fuzzZeroCount                 // the count buffer is a zero Slice
	fuzzFreeCount                 // the count buffer is freed
	fuzzForeignCount              // the count buffer is on another device
	fuzzEmptyCount                // the count buffer has no element
	fuzzClosedStream              // the stream is closed
	fuzzForeignStream             // the stream is another device's
	fuzzZeroStream                // the stream is a zero Stream
	fuzzClosedDevice              // the input is on a closed device
)

// FuzzRunArgs calls each algorithm of misuseCalls on the CPU backend with
// an input of n items and an output of the length the call needs plus
// outDelta, either of them possibly a Range view with fuzzed bounds, and
// with the mistakes that the bits of misuse select: freed buffers, buffers
// and streams of another device, a closed device, nil, zero or empty count
// buffers, closed or zero streams, bad or chained Ranges. A call must
// never panic; it must succeed exactly when its arguments are valid (every
// buffer usable, on the stream's device, the output as long as the algorithm
// requires and the
// count buffer present where the algorithm writes one); and its error must
// start with exactly one "gocccl: ".
func FuzzRunArgs(f *testing.F) {
	d, err := Open(CPU)
	if err != nil {
		f.Fatal(err)
	}
	other, err := Open(CPU)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		d.Close()
		other.Close()
	})
	closedStream, err := d.NewStream()
	if err != nil {
		f.Fatal(err)
	}
	if err := closedStream.Close(); err != nil {
		f.Fatal(err)
	}
	closed, err := Open(CPU)
	if err != nil {
		f.Fatal(err)
	}
	onClosed, err := Alloc[uint32](closed, 10)
	if err != nil {
		f.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		f.Fatal(err)
	}
	calls := misuseCalls()

	f.Fuzz(func(t *testing.T, alg uint8, n uint16, inLo, inHi int, outDelta int8, outLo, outHi int, misuse uint16) {
		c := calls[int(alg)%len(calls)]
		size := int(n) % 4097
		has := func(bit int) bool { return int(misuse)&bit != 0 }
		devOf := func(bit int) *Device {
			if has(bit) {
				return other
			}
			return d
		}
		valid := true
		inRange := func(lo, hi, n int) bool { return 0 <= lo && lo <= hi && hi <= n }

		in, err := Alloc[uint32](devOf(fuzzForeignIn), size)
		if err != nil {
			t.Fatal(err)
		}
		inDev, inLen := in.Device(), size
		if has(fuzzClosedDevice) {
			in, inDev, inLen, valid = onClosed, closed, onClosed.Len(), false
		}
		inRoot := in
		if has(fuzzRangeIn) {
			in = in.Range(inLo, inHi)
			if inRange(inLo, inHi, inLen) {
				inLen = inHi - inLo
			} else {
				valid = false
			}
		}
		if has(fuzzRangeTwice) {
			in = in.Range(0, inLen)
		}
		if has(fuzzFreeIn) && !has(fuzzClosedDevice) {
			if err := inRoot.Free(); err != nil {
				t.Fatal(err)
			}
			valid = false
		}

		devs := []*Device{inDev}
		var out *Slice[uint32]
		if c.outLen(1) > 0 {
			out, err = Alloc[uint32](devOf(fuzzForeignOut), max(0, c.outLen(size)+int(outDelta)))
			if err != nil {
				t.Fatal(err)
			}
			outRoot, outLen := out, out.Len()
			if has(fuzzRangeOut) {
				out = out.Range(outLo, outHi)
				if inRange(outLo, outHi, outLen) {
					outLen = outHi - outLo
				} else {
					valid = false
				}
			}
			if has(fuzzFreeOut) {
				if err := outRoot.Free(); err != nil {
					t.Fatal(err)
				}
				valid = false
			}
			if need := c.outLen(inLen); outLen < need || exactOutput[c.name] && outLen != need {
				valid = false
			}
			devs = append(devs, outRoot.Device())
		}

		count, err := Alloc[int64](devOf(fuzzForeignCount), 1)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case has(fuzzNilCount):
			count = nil
		case has(fuzzZeroCount):
			count = &Slice[int64]{}
		case has(fuzzEmptyCount):
			count = count.Range(0, 0)
		}
		if c.hasCount {
			if count == nil || count.Device() == nil || count.Len() == 0 {
				valid = false
			} else {
				devs = append(devs, count.Device())
			}
			if has(fuzzFreeCount) && count != nil && count.Device() != nil {
				root := count
				if count.root != nil {
					root = count.root
				}
				if err := root.Free(); err != nil {
					t.Fatal(err)
				}
				valid = false
			}
		}

		var s *Stream
		switch {
		case has(fuzzZeroStream):
			s, valid = &Stream{}, false
		case has(fuzzClosedStream):
			s, valid = closedStream, false
		case has(fuzzForeignStream):
			s = other.DefaultStream()
		}
		streamDev := devs[0]
		if s != nil {
			streamDev = s.dev
		}
		for _, dev := range devs {
			if dev != streamDev {
				valid = false
			}
		}

		err = runSafely(t, c, s, in, out, count)
		if valid != (err == nil) {
			t.Fatalf("%s over %d items (misuse %#x): %v; want valid %v", c.name, inLen, misuse, err, valid)
		}
		if err == nil {
			return
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "gocccl: ") {
			t.Errorf("%s: error %q does not start with \"gocccl: \"", c.name, msg)
		}
		if strings.Count(msg, "gocccl: ") != 1 {
			t.Errorf("%s: error %q has more than one \"gocccl: \"", c.name, msg)
		}
	})
}

// exactOutput names the algorithms of misuseCalls whose output must have
// exactly the input's length; the others take a longer one.
var exactOutput = map[string]bool{
	"InclusiveScan":      true,
	"ExclusiveScan":      true,
	"RadixSortKeys":      true,
	"UnaryTransform":     true,
	"AdjacentDifference": true,
}

// runSafely is callSafely for a fuzz target: a panic fails it at once.
func runSafely(t *testing.T, c misuseCall, s *Stream, in, out *Slice[uint32], count *Slice[int64]) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v", c.name, p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return c.run(s, in, out, count)
}
