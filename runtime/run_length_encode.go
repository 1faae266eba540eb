package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// RunLengthEncodeOp finds the runs of consecutive equal elements, as
// cub::DeviceRunLengthEncode does.
type RunLengthEncodeOp[T any] struct {
	instance
	eq func(T, T) bool
}

// RunLengthEncode declares a run-length encoding with eq, a //gocccl:op
// function called as eq(previous, next) that reports whether next continues
// previous's run.
func RunLengthEncode[T any](eq func(T, T) bool) *RunLengthEncodeOp[T] {
	return &RunLengthEncodeOp[T]{eq: eq, instance: newInstance(algo.RunLengthEncode, []any{eq}, reflect.TypeFor[T]())}
}

// The kernels of a RunLengthEncode instance, by their suffix in its
// description; its init kernel is the compactions' (compactionInit).
var (
	rleEncode     = kernelIndex("sweep", algo.RunLengthEncode)
	rleNonTrivial = kernelIndex("nontrivial", algo.RunLengthEncode)
)

// Run writes the first element of every run of consecutive elements of in
// that eq finds equal to the front of unique, the run's length to the same
// index of lengths, and the number of runs to count[0] (as
// cub::DeviceRunLengthEncode::Encode). unique and lengths hold at least
// in.Len() elements; no two buffers overlap. It is enqueued on s (nil means
// the default stream of in's device).
func (o *RunLengthEncodeOp[T]) Run(s *Stream, in, unique *Slice[T], lengths, count *Slice[int64]) error {
	if o == nil || o.eq == nil {
		return errNilOperator("RunLengthEncode")
	}
	name := o.name()
	bin, bunique := bufferOf(name, "input", in), bufferOf(name, "unique output", unique)
	blengths, bcount := bufferOf(name, "lengths output", lengths), bufferOf(name, "count", count)
	s, err := o.check(s, in.n, bin, bunique, blengths, bcount)
	if err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		k, err := rleCPU(o.eq, in.host, unique.host, nil, lengths.host, false, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(unique.ptr)
	args.Ptr(lengths.ptr)
	args.Ptr(count.ptr)
	return o.compact(s, in.n, rleEncode, true, count.ptr, &args)
}

// RunNonTrivial writes, for every run of more than one consecutive element
// of in that eq finds equal, the index of its first element to the front of
// offsets and its length to the same index of lengths, and their number to
// count[0] (as cub::DeviceRunLengthEncode::NonTrivialRuns). offsets and
// lengths hold at least in.Len()/2 elements; no two buffers overlap. It is
// enqueued on s (nil means the default stream of in's device).
func (o *RunLengthEncodeOp[T]) RunNonTrivial(s *Stream, in *Slice[T], offsets, lengths, count *Slice[int64]) error {
	if o == nil || o.eq == nil {
		return errNilOperator("RunLengthEncode")
	}
	name := o.name()
	bin, boffsets := bufferOf(name, "input", in), bufferOf(name, "offsets output", offsets)
	blengths, bcount := bufferOf(name, "lengths output", lengths), bufferOf(name, "count", count)
	s, err := o.check(s, in.n/2, bin, boffsets, blengths, bcount) // a non-trivial run has two elements or more
	if err != nil {
		return err
	}
	if err := o.enter(s.dev); err != nil {
		return o.wrap(err, "")
	}
	defer s.dev.exit()
	if s.dev.ctx == nil {
		k, err := rleCPU(o.eq, in.host, nil, offsets.host, lengths.host, true, s.dev.info.Workers)
		if err != nil {
			return o.wrap(err, "")
		}
		count.host[0] = int64(k)
		return nil
	}
	var args cuda.Args
	args.Ptr(in.ptr)
	args.Ptr(offsets.ptr)
	args.Ptr(lengths.ptr)
	args.Ptr(count.ptr)
	return o.compact(s, in.n, rleNonTrivial, true, count.ptr, &args)
}

// check checks the buffers of Run or RunNonTrivial (input, two outputs,
// count): the outputs hold the most runs the call can write.
func (o *RunLengthEncodeOp[T]) check(s *Stream, runs int, in, out1, out2, count buffer) (*Stream, error) {
	name := o.name()
	s, err := checkBuffers(name, s, in, out1, out2, count)
	if err != nil {
		return nil, err
	}
	for _, b := range []buffer{out1, out2} {
		if err := b.atLeast(name, runs, "runs it may receive"); err != nil {
			return nil, err
		}
	}
	if err := count.atLeast(name, 1, "count it receives"); err != nil {
		return nil, err
	}
	return s, nil
}

// TempStorageBytes returns the device scratch memory a Run or RunNonTrivial
// over n elements on d uses, as SelectOp.TempStorageBytes; 0 on the CPU
// backend.
func (o *RunLengthEncodeOp[T]) TempStorageBytes(d *Device, n int) (int, error) {
	if o == nil || o.eq == nil {
		return 0, errNilOperator("RunLengthEncode")
	}
	return o.compactionScratch(d, n, true)
}
