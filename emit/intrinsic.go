package emit

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/internal/intrinsics"
	"github.com/gocccl/gocccl/model"
)

// intrinsic prints a call of a built-in or a math or math/bits function: a
// call of its helper in gocccl/gomath.cuh, which keeps Go's results (see
// the header for how exactly). min and max of several values nest, left to
// right, as Go defines them: min(x, y, z) == min(min(x, y), z).
func (e *opEmitter) intrinsic(x *model.Intrinsic) (string, bool) {
	switch x.Func {
	case "min", "max":
		return e.minMax(x), false
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
