package analyzer

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// halfNamed returns the model type of half.Float16 or half.BFloat16, or nil
// for any other named type.
func halfNamed(obj *types.TypeName) *model.Type {
	if obj.Pkg() == nil || obj.Pkg().Path() != model.HalfPkg {
		return nil
	}
	switch obj.Name() {
	case "Float16":
		return intrinsics.HalfType(model.Float16)
	case "BFloat16":
		return intrinsics.HalfType(model.BFloat16)
	}
	return nil
}

// halfCall translates a call of a function of package half (FromFloat32,
// BFloat16FromFloat32) or of a method of Float16 or BFloat16 (h.Add(x)),
// whose receiver becomes the first argument. A call whose arguments are all
// constants is folded with package half itself.
func (b *builder) halfCall(e *ast.CallExpr, fn *types.Func) model.Expr {
	if e.Ellipsis.IsValid() {
		b.errorf(e.Ellipsis, "... is not allowed in operators")
		return nil
	}
	name := "half." + fn.Name()
	var list []ast.Expr
	if recv := fn.Signature().Recv(); recv != nil {
		n, _ := types.Unalias(recv.Type()).(*types.Named)
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if n == nil || !ok {
			b.errorf(e.Pos(), "call %s as a method of a value: h.%s(…)", fn.Name(), fn.Name())
			return nil
		}
		if s, ok := b.info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
			b.errorf(e.Pos(), "method expressions are not allowed in operators: call %s as a method of a value, h.%s(…)", fn.Name(), fn.Name())
			return nil
		}
		name = "half." + n.Obj().Name() + "." + fn.Name()
		list = append(list, sel.X)
	}
	list = append(list, e.Args...)
	f := intrinsics.LookupHalf(name)
	if f == nil {
		b.errorf(e.Pos(), "%s is not supported in operators: the supported functions and methods of package half are %s (docs/OPERATORS.md)",
			name, strings.Join(intrinsics.HalfNames(), ", "))
		return nil
	}
	if len(list) != len(f.Params) {
		b.errorf(e.Pos(), "%s takes %d arguments, not %d", name, len(f.Params), len(list))
		return nil
	}
	args, ok := b.intrinsicArgs(list, f.Params)
	if !ok {
		return nil
	}
	if c := foldHalf(f, args); c != nil {
		c.Pos = e.Pos()
		return c
	}
	return &model.Intrinsic{Pos: e.Pos(), Func: name, Args: args, T: f.Result}
}

func foldHalf(f *intrinsics.HalfFunc, args []model.Expr) *model.Const {
	vals := make([]constant.Value, len(args))
	for i, a := range args {
		c, ok := a.(*model.Const)
		if !ok {
			return nil
		}
		vals[i] = c.Value
	}
	v, ok := f.Fold(vals)
	if !ok {
		return nil
	}
	return &model.Const{Value: v, T: f.Result}
}

// halfOpProblem explains why Go's operator op cannot be applied to a half
// value in an operator, and which method to call instead.
func halfOpProblem(op model.BinaryOp, t *model.Type) string {
	method := map[model.BinaryOp]string{
		model.Add: "Add", model.Sub: "Sub", model.Mul: "Mul", model.Quo: "Div",
		model.Lss: "Lt", model.Leq: "Le", model.Gtr: "Lt", model.Geq: "Le",
	}[op]
	s := "operator " + op.String() + " on half." + t.Name + " is not allowed in operators: Go applies it to the bit patterns (the type's underlying type is uint16)"
	if method == "" {
		return s + "; convert to uint16 for bit operations"
	}
	call := "x." + method + "(y)"
	if op == model.Gtr || op == model.Geq {
		call = "y." + method + "(x)"
	}
	return s + "; call its method " + method + ", " + call + ", which has floating-point semantics"
}
