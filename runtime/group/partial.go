package group

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/runtime"
)

// A partial is one rank's reduction of its shard: none for an empty one.
type partial[T any] struct {
	value T
	ok    bool
}

// reduceShard reduces rank r's shard with sum: its first element is the
// init of a reduction of the rest, so that no identity of the operator is
// needed and an empty shard gives no partial.
func reduceShard[T any](sum *runtime.ReduceOp[T], shard *runtime.Slice[T]) (partial[T], error) {
	n := shard.Len()
	if n == 0 {
		return partial[T]{}, nil
	}
	head := make([]T, 1)
	if err := shard.Range(0, 1).CopyToHost(head); err != nil {
		return partial[T]{}, err
	}
	out, err := runtime.Alloc[T](shard.Device(), 1)
	if err != nil {
		return partial[T]{}, err
	}
	defer out.Free()
	if err := sum.Run(nil, shard.Range(1, n), out, head[0]); err != nil {
		return partial[T]{}, err
	}
	if err := out.CopyToHost(head); err != nil {
		return partial[T]{}, err
	}
	return partial[T]{value: head[0], ok: true}, nil
}

// gatherPartials exchanges every rank's partial through the group's
// communicator; rank r's call returns all of them in rank order.
func gatherPartials[T any](g *Group, r int, p partial[T]) ([]partial[T], error) {
	size := int(unsafe.Sizeof(p))
	send := unsafe.Slice((*byte)(unsafe.Pointer(&p)), size)
	all, err := g.comm.allGather(r, send)
	if err != nil {
		return nil, err
	}
	out := make([]partial[T], len(all))
	for i, b := range all {
		if len(b) != size {
			return nil, fmt.Errorf("gocccl: group: rank %d sent %d bytes for a partial of %d", i, len(b), size)
		}
		out[i] = *(*partial[T])(unsafe.Pointer(unsafe.SliceData(b)))
	}
	return out, nil
}

// combine folds the partials of ranks [0, upto) into acc in rank order;
// ok reports whether acc holds a value (it had one, or a partial did).
func combine[T any](op func(T, T) T, acc T, ok bool, ps []partial[T], upto int) (T, bool) {
	for _, p := range ps[:upto] {
		switch {
		case !p.ok:
		case ok:
			acc = op(acc, p.value)
		default:
			acc, ok = p.value, true
		}
	}
	return acc, ok
}

// sameOperator returns an error unless the scan's and the reduction's
// operators are one function: the totals must combine as the scan does.
func sameOperator[T any](alg string, scan, sum func(T, T) T) error {
	if reflect.ValueOf(scan).Pointer() != reflect.ValueOf(sum).Pointer() {
		return fmt.Errorf("gocccl: group.%s: the scan and the reduction were declared with different operators", alg)
	}
	return nil
}
