package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Select writes the elements of every shard of in where sel's predicate
// holds to the front of the same rank's shard of out, in order, and returns
// the sharded sequence of the selected elements: out's shards cut to what
// each rank selected (views of out's memory, not a copy; free out, not
// them). Concatenated in rank order they are one device's Select of the
// whole input. Shards are not rebalanced: a rank keeps what its shard
// selected. out must be sharded as in. It waits for the counts.
func Select[T any](sel *runtime.SelectOp[T], in, out *Sharded[T]) (*Sharded[T], error) {
	if sel == nil {
		return nil, errors.New("gocccl: group.Select: nil instance")
	}
	if in == nil || out == nil {
		return nil, errors.New("gocccl: group.Select: nil input or output")
	}
	if err := sameShards("Select", in, out); err != nil {
		return nil, err
	}
	g := in.g
	picked := newSharded[T](g)
	picked.viewOf = "output of Select"
	err := g.each(func(r int) error {
		count, err := runtime.Alloc[int64](g.devs[r], 1)
		if err != nil {
			return err
		}
		defer count.Free()
		if err := sel.Run(nil, in.shards[r], out.shards[r], count); err != nil {
			return err
		}
		c, err := count.ToHost()
		if err != nil {
			return err
		}
		picked.shards[r] = out.shards[r].Range(0, int(c[0]))
		return exchangeLens(g, r, int(c[0]), picked.offs)
	})
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.Select: %w", err)
	}
	return picked, nil
}
