package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/gocccl/gocccl/model"
)

// intrinsic translates a call of the built-ins min and max, or of a function
// of package math or math/bits, into a model.Intrinsic.
func (b *builder) intrinsic(e *ast.CallExpr, obj types.Object) model.Expr {
	b.errorf(e.Pos(), "%s is not supported in operators yet", obj.Name())
	return nil
}
