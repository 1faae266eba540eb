package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// SortPairs sorts the (key, value) pairs of every shard of keys and values
// across the group by key, as SortKeys sorts keys, and returns the sorted
// keys and values sharded alike. The sort is stable over the whole
// sequence, as one device's radix sort is: pairs of equal keys keep their
// order in the input (equal keys all go to one rank, which receives them in
// rank order and sorts stably). values must be sharded as keys.
func SortPairs[K runtime.RadixKey, V any](sorter *runtime.RadixSortPairsOp[K, V], keys *Sharded[K], values *Sharded[V]) (*Sharded[K], *Sharded[V], error) {
	if sorter == nil {
		return nil, nil, errors.New("gocccl: group.SortPairs: nil instance")
	}
	if keys == nil || values == nil {
		return nil, nil, errors.New("gocccl: group.SortPairs: nil keys or values")
	}
	if err := sameShards("SortPairs", keys, values); err != nil {
		return nil, nil, err
	}
	g := keys.g
	ko, vo := newSharded[K](g), newSharded[V](g)
	err := g.each(func(r int) error {
		k, v, err := sortPairsRank(g, r, sorter, keys.shards[r], values.shards[r])
		ko.shards[r], vo.shards[r] = k, v
		if err != nil {
			return err
		}
		return exchangeLens(g, r, k.Len(), ko.offs, vo.offs)
	})
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("gocccl: group.SortPairs: %w", err), ko.Free(), vo.Free())
	}
	return ko, vo, nil
}

// sortPairsRank is rank r's part of SortPairs.
func sortPairsRank[K runtime.RadixKey, V any](g *Group, r int, sorter *runtime.RadixSortPairsOp[K, V], ks *runtime.Slice[K], vs *runtime.Slice[V]) (*runtime.Slice[K], *runtime.Slice[V], error) {
	keys, values, err := sortPairsOn(sorter, ks, vs)
	if err != nil {
		return nil, nil, err
	}
	b, err := bounds(g, r, keys)
	if err != nil {
		return nil, nil, err
	}
	rk, err := sendParts(g, r, keys, b)
	if err != nil {
		return nil, nil, err
	}
	rv, err := sendParts(g, r, values, b)
	if err != nil {
		return nil, nil, err
	}
	d := g.devs[r]
	kin, err := runtime.FromHost(d, nonNil(rk))
	if err != nil {
		return nil, nil, err
	}
	defer kin.Free()
	vin, err := runtime.FromHost(d, nonNil(rv))
	if err != nil {
		return nil, nil, err
	}
	defer vin.Free()
	kout, err := runtime.Alloc[K](d, len(rk))
	if err != nil {
		return nil, nil, err
	}
	vout, err := runtime.Alloc[V](d, len(rv))
	if err != nil {
		return nil, nil, errors.Join(err, kout.Free())
	}
	if err := sorter.Run(nil, kin, kout, vin, vout, runtime.RadixOptions{}); err != nil {
		return nil, nil, errors.Join(err, kout.Free(), vout.Free())
	}
	return kout, vout, nil
}

// sortPairsOn sorts a rank's pairs with sorter and returns them on the
// host.
func sortPairsOn[K runtime.RadixKey, V any](sorter *runtime.RadixSortPairsOp[K, V], ks *runtime.Slice[K], vs *runtime.Slice[V]) ([]K, []V, error) {
	kt, err := runtime.Alloc[K](ks.Device(), ks.Len())
	if err != nil {
		return nil, nil, err
	}
	defer kt.Free()
	vt, err := runtime.Alloc[V](vs.Device(), vs.Len())
	if err != nil {
		return nil, nil, err
	}
	defer vt.Free()
	if err := sorter.Run(nil, ks, kt, vs, vt, runtime.RadixOptions{}); err != nil {
		return nil, nil, err
	}
	keys, err := kt.ToHost()
	if err != nil {
		return nil, nil, err
	}
	values, err := vt.ToHost()
	if err != nil {
		return nil, nil, err
	}
	return keys, values, nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
