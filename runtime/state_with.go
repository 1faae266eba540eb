package runtime

import (
	"reflect"

	"github.com/gocccl/gocccl/internal/algo"
)

// The stateful constructors: each declares the instance of its algorithm
// whose operator is a method of the state type S, given as the method
// expression S.Op; Bind gives a call its state (see Stateful). The bound
// handle's operator calls the method with the state as its receiver on the
// CPU backend; on a GPU the kernels get the state as an argument.

// UnaryTransformWith is UnaryTransform with per-call state: out[i] =
// s.Op(in[i]) for the state s given to Bind.
func UnaryTransformWith[S, In, Out any](op func(S, In) Out) *Stateful[S, *UnaryTransformOp[In, Out]] {
	in := newStatefulInstance[S](algo.UnaryTransform, []any{op}, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	return &Stateful[S, *UnaryTransformOp[In, Out]]{bind: func(s S) *UnaryTransformOp[In, Out] {
		return &UnaryTransformOp[In, Out]{instance: bound(in, &s), op: func(x In) Out { return op(s, x) }}
	}}
}

// BinaryTransformWith is BinaryTransform with per-call state: out[i] =
// s.Op(a[i], b[i]) for the state s given to Bind.
func BinaryTransformWith[S, A, B, Out any](op func(S, A, B) Out) *Stateful[S, *BinaryTransformOp[A, B, Out]] {
	in := newStatefulInstance[S](algo.BinaryTransform, []any{op}, reflect.TypeFor[A](), reflect.TypeFor[B](), reflect.TypeFor[Out]())
	return &Stateful[S, *BinaryTransformOp[A, B, Out]]{bind: func(s S) *BinaryTransformOp[A, B, Out] {
		return &BinaryTransformOp[A, B, Out]{instance: bound(in, &s), op: func(x A, y B) Out { return op(s, x, y) }}
	}}
}

// ReduceWith is Reduce with per-call state: the reduction operator is
// s.Op for the state s given to Bind.
func ReduceWith[S, T any](op func(S, T, T) T) *Stateful[S, *ReduceOp[T]] {
	in := newStatefulInstance[S](algo.Reduce, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *ReduceOp[T]]{bind: func(s S) *ReduceOp[T] {
		return &ReduceOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// InclusiveScanWith is InclusiveScan with per-call state: the scan operator
// is s.Op for the state s given to Bind.
func InclusiveScanWith[S, T any](op func(S, T, T) T) *Stateful[S, *InclusiveScanOp[T]] {
	in := newStatefulInstance[S](algo.InclusiveScan, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *InclusiveScanOp[T]]{bind: func(s S) *InclusiveScanOp[T] {
		return &InclusiveScanOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// ExclusiveScanWith is ExclusiveScan with per-call state: the scan operator
// is s.Op for the state s given to Bind.
func ExclusiveScanWith[S, T any](op func(S, T, T) T) *Stateful[S, *ExclusiveScanOp[T]] {
	in := newStatefulInstance[S](algo.ExclusiveScan, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *ExclusiveScanOp[T]]{bind: func(s S) *ExclusiveScanOp[T] {
		return &ExclusiveScanOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// SelectWith is Select with per-call state: the predicate is s.Op for the
// state s given to Bind (a threshold known only at run time, say).
func SelectWith[S, T any](pred func(S, T) bool) *Stateful[S, *SelectOp[T]] {
	in := newStatefulInstance[S](algo.Select, []any{pred}, reflect.TypeFor[T]())
	return &Stateful[S, *SelectOp[T]]{bind: func(s S) *SelectOp[T] {
		return &SelectOp[T]{instance: bound(in, &s), pred: func(x T) bool { return pred(s, x) }}
	}}
}

// PartitionWith is Partition with per-call state: the predicate is s.Op
// for the state s given to Bind.
func PartitionWith[S, T any](pred func(S, T) bool) *Stateful[S, *PartitionOp[T]] {
	in := newStatefulInstance[S](algo.Partition, []any{pred}, reflect.TypeFor[T]())
	return &Stateful[S, *PartitionOp[T]]{bind: func(s S) *PartitionOp[T] {
		return &PartitionOp[T]{instance: bound(in, &s), pred: func(x T) bool { return pred(s, x) }}
	}}
}

// MergeSortKeysWith is MergeSortKeys with per-call state: the order is
// s.Op for the state s given to Bind (a direction or a key field chosen at
// run time, say).
func MergeSortKeysWith[S, K any](less func(S, K, K) bool) *Stateful[S, *MergeSortKeysOp[K]] {
	in := newStatefulInstance[S](algo.MergeSortKeys, []any{less}, reflect.TypeFor[K]())
	return &Stateful[S, *MergeSortKeysOp[K]]{bind: func(s S) *MergeSortKeysOp[K] {
		return &MergeSortKeysOp[K]{instance: bound(in, &s), less: func(x, y K) bool { return less(s, x, y) }}
	}}
}

// ForEachWith is ForEach with per-call state: data[i] = s.Op(data[i]) for
// the state s given to Bind.
func ForEachWith[S, T any](op func(S, T) T) *Stateful[S, *ForEachOp[T]] {
	in := newStatefulInstance[S](algo.ForEach, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *ForEachOp[T]]{bind: func(s S) *ForEachOp[T] {
		return &ForEachOp[T]{instance: bound(in, &s), op: func(x T) T { return op(s, x) }}
	}}
}

// AdjacentDifferenceWith is AdjacentDifference with per-call state: the
// difference operator is s.Op for the state s given to Bind.
func AdjacentDifferenceWith[S, T any](op func(S, T, T) T) *Stateful[S, *AdjacentDifferenceOp[T]] {
	in := newStatefulInstance[S](algo.AdjacentDifference, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *AdjacentDifferenceOp[T]]{bind: func(s S) *AdjacentDifferenceOp[T] {
		return &AdjacentDifferenceOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// UniqueWith is Unique with per-call state: the equality is s.Op for the
// state s given to Bind (equal within a tolerance chosen at run time, say).
func UniqueWith[S, T any](eq func(S, T, T) bool) *Stateful[S, *UniqueOp[T]] {
	in := newStatefulInstance[S](algo.Unique, []any{eq}, reflect.TypeFor[T]())
	return &Stateful[S, *UniqueOp[T]]{bind: func(s S) *UniqueOp[T] {
		return &UniqueOp[T]{instance: bound(in, &s), eq: func(x, y T) bool { return eq(s, x, y) }}
	}}
}

// SegmentedReduceWith is SegmentedReduce with per-call state: the
// reduction operator is s.Op for the state s given to Bind.
func SegmentedReduceWith[S, T any](op func(S, T, T) T) *Stateful[S, *SegmentedReduceOp[T]] {
	in := newStatefulInstance[S](algo.SegmentedReduce, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *SegmentedReduceOp[T]]{bind: func(s S) *SegmentedReduceOp[T] {
		return &SegmentedReduceOp[T]{instance: bound(in, &s), op: func(x, y T) T { return op(s, x, y) }}
	}}
}

// MergeSortPairsWith is MergeSortPairs with per-call state: the order of
// the keys is s.Op for the state s given to Bind.
func MergeSortPairsWith[S, K, V any](less func(S, K, K) bool) *Stateful[S, *MergeSortPairsOp[K, V]] {
	in := newStatefulInstance[S](algo.MergeSortPairs, []any{less}, reflect.TypeFor[K](), reflect.TypeFor[V]())
	return &Stateful[S, *MergeSortPairsOp[K, V]]{bind: func(s S) *MergeSortPairsOp[K, V] {
		return &MergeSortPairsOp[K, V]{instance: bound(in, &s), less: func(x, y K) bool { return less(s, x, y) }}
	}}
}

// LowerBoundWith is LowerBound with per-call state: the order is s.Op for
// the state s given to Bind.
func LowerBoundWith[S, T any](less func(S, T, T) bool) *Stateful[S, *SearchOp[T]] {
	in := newStatefulInstance[S](algo.LowerBound, []any{less}, reflect.TypeFor[T]())
	return &Stateful[S, *SearchOp[T]]{bind: func(s S) *SearchOp[T] {
		return &SearchOp[T]{instance: bound(in, &s), less: func(x, y T) bool { return less(s, x, y) }}
	}}
}

// UpperBoundWith is UpperBound with per-call state: the order is s.Op for
// the state s given to Bind.
func UpperBoundWith[S, T any](less func(S, T, T) bool) *Stateful[S, *SearchOp[T]] {
	in := newStatefulInstance[S](algo.UpperBound, []any{less}, reflect.TypeFor[T]())
	return &Stateful[S, *SearchOp[T]]{bind: func(s S) *SearchOp[T] {
		return &SearchOp[T]{instance: bound(in, &s), less: func(x, y T) bool { return less(s, x, y) }, upper: true}
	}}
}

// GenerateWith is Generate with per-call state: out[i] = s.Op(i) for the
// state s given to Bind (a seed or a scale known only at run time, say).
func GenerateWith[S, T any](op func(S, int64) T) *Stateful[S, *GenerateOp[T]] {
	in := newStatefulInstance[S](algo.Generate, []any{op}, reflect.TypeFor[T]())
	return &Stateful[S, *GenerateOp[T]]{bind: func(s S) *GenerateOp[T] {
		return &GenerateOp[T]{instance: bound(in, &s), op: func(i int64) T { return op(s, i) }}
	}}
}

// TransformIfWith is TransformIf with per-call state: out[i] = s.Op(in[i])
// wherever s.Pred(in[i]) holds, for the state s given to Bind (a threshold
// and a scale known only at run time, say). Both operators are methods of S,
// given as the method expressions S.Op and S.Pred; one may ignore its
// receiver.
func TransformIfWith[S, In, Out any](op func(S, In) Out, pred func(S, In) bool) *Stateful[S, *TransformIfOp[In, Out]] {
	in := newStatefulInstance[S](algo.TransformIf, []any{op, pred}, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	return &Stateful[S, *TransformIfOp[In, Out]]{bind: func(s S) *TransformIfOp[In, Out] {
		return &TransformIfOp[In, Out]{instance: bound(in, &s), op: func(x In) Out { return op(s, x) }, pred: func(x In) bool { return pred(s, x) }}
	}}
}
