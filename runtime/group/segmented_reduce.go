package group

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gocccl/gocccl/runtime"
)

// SegmentedReduce reduces every segment s = [offsets[s], offsets[s+1]) of
// the whole sharded sequence, as sr (runtime.SegmentedReduceOp) does on one
// device with init, and returns the k = len(offsets)-1 results sharded by
// owner: segment s belongs to the rank whose shard holds offsets[s] (the
// last rank for segments that begin at the end), so every rank owns a
// contiguous range of segments. offsets are host memory, the same in every
// process, nondecreasing within [0, in.Len()].
//
// Every rank reduces the parts of its own segments inside its shard with
// sr, and the piece of the segment an earlier rank owns that reaches into
// its shard (at most one) without init; the pieces are all-gathered, and
// each owner folds the later ranks' pieces of its last segment into it in
// rank order. The operator must be associative and commutative, as for
// sr on one device. It waits for the results; free them.
func SegmentedReduce[T any](sr *runtime.SegmentedReduceOp[T], in *Sharded[T], offsets []int64, init T) (*Sharded[T], error) {
	if sr == nil || sr.Operator() == nil {
		return nil, errors.New("gocccl: group.SegmentedReduce: nil operator")
	}
	if in == nil {
		return nil, errors.New("gocccl: group.SegmentedReduce: nil input")
	}
	n := in.Len()
	if err := checkOffsets(offsets, n); err != nil {
		return nil, fmt.Errorf("gocccl: group.SegmentedReduce: %w", err)
	}
	g := in.g
	owned := ownedSegments(in.offs, offsets)
	lens := make([]int, g.Size())
	for r := range lens {
		lens[r] = owned[r+1] - owned[r]
	}
	out, err := Alloc[T](g, lens)
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.SegmentedReduce: %w", err)
	}
	err = g.each(func(r int) error {
		return segmentedReduceRank(g, r, sr, in, offsets, owned, out.shards[r], init)
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gocccl: group.SegmentedReduce: %w", err), out.Free())
	}
	return out, nil
}

// checkOffsets returns an error unless offsets are k+1 >= 1 nondecreasing
// positions within [0, n].
func checkOffsets(offsets []int64, n int) error {
	if len(offsets) == 0 {
		return errors.New("no offsets: k segments take k+1")
	}
	for s, o := range offsets {
		if o < 0 || o > int64(n) {
			return fmt.Errorf("offset %d is %d, outside [0, %d]", s, o, n)
		}
		if s > 0 && o < offsets[s-1] {
			return fmt.Errorf("offset %d is %d, below offset %d's %d", s, o, s-1, offsets[s-1])
		}
	}
	return nil
}

// ownedSegments returns, for shard offsets offs (g+1 of them) and segment
// offsets, the first segment of every rank: rank r owns segments
// [owned[r], owned[r+1]), those that begin in its shard (offs[r] <= begin <
// offs[r+1]); the last rank also owns those that begin at the end. Begins
// never decrease, so neither do their owners.
func ownedSegments(offs []int, offsets []int64) []int {
	g, k := len(offs)-1, len(offsets)-1
	owned := make([]int, g+1)
	r := 0
	for s := range k {
		for r < g-1 && int64(offs[r+1]) <= offsets[s] {
			r++
		}
		owned[r+1]++
	}
	for r := range g {
		owned[r+1] += owned[r]
	}
	return owned
}

// piece is a rank's part of a segment an earlier rank owns.
type piece[T any] struct {
	segment int64 // -1: none
	value   T
}

// segmentedReduceRank is rank r's part of SegmentedReduce: its owned
// segments into res, its continuation piece exchanged, and the pieces of
// the later ranks folded into its last segment.
func segmentedReduceRank[T any](g *Group, r int, sr *runtime.SegmentedReduceOp[T], in *Sharded[T], offsets []int64, owned []int, res *runtime.Slice[T], init T) error {
	d := g.devs[r]
	lo, hi := int64(in.offs[r]), int64(in.offs[r+1])
	shard := in.shards[r]
	k := len(offsets) - 1
	// Owned segments, clipped to the shard.
	if m := owned[r+1] - owned[r]; m > 0 {
		begin, end := make([]int64, m), make([]int64, m)
		for i := range m {
			s := owned[r] + i
			begin[i] = offsets[s] - lo
			end[i] = min(offsets[s+1], hi) - lo
		}
		if err := segmentedRun(d, sr, shard, begin, end, res, init); err != nil {
			return err
		}
	}
	// The piece of a segment begun before this shard that reaches into it.
	p := piece[T]{segment: -1}
	if lo < hi {
		s := sort.Search(k, func(s int) bool { return offsets[s+1] > lo }) // the first segment ending past lo
		if s < k && offsets[s] < lo {
			e := min(offsets[s+1], hi) - lo
			head := make([]T, 1)
			if err := shard.Range(0, 1).CopyToHost(head); err != nil {
				return err
			}
			v, err := runtime.Alloc[T](d, 1)
			if err != nil {
				return err
			}
			defer v.Free()
			if err := segmentedRun(d, sr, shard, []int64{1}, []int64{e}, v, head[0]); err != nil {
				return err
			}
			if err := v.CopyToHost(head); err != nil {
				return err
			}
			p = piece[T]{segment: int64(s), value: head[0]}
		}
	}
	all, err := g.comm.allGather(r, bytesOf([]piece[T]{p}))
	if err != nil {
		return err
	}
	m := owned[r+1] - owned[r]
	if m == 0 {
		return nil
	}
	last := int64(owned[r+1] - 1)
	var acc []T
	for q := r + 1; q < len(all); q++ {
		ps := keysOf[piece[T]](all[q])
		if len(ps) != 1 {
			return fmt.Errorf("gocccl: group: rank %d sent %d bytes for a segment piece", q, len(all[q]))
		}
		if ps[0].segment != last {
			continue
		}
		if acc == nil {
			acc = make([]T, 1)
			if err := res.Range(m-1, m).CopyToHost(acc); err != nil {
				return err
			}
		}
		acc[0] = sr.Operator()(acc[0], ps[0].value)
	}
	if acc != nil {
		return res.Range(m-1, m).CopyFromHost(acc)
	}
	return nil
}

// segmentedRun runs sr over shard with host offsets begin and end into
// out, on d.
func segmentedRun[T any](d *runtime.Device, sr *runtime.SegmentedReduceOp[T], shard *runtime.Slice[T], begin, end []int64, out *runtime.Slice[T], init T) error {
	b, err := runtime.FromHost(d, begin)
	if err != nil {
		return err
	}
	defer b.Free()
	e, err := runtime.FromHost(d, end)
	if err != nil {
		return err
	}
	defer e.Free()
	if err := sr.Run(nil, shard, b, e, out, init); err != nil {
		return err
	}
	_, err = out.ToHost() // waits: the offsets are freed on return
	return err
}
