package runtime

import (
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/cuda"
)

// Stateful is an algorithm instance whose operator is a method of the state
// type S: the operator reads its receiver, the state, which each call gets
// from Bind instead of from the declaration. A saxpy whose alpha is known
// only at run time:
//
//	type Axpy struct{ Alpha float32 }
//
//	//gocccl:op
//	func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }
//
//	var Saxpy = runtime.BinaryTransformWith(Axpy.Apply) // *Stateful[Axpy, *BinaryTransformOp[float32, float32, float32]]
//
//	err := Saxpy.Bind(Axpy{Alpha: alpha}).Run(s, x, y, out)
//
// Declare it with the algorithm's stateful constructor, named after the
// algorithm with "With" appended (UnaryTransformWith, BinaryTransformWith,
// ReduceWith, InclusiveScanWith, ExclusiveScanWith, SelectWith, …), given the
// method expression S.Op of a //gocccl:op method with a value receiver.
// gocccl-gen compiles its kernels once; the state is a kernel argument.
//
// The state is a value: a named struct of the operator subset's types
// (scalars, arrays, nested structs) and of read-only Views of slices (a
// lookup table, say), copied by Bind. A call checks that every View refers
// to a live slice of the call's device, passes the state by value to its
// kernels (every kernel of the launch sequence sees the same state) and
// keeps nothing of it after Run returns; on the CPU backend the method is
// called with it as its receiver. The handle's copy of the state keeps the
// slices of its Views reachable, but not allocated: keep them allocated
// until the work of the calls that read them has completed.
type Stateful[S, H any] struct {
	bind func(S) H
}

// Bind returns the instance's handle with s as the state of every call the
// handle makes: its Run and TempStorageBytes are those of the algorithm
// without state. The handle holds a copy of s; Bind again for another state.
// Handles of different states may run concurrently.
func (st *Stateful[S, H]) Bind(s S) H {
	if st == nil || st.bind == nil {
		var zero H
		return zero
	}
	return st.bind(s)
}

// stateArg is the state of a handle: its type (set for every instance of a
// stateful constructor), and where a bound handle holds its value.
type stateArg struct {
	typ         reflect.Type
	p           unsafe.Pointer // *S, held by the bound handle; nil until bound
	size, align int
	// views are the Views in S, checked by every call (see checkViews).
	views []viewField
	// decl is the instance as declared, without a bound state: what the
	// device records as its last launch, so that it keeps no state alive.
	decl *instance
}

// newStatefulInstance is newInstance for a stateful constructor whose state
// type is S.
func newStatefulInstance[S any](alg *algo.Algorithm, ops []any, types ...reflect.Type) instance {
	in := newInstance(alg, ops, types...)
	in.state.typ = reflect.TypeFor[S]()
	in.state.views = stateViews(in.state.typ, 0, "", nil)
	decl := in
	in.state.decl = &decl
	return in
}

// bound returns a copy of in whose calls pass *s as the state; s must stay
// with the handle that holds the copy.
func bound[S any](in instance, s *S) instance {
	in.state.p = unsafe.Pointer(s)
	in.state.size, in.state.align = int(unsafe.Sizeof(*s)), int(unsafe.Alignof(*s))
	return in
}

// appendState adds the bound state after the kernel's own parameters, as
// the entry points of an instance with state take it, and returns the
// length of args before it, to truncate to after the launch.
func (in *instance) appendState(args *cuda.Args) (int, error) {
	st := &in.state
	if st.p == nil {
		return 0, in.errorf("no state bound: run the handle that Bind returns")
	}
	n := args.Len()
	args.Value(st.p, st.size, st.align)
	if err := args.Err(); err != nil {
		args.Truncate(n)
		return 0, in.wrap(err, "state "+st.typ.String())
	}
	return n, nil
}

// stateMismatch reports kernels generated for another state than the
// instance's.
func (in *instance) stateMismatch(generated reflect.Type) error {
	switch {
	case generated == nil:
		return in.errorf("the kernels were generated without state, the instance has state %v: run go generate (gocccl-gen)", in.state.typ)
	case in.state.typ == nil:
		return in.errorf("the kernels were generated with state %v, the instance has none: run go generate (gocccl-gen)", generated)
	}
	return in.errorf("the kernels were generated with state %v, the instance has state %v: run go generate (gocccl-gen)", generated, in.state.typ)
}
