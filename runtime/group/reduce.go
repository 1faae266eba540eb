package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Reduce returns op(init, in[0] op … op in[n-1]) over every shard of in, or
// init when in is empty, with op the operator sum was declared with: every
// rank reduces its shard with sum, the partials are all-gathered, and they
// are combined in rank order. It waits for the result.
func Reduce[T any](sum *runtime.ReduceOp[T], in *Sharded[T], init T) (T, error) {
	if sum == nil || sum.Operator() == nil {
		return init, errors.New("gocccl: group.Reduce: nil operator")
	}
	if in == nil {
		return init, errors.New("gocccl: group.Reduce: nil input")
	}
	op := sum.Operator()
	g := in.g
	results := make([]T, g.Size())
	err := g.each(func(r int) error {
		p, err := reduceShard(sum, in.shards[r])
		if err != nil {
			return err
		}
		ps, err := gatherPartials(g, r, p)
		if err != nil {
			return err
		}
		results[r], _ = combine(op, init, true, ps, len(ps))
		return nil
	})
	if err != nil {
		return init, fmt.Errorf("gocccl: group.Reduce: %w", err)
	}
	return results[g.lead()], nil
}
