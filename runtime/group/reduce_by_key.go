package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// ReduceByKey reduces every run of consecutive equal keys of the whole
// sharded sequence, as rbk (runtime.ReduceByKeyOp) does on one device, and
// returns the runs' keys and aggregates sharded by the rank that holds
// each run's first key: every rank reduces its shard, the ranks all-gather
// their first and last runs, and a run that a shard boundary cut is
// completed on the rank where it starts (its aggregate combined, in rank
// order, with the next ranks' first runs) and dropped from the others. The
// results are views of memory the call allocates: free them. values must
// be sharded as keys. It waits for the counts.
func ReduceByKey[K, V any](rbk *runtime.ReduceByKeyOp[K, V], keys *Sharded[K], values *Sharded[V]) (*Sharded[K], *Sharded[V], error) {
	if rbk == nil {
		return nil, nil, errors.New("gocccl: group.ReduceByKey: nil instance")
	}
	eq, op := rbk.Operators()
	if eq == nil || op == nil {
		return nil, nil, errors.New("gocccl: group.ReduceByKey: nil operator")
	}
	if keys == nil || values == nil {
		return nil, nil, errors.New("gocccl: group.ReduceByKey: nil keys or values")
	}
	if err := sameShards("ReduceByKey", keys, values); err != nil {
		return nil, nil, err
	}
	g := keys.g
	uk, ua := newSharded[K](g), newSharded[V](g)
	uk.roots, ua.roots = make([]*runtime.Slice[K], g.Size()), make([]*runtime.Slice[V], g.Size())
	err := g.each(func(r int) error {
		k, a, err := reduceByKeyRank(g, r, rbk, eq, op, keys.shards[r], values.shards[r], &uk.roots[r], &ua.roots[r])
		uk.shards[r], ua.shards[r] = k, a
		if err != nil {
			return err
		}
		return exchangeLens(g, r, k.Len(), uk.offs, ua.offs)
	})
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("gocccl: group.ReduceByKey: %w", err), uk.Free(), ua.Free())
	}
	return uk, ua, nil
}

// edges are a rank's first and last runs, for its neighbours.
type edges[K, V any] struct {
	runs              int
	firstKey, lastKey K
	firstAgg, lastAgg V
}

// reduceByKeyRank is rank r's part of ReduceByKey.
// It allocates the rank's outputs into *uroot and *aroot (which the result
// Sharded frees) and returns the views of them that hold its runs.
func reduceByKeyRank[K, V any](g *Group, r int, rbk *runtime.ReduceByKeyOp[K, V], eq func(K, K) bool, op func(V, V) V, ks *runtime.Slice[K], vs *runtime.Slice[V], uroot **runtime.Slice[K], aroot **runtime.Slice[V]) (*runtime.Slice[K], *runtime.Slice[V], error) {
	d := g.devs[r]
	n := ks.Len()
	unique, err := runtime.Alloc[K](d, n)
	if err != nil {
		return nil, nil, err
	}
	*uroot = unique
	aggs, err := runtime.Alloc[V](d, n)
	if err != nil {
		return nil, nil, err
	}
	*aroot = aggs
	fail := func(err error) (*runtime.Slice[K], *runtime.Slice[V], error) { return nil, nil, err }
	count, err := runtime.Alloc[int64](d, 1)
	if err != nil {
		return fail(err)
	}
	defer count.Free()
	if err := rbk.Run(nil, ks, vs, unique, aggs, count); err != nil {
		return fail(err)
	}
	c, err := count.ToHost()
	if err != nil {
		return fail(err)
	}
	runs := int(c[0])
	var e edges[K, V]
	e.runs = runs
	if runs > 0 {
		fk, lk := make([]K, 1), make([]K, 1)
		fa, la := make([]V, 1), make([]V, 1)
		for _, err := range []error{unique.Range(0, 1).CopyToHost(fk), unique.Range(runs-1, runs).CopyToHost(lk),
			aggs.Range(0, 1).CopyToHost(fa), aggs.Range(runs-1, runs).CopyToHost(la)} {
			if err != nil {
				return fail(err)
			}
		}
		e.firstKey, e.lastKey, e.firstAgg, e.lastAgg = fk[0], lk[0], fa[0], la[0]
	}
	all, err := gatherEdges(g, r, e)
	if err != nil {
		return fail(err)
	}
	if runs == 0 {
		return unique.Range(0, 0), aggs.Range(0, 0), nil
	}
	// The first run continues one that an earlier rank started: drop it.
	lo := 0
	for p := r - 1; p >= 0; p-- {
		if all[p].runs > 0 {
			if eq(all[p].lastKey, e.firstKey) {
				lo = 1
			}
			break
		}
	}
	if lo == 1 && runs == 1 {
		return unique.Range(0, 0), aggs.Range(0, 0), nil
	}
	// The last run may go on in the next ranks: complete it here.
	agg, changed := e.lastAgg, false
	for q := r + 1; q < g.Size(); q++ {
		if all[q].runs == 0 {
			continue
		}
		if !eq(e.lastKey, all[q].firstKey) {
			break
		}
		agg, changed = op(agg, all[q].firstAgg), true
		if all[q].runs > 1 {
			break
		}
	}
	if changed {
		if err := aggs.Range(runs-1, runs).CopyFromHost([]V{agg}); err != nil {
			return fail(err)
		}
	}
	return unique.Range(lo, runs), aggs.Range(lo, runs), nil
}

// gatherEdges all-gathers every rank's edges.
func gatherEdges[K, V any](g *Group, r int, e edges[K, V]) ([]edges[K, V], error) {
	all, err := g.comm.allGather(r, bytesOf([]edges[K, V]{e}))
	if err != nil {
		return nil, err
	}
	out := make([]edges[K, V], len(all))
	for i, b := range all {
		es := keysOf[edges[K, V]](b)
		if len(es) != 1 {
			return nil, fmt.Errorf("gocccl: group: rank %d sent %d bytes for its edges", i, len(b))
		}
		out[i] = es[0]
	}
	return out, nil
}
