package emit

import (
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// An operator's NaN twin is the operator with the GPU's float arithmetic:
// float + - * / as C++ operators instead of gosem.cuh's fadd, fsub, fmul
// and fquo, which give amd64's NaN payloads at the cost of a compare and a
// branch per operation. The twin computes the same values as the operator
// except that where one returns a NaN the other does too, perhaps with
// another payload, as long as the operator never looks at a NaN's bits.
// Kernels that fold the operator over a tile (kernels/include/gocccl/
// gpu_nan.cuh) run the twin first and the operator again only when a
// result is a NaN; the functor offers the twin as its member type gpu_nan.

// twinPrefix starts the C++ name of a NaN twin (a generator name: no
// operator can take it).
const twinPrefix = "gocccl_gpu_nan_"

// payloadReaders are the intrinsics whose results depend on a NaN's sign
// or payload: an operator that calls one (itself or through another
// operator) has no twin.
var payloadReaders = map[string]bool{
	"math.Float32bits": true,
	"math.Float64bits": true,
	"math.Signbit":     true,
	"math.Copysign":    true,
}

// hasNaNTwin reports whether op gets a NaN twin: a function (not a method)
// without fastmath (whose NaNs are the GPU's already) with one float
// result, float arithmetic of its own to speed up, and no reading of a
// NaN's bits, directly or in an operator it calls.
func hasNaNTwin(op *model.Op) bool {
	if op.FastMath || op.State != nil || op.Body == nil || len(op.Results) != 1 || !op.Results[0].IsFloat() {
		return false
	}
	arith := false
	model.Walk(op.Body, func(x model.Expr) {
		if b, ok := x.(*model.Binary); ok && floatHelpers[b.Op] != "" && b.X != nil && b.X.Type().IsFloat() {
			arith = true
		}
	})
	return arith && !readsPayload(op, map[*model.Op]bool{})
}

// readsPayload reports whether op or an operator it calls calls one of
// payloadReaders. seen breaks cycles (recursion is refused earlier, but
// the walk does not rely on it).
func readsPayload(op *model.Op, seen map[*model.Op]bool) bool {
	if seen[op] || op.Body == nil {
		return false
	}
	seen[op] = true
	reads := false
	model.Walk(op.Body, func(x model.Expr) {
		switch x := x.(type) {
		case *model.Intrinsic:
			reads = reads || payloadReaders[x.Func]
		case *model.Call:
			reads = reads || (x.Op != nil && readsPayload(x.Op, seen))
		}
	})
	return reads
}

// twin writes op's NaN twin after op itself: the same body with the GPU's
// float arithmetic. Operators it calls are called as they are.
func (e *opEmitter) twin(op *model.Op) {
	e.gpuNaN = true
	defer func() { e.gpuNaN = false }()
	e.w.p("")
	e.w.p("// %s%s is %s with the GPU's NaNs (see gocccl/gpu_nan.cuh).", twinPrefix, e.names.ops[op], e.names.ops[op])
	e.definition(op, twinPrefix+e.names.ops[op])
}
