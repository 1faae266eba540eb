package runtime

// Operator returns the operator r was declared with, for code that
// combines partial results on the host with the same Go function (the
// distributed algorithms of package group).
func (r *ReduceOp[T]) Operator() func(T, T) T { return r.op }

// Operator returns the operator o was declared with; see ReduceOp.Operator.
func (o *InclusiveScanOp[T]) Operator() func(T, T) T { return o.op }

// Operator returns the operator o was declared with; see ReduceOp.Operator.
func (o *ExclusiveScanOp[T]) Operator() func(T, T) T { return o.op }
