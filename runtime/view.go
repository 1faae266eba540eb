package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

// View is a read-only view of a Slice, made by Slice.View, for a field of
// an operator's per-call state: a lookup table, a set of weights, a second
// input read at computed indices. An operator reads it with At and Len:
//
//	type Palette struct{ Colors runtime.View[uint32] }
//
//	//gocccl:op
//	func (p Palette) Color(i uint8) uint32 { return p.Colors.At(int(i) % p.Colors.Len()) }
//
//	var Paint = runtime.UnaryTransformWith(Palette.Color)
//
//	err := Paint.Bind(Palette{Colors: colors.View()}).Run(s, in, out)
//
// On a GPU the kernels read the slice's device memory; on the CPU backend
// At reads its host memory. A View holds the device address as an integer,
// its length, and the Slice it was made from, so that Run can check that the
// slice is still allocated and on the call's device, and the state given to
// Bind keeps the Slice reachable for as long as the handle is. The kernels
// see the same 24 bytes (gocccl::go::view in gocccl/gosem.cuh).
//
// The zero View refers to no slice: a call whose state holds one fails. A
// View cannot be written through, and may be only a field (or an array
// element, or a nested struct's field) of a state type: operator
// parameters, results and element types cannot be views.
type View[T any] struct {
	ptr uintptr // device address of element 0; 0 on the CPU backend
	n   int
	s   *Slice[T]
}

// View returns a read-only view of s for an operator's state. The view
// refers to s, not to a copy: keep s allocated until the work of every call
// that was given the view has completed. A view of a Range reads just that
// range.
func (s *Slice[T]) View() View[T] {
	if s == nil {
		return View[T]{}
	}
	return View[T]{ptr: uintptr(s.ptr), n: s.n, s: s}
}

// Len returns the number of elements of the view.
func (v View[T]) Len() int { return v.n }

// At returns element i of the view. Like an index expression, it panics
// when i is out of range; on a GPU the kernel traps (see FaultError). At
// reads host memory: on the host, it works for a view of a CPU device's
// slice, which is what the CPU backend gives an operator.
func (v View[T]) At(i int) T {
	if v.s != nil && v.s.host != nil {
		return v.s.host[i] // host holds exactly the view's elements
	}
	if uint(i) >= uint(v.n) {
		panic(fmt.Sprintf("gocccl: View.At: index %d out of range [0:%d]", i, v.n))
	}
	if v.s != nil && v.s.ptr == 0 && v.s.unusable() != nil {
		panic("gocccl: View.At: " + v.s.unusable().Error())
	}
	panic("gocccl: View.At: the view's slice is in device memory: only a kernel, or the CPU backend's own slices, can be read through At")
}

// stateView is what every View type implements: the check of a view held
// by a state, at a call on d. p points to the view.
type stateView interface {
	checkView(p unsafe.Pointer, d *Device) error
}

// errZeroView is the check's error for a View not made by Slice.View.
var errZeroView = errors.New("the zero View: make views with Slice.View")

func (View[T]) checkView(p unsafe.Pointer, d *Device) error {
	v := (*View[T])(p)
	switch {
	case v.s == nil:
		return errZeroView
	case v.s.unusable() != nil:
		return v.s.unusable()
	case v.s.dev != d:
		return fmt.Errorf("the view's slice is on %s, the call is on %s: make the view from a slice on the call's device", v.s.dev.shortName(), d.shortName())
	}
	return nil
}

// viewField is a View inside a state type: where it is, and its name for
// messages ("Table", "Inner.Tabs[2]").
type viewField struct {
	off  uintptr
	name string
	v    stateView
}

var stateViewType = reflect.TypeFor[stateView]()

// stateViews returns the Views a value of type t holds, at their offsets
// from the start of the value; prefix names the value in messages.
func stateViews(t reflect.Type, off uintptr, prefix string, out []viewField) []viewField {
	if t.Implements(stateViewType) && t.Kind() == reflect.Struct {
		return append(out, viewField{off: off, name: prefix, v: reflect.Zero(t).Interface().(stateView)})
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name := f.Name
			if prefix != "" {
				name = prefix + "." + name
			}
			out = stateViews(f.Type, off+f.Offset, name, out)
		}
	case reflect.Array:
		if t.Len() > 0 && len(stateViews(t.Elem(), 0, "", nil)) > 0 {
			for i := range t.Len() {
				out = stateViews(t.Elem(), off+uintptr(i)*t.Elem().Size(), prefix+"["+strconv.Itoa(i)+"]", out)
			}
		}
	}
	return out
}

// checkViews checks every View of the bound state at a call on d: each
// refers to a live slice of d. It allocates nothing when they do.
func (in *instance) checkViews(d *Device) error {
	st := &in.state
	if st.p == nil {
		return nil
	}
	for i := range st.views {
		f := &st.views[i]
		if err := f.v.checkView(unsafe.Add(st.p, f.off), d); err != nil {
			return in.wrap(fmt.Errorf("state %v, field %s: %w", st.typ, f.name, err), "")
		}
	}
	return nil
}
