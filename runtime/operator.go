package runtime

// Operator returns the operator r was declared with, for code that
// combines partial results on the host with the same Go function (the
// distributed algorithms of package group).
func (r *ReduceOp[T]) Operator() func(T, T) T { return r.op }

// Operator returns the operator o was declared with; see ReduceOp.Operator.
func (o *InclusiveScanOp[T]) Operator() func(T, T) T { return o.op }

// Operator returns the operator o was declared with; see ReduceOp.Operator.
func (o *ExclusiveScanOp[T]) Operator() func(T, T) T { return o.op }

// Operators returns the equality and the operator r was declared with; see
// ReduceOp.Operator.
func (r *ReduceByKeyOp[K, V]) Operators() (equal func(K, K) bool, op func(V, V) V) {
	return r.eq, r.op
}
