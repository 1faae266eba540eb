package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// This file translates the struct and array expressions: field selections,
// indexing, composite literals and conversions between struct types.

// isArray reports whether t is an array type.
func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// selectorExpr translates x.f: a field of a struct value, reached through
// embedded fields when it is promoted. Anything else a selector can name
// (package-level variables, functions, methods) is reported.
func (b *builder) selectorExpr(e *ast.SelectorExpr) model.Expr {
	sel, ok := b.info.Selections[e]
	if !ok || sel.Kind() != types.FieldVal {
		b.selector(e)
		return nil
	}
	x := b.expr(e.X)
	if x == nil {
		return nil
	}
	return b.fieldOf(e, x)
}

// fieldOf selects the field e names from x, following the path of embedded
// fields go/types recorded.
func (b *builder) fieldOf(e *ast.SelectorExpr, x model.Expr) model.Expr {
	sel := b.info.Selections[e]
	if sel == nil {
		b.errorf(e.Sel.Pos(), "no type information for field %s", e.Sel.Name)
		return nil
	}
	for _, i := range sel.Index() {
		t := x.Type()
		if t == nil || t.Kind != model.Struct || i < 0 || i >= len(t.Fields) {
			b.errorf(e.Sel.Pos(), "%s has no field %s", typeName(t), e.Sel.Name)
			return nil
		}
		x = &model.Selector{Pos: e.Sel.Pos(), X: x, Field: i}
	}
	return x
}

// typeName returns t's Go name, or "value" when t is nil.
func typeName(t *model.Type) string {
	if t == nil {
		return "value"
	}
	return t.GoName()
}

// indexExpr translates a[i] on an array value. Indexing anything else
// (slices, strings, maps, generic functions) is reported.
func (b *builder) indexExpr(e *ast.IndexExpr) model.Expr {
	if tv, ok := b.info.Types[e.X]; !ok || !tv.IsValue() || !isArray(tv.Type) {
		b.rejectExpr(e)
		return nil
	}
	x := b.expr(e.X)
	if x == nil {
		return nil
	}
	return b.indexOf(e, x)
}

// indexOf indexes the array x with e's index, which may be of any integer
// type. A constant index is in range: go/types checked it.
func (b *builder) indexOf(e *ast.IndexExpr, x model.Expr) model.Expr {
	if x.Type() == nil || x.Type().Kind != model.Array {
		b.errorf(e.Lbrack, "cannot index %s: operators index only arrays", typeName(x.Type()))
		return nil
	}
	var i model.Expr
	if tv, ok := b.info.Types[e.Index]; ok && tv.Value != nil {
		i = b.constant(e.Index, tv, model.Basic(model.Int))
	} else {
		i = b.expr(e.Index)
	}
	if i == nil {
		return nil
	}
	if !i.Type().IsInteger() {
		b.errorf(e.Index.Pos(), "invalid array index of type %s: want an integer", i.Type().GoName())
		return nil
	}
	if c, ok := i.(*model.Const); ok {
		if n, exact := constant.Int64Val(c.Value); !exact || n < 0 || n >= x.Type().Len {
			b.errorf(e.Index.Pos(), "index %s out of range [0:%d]", c.Value, x.Type().Len)
			return nil
		}
	}
	return &model.Index{Pos: e.Lbrack, X: x, Index: i}
}

// compositeLit translates T{…} for a struct or array type T, keyed or not;
// the fields and elements it leaves out are zero.
func (b *builder) compositeLit(e *ast.CompositeLit) model.Expr {
	tv, ok := b.info.Types[e]
	if !ok {
		b.errorf(e.Lbrace, "no type information for composite literal")
		return nil
	}
	t, problem := modelType(tv.Type)
	if t == nil {
		b.errorf(e.Pos(), "%s", problem)
		return nil
	}
	if t.HasView() {
		b.errorf(e.Pos(), "a value of type %s cannot be made in an operator: it holds a runtime.View, which comes from Slice.View in the state given to Bind; read the receiver's views instead", t.GoName())
		return nil
	}
	if !t.IsComposite() {
		b.errorf(e.Pos(), "composite literals of type %s are not allowed in operators", t.GoName())
		return nil
	}
	var n int64
	if t.Kind == model.Struct {
		n = int64(len(t.Fields))
	} else {
		n = t.Len
	}
	lit := &model.Composite{Pos: e.Pos(), T: t, Elems: make([]model.Expr, n)}
	ok = true
	next := int64(0)
	for _, elt := range e.Elts {
		val := elt
		idx := next
		if kv, isKV := elt.(*ast.KeyValueExpr); isKV {
			val = kv.Value
			var found bool
			if idx, found = b.compositeKey(t, kv.Key); !found {
				ok = false
				continue
			}
		}
		next = idx + 1
		if idx < 0 || idx >= n {
			b.errorf(elt.Pos(), "index %d out of range for %s", idx, t.GoName())
			ok = false
			continue
		}
		want := b.elemType(t, idx)
		x := b.exprOf(val, want)
		if x == nil || !b.sameType(x, want) {
			ok = false
			continue
		}
		lit.Elems[idx] = x
	}
	if !ok {
		return nil
	}
	return lit
}

// compositeKey returns the index of the field or array element a key names.
func (b *builder) compositeKey(t *model.Type, key ast.Expr) (int64, bool) {
	if t.Kind == model.Struct {
		id, ok := key.(*ast.Ident)
		if ok {
			for i, f := range t.Fields {
				if f.Name == id.Name {
					return int64(i), true
				}
			}
		}
		b.errorf(key.Pos(), "unknown field %s in %s literal", types.ExprString(key), t.GoName())
		return 0, false
	}
	tv, ok := b.info.Types[key]
	if !ok || tv.Value == nil {
		b.errorf(key.Pos(), "array index must be a constant")
		return 0, false
	}
	i, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact {
		b.errorf(key.Pos(), "array index %s out of range", tv.Value)
		return 0, false
	}
	return i, true
}

// elemType returns the type of field or element i of the composite t.
func (b *builder) elemType(t *model.Type, i int64) *model.Type {
	if t.Kind == model.Struct {
		return t.Fields[i].Type
	}
	return t.Elem
}

// exprOf translates e where a value of type want is expected: an untyped
// constant becomes a constant of that type.
func (b *builder) exprOf(e ast.Expr, want *model.Type) model.Expr {
	if tv, ok := b.info.Types[e]; ok && tv.Value != nil && want.IsBasic() {
		return b.constant(e, tv, want)
	}
	return b.expr(e)
}

// compositeConversion translates T(x) where T or x is a struct or array:
// between struct types with identical underlying types, and between a
// defined array type and its underlying array type.
func (b *builder) compositeConversion(pos token.Pos, x model.Expr, t *model.Type) model.Expr {
	from := x.Type()
	switch {
	case from.Identical(t):
		return x
	case from.Kind == model.Array && t.Kind == model.Array && from.Len == t.Len && from.Elem.Identical(t.Elem):
		return &model.Convert{Pos: pos, X: x, T: t} // one C++ type
	case from.Kind == model.Struct && t.Kind == model.Struct && sameFields(from, t):
		return &model.Convert{Pos: pos, X: x, T: t}
	}
	b.errorf(pos, "cannot convert %s to %s", from.GoName(), t.GoName())
	return nil
}

// sameFields reports whether two struct types have identical fields:
// names and types in order, which Go requires to convert between them.
func sameFields(a, b *model.Type) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i, f := range a.Fields {
		if f.Name != b.Fields[i].Name || !f.Type.Identical(b.Fields[i].Type) {
			return false
		}
	}
	return true
}
