package main

import (
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// job holds the device side of the pipeline, allocated once and reused by
// every run: two streams, each with its chunk's buffers, the partial groups
// of every chunk, and the buffers of the final merge.
type job struct {
	dev                *runtime.Device
	rows, chunk, bitsK int
	streams            [2]*runtime.Stream
	bufs               [2]chunkBufs
	// partKeys and partSums hold chunk i's groups from row i*chunk on;
	// counts[i] is how many.
	partKeys *runtime.Slice[int64]
	partSums *runtime.Slice[float64]
	counts   *runtime.Slice[int64]
	// The merge: every chunk's groups side by side, sorted, reduced.
	mergeK, mergeV, sortedK, sortedV, final *runtime.Slice[int64]
	mergeS, sortedS, finalS                 *runtime.Slice[float64]
	finalN                                  *runtime.Slice[int64]
	outKeys                                 *runtime.Pinned[int64]
	outSums                                 *runtime.Pinned[float64]
	owned                                   []interface{ Free() error }
}

type chunkBufs struct {
	keysIn, keysOut *runtime.Slice[int64]
	valsIn, valsOut *runtime.Slice[float64]
}

// result is the groups in key order, in the job's pinned output buffers.
type result struct {
	keys []int64
	sums []float64
}

func newJob(dev *runtime.Device, rows, chunk, groups int) (*job, error) {
	j := &job{dev: dev, rows: rows, chunk: chunk, bitsK: keyBits(groups)}
	chunks := (rows + chunk - 1) / chunk
	merged := chunks * min(chunk, groups) // at most this many partial groups
	var err error
	for i := range j.streams {
		if j.streams[i], err = dev.NewStreamWith(runtime.StreamOptions{NonBlocking: true}); err != nil {
			return nil, err
		}
		b := &j.bufs[i]
		b.keysIn, b.keysOut = alloc[int64](j, &err, chunk), alloc[int64](j, &err, chunk)
		b.valsIn, b.valsOut = alloc[float64](j, &err, chunk), alloc[float64](j, &err, chunk)
	}
	j.partKeys, j.partSums, j.counts = alloc[int64](j, &err, rows), alloc[float64](j, &err, rows), alloc[int64](j, &err, chunks)
	j.mergeK, j.sortedK, j.final = alloc[int64](j, &err, merged), alloc[int64](j, &err, merged), alloc[int64](j, &err, merged)
	j.mergeS, j.sortedS, j.finalS = alloc[float64](j, &err, merged), alloc[float64](j, &err, merged), alloc[float64](j, &err, merged)
	j.finalN = alloc[int64](j, &err, 1)
	if err != nil {
		j.free()
		return nil, err
	}
	if j.outKeys, err = runtime.AllocPinned[int64](dev, merged); err != nil {
		j.free()
		return nil, err
	}
	if j.outSums, err = runtime.AllocPinned[float64](dev, merged); err != nil {
		j.free()
		return nil, err
	}
	return j, nil
}

// alloc allocates n elements for j unless an earlier allocation failed.
func alloc[T any](j *job, err *error, n int) *runtime.Slice[T] {
	if *err != nil {
		return nil
	}
	s, e := runtime.Alloc[T](j.dev, n)
	if e != nil {
		*err = fmt.Errorf("allocating %d elements: %w", n, e)
		return nil
	}
	j.owned = append(j.owned, s)
	return s
}

func (j *job) free() {
	for _, s := range j.owned {
		s.Free()
	}
	for _, p := range []interface{ Free() error }{j.outKeys, j.outSums} {
		if p != nil {
			p.Free()
		}
	}
	for _, s := range j.streams {
		if s != nil {
			s.Close()
		}
	}
}

// run aggregates the table. Chunk i goes to stream i mod 2: its upload
// waits only for that stream's chunk before it (which used the same
// buffers), so it overlaps the other stream's sort and reduction. upload or
// compute alone time one side of the overlap (the result is then not
// meaningful).
func (j *job) run(t *table, upload, compute bool) (result, error) {
	opts := runtime.RadixOptions{EndBit: j.bitsK}
	chunks := (j.rows + j.chunk - 1) / j.chunk
	for i := range chunks {
		lo, hi := i*j.chunk, min((i+1)*j.chunk, j.rows)
		st, b, m := j.streams[i%2], j.bufs[i%2], hi-lo
		kIn, vIn := b.keysIn.Range(0, m), b.valsIn.Range(0, m)
		if upload {
			if err := kIn.CopyFromPinned(st, t.keys.Range(lo, hi)); err != nil {
				return result{}, err
			}
			if err := vIn.CopyFromPinned(st, t.vals.Range(lo, hi)); err != nil {
				return result{}, err
			}
		}
		if !compute {
			continue
		}
		kOut, vOut := b.keysOut.Range(0, m), b.valsOut.Range(0, m)
		if err := SortRows.Run(st, kIn, kOut, vIn, vOut, opts); err != nil {
			return result{}, fmt.Errorf("chunk %d: %w", i, err)
		}
		if err := SumRuns.Run(st, kOut, vOut, j.partKeys.Range(lo, hi), j.partSums.Range(lo, hi), j.counts.Range(i, i+1)); err != nil {
			return result{}, fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	for _, st := range j.streams {
		if err := st.Synchronize(); err != nil {
			return result{}, err
		}
	}
	if !compute {
		return result{}, nil
	}
	return j.merge(chunks)
}

// merge gathers every chunk's groups, sorts and reduces them once more, and
// brings the groups back to the host.
func (j *job) merge(chunks int) (result, error) {
	st := j.streams[0]
	counts, err := j.counts.ToHost()
	if err != nil {
		return result{}, err
	}
	n := 0
	for i, c := range counts {
		lo := i * j.chunk
		if err := j.mergeK.Range(n, n+int(c)).CopyFrom(st, j.partKeys.Range(lo, lo+int(c))); err != nil {
			return result{}, err
		}
		if err := j.mergeS.Range(n, n+int(c)).CopyFrom(st, j.partSums.Range(lo, lo+int(c))); err != nil {
			return result{}, err
		}
		n += int(c)
	}
	opts := runtime.RadixOptions{EndBit: j.bitsK}
	if err := SortRows.Run(st, j.mergeK.Range(0, n), j.sortedK.Range(0, n), j.mergeS.Range(0, n), j.sortedS.Range(0, n), opts); err != nil {
		return result{}, fmt.Errorf("merge: %w", err)
	}
	if err := SumRuns.Run(st, j.sortedK.Range(0, n), j.sortedS.Range(0, n), j.final.Range(0, n), j.finalS.Range(0, n), j.finalN); err != nil {
		return result{}, fmt.Errorf("merge: %w", err)
	}
	// ToHost runs on the legacy default stream, which a non-blocking
	// stream does not order with: wait for the merge first.
	if err := st.Synchronize(); err != nil {
		return result{}, err
	}
	total, err := j.finalN.ToHost()
	if err != nil {
		return result{}, err
	}
	g := int(total[0])
	keys, sums := j.outKeys.Range(0, g), j.outSums.Range(0, g)
	if err := j.final.Range(0, g).CopyToPinned(st, keys); err != nil {
		return result{}, err
	}
	if err := j.finalS.Range(0, g).CopyToPinned(st, sums); err != nil {
		return result{}, err
	}
	if err := st.Synchronize(); err != nil {
		return result{}, err
	}
	return result{keys: keys.Host(), sums: sums.Host()}, nil
}
