// Package reject_view uses runtime.View outside a state, and writes views.
package reject_view

import "github.com/gocccl/gocccl/runtime"

// Table is a state with a view.
type Table struct {
	K int32
	T runtime.View[int32]
}

//gocccl:op
func ViewParam(v runtime.View[int32], i int32) int32 { // want `parameter v of type runtime.View\[int32\] holds a runtime.View: a view may be only a field of an operator's state \(its receiver\), made by Slice.View and given to Bind`
	return i
}

//gocccl:op
func ViewResult(x int32) runtime.View[int32] { // want `a result of type runtime.View\[int32\] holds a runtime.View: an operator returns values; return the elements it reads with At`
	var v runtime.View[int32]
	return v
}

//gocccl:op
func StructParam(t Table) int32 { // want `parameter t of type Table holds a runtime.View`
	return t.K
}

//gocccl:op
func (t Table) Assign(x int32) int32 {
	t.T = t.T // want `cannot assign to t.T of type runtime.View\[int32\]: views are read-only, bound by Bind for the call`
	t.K = x   // a scalar field of the receiver is a local copy: allowed
	return t.K
}

//gocccl:op
func (t Table) Rebuild(x int32) int32 {
	u := Table{K: x} // want `a value of type Table cannot be made in an operator: it holds a runtime.View, which comes from Slice.View in the state given to Bind`
	return u.K
}

// Nested views a state cannot hold.
type Nested struct {
	N runtime.View[runtime.View[int32]]
}

//gocccl:op
func (n Nested) Get(x int32) int32 { return x } // want `the receiver of method Nested.Get is its per-call state: field N of Nested: runtime.View\[runtime.View\[int32\]\]: the elements of a viewed buffer are plain values, not views`

// Elem is an element type that holds a view.
type Elem struct{ V runtime.View[int32] }

//gocccl:op
func Keep(e Elem) bool { return true } // want `parameter e of type Elem holds a runtime.View`

//gocccl:op
func (t Table) Get(i int32) int32 { return t.T.At(int(i)) + t.K }

var (
	Sel  = runtime.Select(Keep) // want `element type T = Elem holds a runtime.View: buffer elements are plain values; a view belongs in the operator's state`
	Good = runtime.UnaryTransformWith(Table.Get)
)
