package emit

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// intrinsic prints a call of a built-in or a math or math/bits function: a
// call of its helper in gocccl/gomath.cuh, which keeps Go's results (see
// the header for how exactly). min and max of several values nest, left to
// right, as Go defines them: min(x, y, z) == min(min(x, y), z).
func (e *opEmitter) intrinsic(x *model.Intrinsic) (string, bool) {
	switch x.Func {
	case "min", "max":
		return e.minMax(x), false
	case "View.At", "View.Len":
		return e.viewCall(x), false
	case "complex", "real", "imag":
		return e.complexBuiltin(x), false
	}
	if h := intrinsics.LookupHalf(x.Func); h != nil {
		return e.halfCall(x, h), false
	}
	fn := intrinsics.Lookup(x.Func)
	if fn == nil {
		return e.fail(x.Pos, "%s is not a supported intrinsic", x.Func), false
	}
	if len(x.Args) != len(fn.Params) {
		return e.fail(x.Pos, "call of %s with %d arguments, want %d", fn.Name, len(x.Args), len(fn.Params)), false
	}
	if x.T == nil || !x.T.Identical(fn.Result()) {
		return e.fail(x.Pos, "call of %s of type %s, want %s", fn.Name, typeString(x.T), fn.Result().GoName()), false
	}
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		if a == nil {
			return e.fail(x.Pos, "argument %d of %s is missing", i+1, fn.Name), false
		}
		e.sameType(x.Pos, fn.Params[i], a.Type(), fmt.Sprintf("argument %d of %s", i+1, fn.Name))
		args[i] = e.top(a)
	}
	return fn.CName() + "(" + strings.Join(args, ", ") + ")", false
}

// minMax prints min or max of one or more integers or floats.
func (e *opEmitter) minMax(x *model.Intrinsic) string {
	t := x.T
	if t == nil || !t.IsNumeric() {
		return e.fail(x.Pos, "%s of %s", x.Func, typeString(t))
	}
	if len(x.Args) == 0 {
		return e.fail(x.Pos, "%s without arguments", x.Func)
	}
	var s string
	for i, a := range x.Args {
		if a == nil {
			return e.fail(x.Pos, "argument %d of %s is missing", i+1, x.Func)
		}
		e.sameType(x.Pos, t, a.Type(), fmt.Sprintf("argument %d of %s", i+1, x.Func))
		if i == 0 {
			s = e.top(a)
			continue
		}
		s = fmt.Sprintf("%s%s<%s>(%s, %s)", gosem, x.Func, cType(t), s, e.top(a))
	}
	return s
}

// viewCall prints v.At(i) and v.Len() of a runtime.View v: calls of
// gocccl::go::view_at, which traps when i is out of range as Go's At
// panics, and view_len.
func (e *opEmitter) viewCall(x *model.Intrinsic) string {
	want := 2
	if x.Func == "View.Len" {
		want = 1
	}
	if len(x.Args) != want {
		return e.fail(x.Pos, "call of %s with %d arguments, want %d", x.Func, len(x.Args), want)
	}
	for i, a := range x.Args {
		if a == nil {
			return e.fail(x.Pos, "argument %d of %s is missing", i+1, x.Func)
		}
	}
	v := x.Args[0].Type()
	if v == nil || v.Kind != model.View {
		return e.fail(x.Pos, "%s of %s, not a view", x.Func, typeString(v))
	}
	if x.Func == "View.Len" {
		e.sameType(x.Pos, model.Basic(model.Int), x.T, "result of View.Len")
		return gosem + "view_len(" + e.top(x.Args[0]) + ")"
	}
	e.sameType(x.Pos, model.Basic(model.Int), x.Args[1].Type(), "index of View.At")
	if x.T == nil || !x.T.Identical(v.Elem) {
		return e.fail(x.Pos, "View.At of type %s, want %s", typeString(x.T), v.Elem.GoName())
	}
	return gosem + "view_at(" + e.top(x.Args[0]) + ", " + e.top(x.Args[1]) + ")"
}

// complexBuiltin prints complex(re, im), real(c) and imag(c): a complex
// struct built from its parts (left to right, as Go evaluates them), and a
// read of one part.
func (e *opEmitter) complexBuiltin(x *model.Intrinsic) string {
	want := 1
	if x.Func == "complex" {
		want = 2
	}
	if len(x.Args) != want || x.T == nil {
		return e.fail(x.Pos, "call of %s with %d arguments, want %d", x.Func, len(x.Args), want)
	}
	for i, a := range x.Args {
		if a == nil {
			return e.fail(x.Pos, "argument %d of %s is missing", i+1, x.Func)
		}
	}
	if x.Func == "complex" {
		if !x.T.IsComplex() {
			return e.fail(x.Pos, "complex of type %s", x.T.GoName())
		}
		for i, a := range x.Args {
			e.sameType(x.Pos, x.T.PartType(), a.Type(), fmt.Sprintf("argument %d of complex", i+1))
		}
		return fmt.Sprintf("%s{%s, %s}", cType(x.T), e.top(x.Args[0]), e.top(x.Args[1]))
	}
	c := x.Args[0].Type()
	if c == nil || !c.IsComplex() {
		return e.fail(x.Pos, "%s of %s, not a complex number", x.Func, typeString(c))
	}
	e.sameType(x.Pos, c.PartType(), x.T, "result of "+x.Func)
	return gosem + "c" + x.Func + "(" + e.top(x.Args[0]) + ")"
}

// halfCall prints a call of a function or method of package half: its
// helper in gocccl/gohalf.cuh, the receiver of a method first.
func (e *opEmitter) halfCall(x *model.Intrinsic, h *intrinsics.HalfFunc) string {
	if len(x.Args) != len(h.Params) {
		return e.fail(x.Pos, "call of %s with %d arguments, want %d", h.Name, len(x.Args), len(h.Params))
	}
	if x.T == nil || !x.T.Identical(h.Result) {
		return e.fail(x.Pos, "call of %s of type %s, want %s", h.Name, typeString(x.T), h.Result.GoName())
	}
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		if a == nil {
			return e.fail(x.Pos, "argument %d of %s is missing", i+1, h.Name)
		}
		e.sameType(x.Pos, h.Params[i], a.Type(), fmt.Sprintf("argument %d of %s", i+1, h.Name))
		args[i] = e.top(a)
	}
	return h.CName() + "(" + strings.Join(args, ", ") + ")"
}
