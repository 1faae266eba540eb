package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// InclusiveScan writes in[0] op … op in[i] to out[i] for every i of the
// whole sharded sequence, with op the operator scan was declared with; sum
// must be a Reduce of the same operator. Every rank reduces its shard, the
// totals are all-gathered, and every rank scans its shard seeded with the
// totals of the ranks before it (RunWithInit). out must be sharded as in.
// It returns once every rank's scan is enqueued on its default stream.
func InclusiveScan[T any](scan *runtime.InclusiveScanOp[T], sum *runtime.ReduceOp[T], in, out *Sharded[T]) error {
	if scan == nil || scan.Operator() == nil || sum == nil || sum.Operator() == nil {
		return errors.New("gocccl: group.InclusiveScan: nil operator")
	}
	if err := sameOperator("InclusiveScan", scan.Operator(), sum.Operator()); err != nil {
		return err
	}
	if err := checkScan("InclusiveScan", in, out); err != nil {
		return err
	}
	op := scan.Operator()
	g := in.g
	err := g.each(func(r int) error {
		prefix, ok, err := prefixOf(g, r, sum, in.shards[r], op)
		if err != nil {
			return err
		}
		if !ok {
			return scan.Run(nil, in.shards[r], out.shards[r])
		}
		return scan.RunWithInit(nil, in.shards[r], out.shards[r], prefix)
	})
	if err != nil {
		return fmt.Errorf("gocccl: group.InclusiveScan: %w", err)
	}
	return nil
}

// ExclusiveScan writes init op in[0] op … op in[i-1] to out[i] for every i
// of the whole sharded sequence (init to out[0]); otherwise as
// InclusiveScan.
func ExclusiveScan[T any](scan *runtime.ExclusiveScanOp[T], sum *runtime.ReduceOp[T], in, out *Sharded[T], init T) error {
	if scan == nil || scan.Operator() == nil || sum == nil || sum.Operator() == nil {
		return errors.New("gocccl: group.ExclusiveScan: nil operator")
	}
	if err := sameOperator("ExclusiveScan", scan.Operator(), sum.Operator()); err != nil {
		return err
	}
	if err := checkScan("ExclusiveScan", in, out); err != nil {
		return err
	}
	op := scan.Operator()
	g := in.g
	err := g.each(func(r int) error {
		prefix, ok, err := prefixOf(g, r, sum, in.shards[r], op)
		if err != nil {
			return err
		}
		seed := init
		if ok {
			seed = op(init, prefix)
		}
		return scan.Run(nil, in.shards[r], out.shards[r], seed)
	})
	if err != nil {
		return fmt.Errorf("gocccl: group.ExclusiveScan: %w", err)
	}
	return nil
}

func checkScan[T any](alg string, in, out *Sharded[T]) error {
	if in == nil || out == nil {
		return fmt.Errorf("gocccl: group.%s: nil input or output", alg)
	}
	return sameShards(alg, in, out)
}

// prefixOf reduces rank r's shard, all-gathers the totals, and returns the
// combination of the totals of the ranks before r; ok is false when they
// are all empty.
func prefixOf[T any](g *Group, r int, sum *runtime.ReduceOp[T], shard *runtime.Slice[T], op func(T, T) T) (T, bool, error) {
	var zero T
	p, err := reduceShard(sum, shard)
	if err != nil {
		return zero, false, err
	}
	ps, err := gatherPartials(g, r, p)
	if err != nil {
		return zero, false, err
	}
	prefix, ok := combine(op, zero, false, ps, r)
	return prefix, ok, nil
}
