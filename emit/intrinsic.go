package emit

import "github.com/gocccl/gocccl/model"

// intrinsic prints a call of a built-in or a math or math/bits function.
func (e *opEmitter) intrinsic(x *model.Intrinsic) (string, bool) {
	return e.fail(x.Pos, "intrinsic %s is not supported", x.Func), false
}
