package group

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gocccl/gocccl/runtime"
)

// Partition partitions every shard of in by part's predicate into the same
// rank's shard of out, as runtime.PartitionOp.Run does one Slice, and
// returns two sharded views of out's memory (free out, not them): selected,
// rank r's shard the elements of its shard where the predicate holds, in
// order, and rejected, rank r's shard the others in reverse order.
// Concatenated in rank order the selected shards are one device's
// out[0:k] of the whole input; the rejected shards concatenated from the
// last rank to the first are its out[k:n] (Rejected's Gather, which joins in
// rank order, gives them rank by rank). Shards are not rebalanced (see
// Rebalance). out must be sharded as in. It waits for the counts.
func Partition[T any](part *runtime.PartitionOp[T], in, out *Sharded[T]) (selected, rejected *Sharded[T], err error) {
	if part == nil {
		return nil, nil, errors.New("gocccl: group.Partition: nil instance")
	}
	if in == nil || out == nil {
		return nil, nil, errors.New("gocccl: group.Partition: nil input or output")
	}
	if err := sameShards("Partition", in, out); err != nil {
		return nil, nil, err
	}
	g := in.g
	selected, rejected = newSharded[T](g), newSharded[T](g)
	selected.viewOf, rejected.viewOf = "output of Partition", "output of Partition"
	err = g.each(func(r int) error {
		count, err := runtime.Alloc[int64](g.devs[r], 1)
		if err != nil {
			return err
		}
		defer count.Free()
		if err := part.Run(nil, in.shards[r], out.shards[r], count); err != nil {
			return err
		}
		c, err := count.ToHost()
		if err != nil {
			return err
		}
		k, n := int(c[0]), out.shards[r].Len()
		selected.shards[r], rejected.shards[r] = out.shards[r].Range(0, k), out.shards[r].Range(k, n)
		if err := exchangeLens(g, r, k, selected.offs); err != nil {
			return err
		}
		return exchangeLens(g, r, n-k, rejected.offs)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("gocccl: group.Partition: %w", err)
	}
	return selected, rejected, nil
}

// Rebalance returns a new sharded sequence of s's elements, in order, split
// over the group as Split does (the first n mod g ranks one element more):
// every rank sends each other rank the part of its shard that falls in that
// rank's new range, in one all-to-all exchange. Use it after Select or
// Partition, whose shards keep what each rank selected. It waits for the
// exchange; s is left as it was.
func Rebalance[T any](s *Sharded[T]) (*Sharded[T], error) {
	if s == nil {
		return nil, errors.New("gocccl: group.Rebalance: nil sequence")
	}
	g := s.g
	want := Split(s.Len(), g.Size())
	to := make([]int, g.Size()+1) // the new shards' offsets
	for r, n := range want {
		to[r+1] = to[r] + n
	}
	out, err := Alloc[T](g, want)
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.Rebalance: %w", err)
	}
	err = g.each(func(r int) error {
		mine, err := s.shards[r].ToHost()
		if err != nil {
			return err
		}
		// b[j]: where the elements for rank j start in this shard.
		lo, hi := s.offs[r], s.offs[r+1]
		b := make([]int, g.Size()+1)
		for j := range g.Size() + 1 {
			b[j] = min(max(to[j], lo), hi) - lo
		}
		recv, err := sendParts(g, r, mine, b)
		if err != nil {
			return err
		}
		if len(recv) != want[r] {
			return fmt.Errorf("gocccl: group: rank %d received %d elements for a shard of %d", r, len(recv), want[r])
		}
		return out.shards[r].CopyFromHost(slices.Clip(recv))
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gocccl: group.Rebalance: %w", err), out.Free())
	}
	return out, nil
}
