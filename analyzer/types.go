package analyzer

import (
	"go/types"

	"github.com/gocccl/gocccl/model"
)

// basicKinds maps the predeclared types an operator may use to model kinds.
// Untyped kinds map to the default type of their constants.
var basicKinds = map[types.BasicKind]model.Kind{
	types.Bool:    model.Bool,
	types.Int8:    model.Int8,
	types.Int16:   model.Int16,
	types.Int32:   model.Int32,
	types.Int64:   model.Int64,
	types.Int:     model.Int,
	types.Uint8:   model.Uint8,
	types.Uint16:  model.Uint16,
	types.Uint32:  model.Uint32,
	types.Uint64:  model.Uint64,
	types.Uint:    model.Uint,
	types.Uintptr: model.Uintptr,
	types.Float32: model.Float32,
	types.Float64: model.Float64,

	types.UntypedBool:  model.Bool,
	types.UntypedInt:   model.Int,
	types.UntypedRune:  model.Int32,
	types.UntypedFloat: model.Float64,
}

// modelType translates a Go type into a model type. When t is outside the
// subset it returns nil and a message saying what is not allowed and what to
// use instead; the caller reports it at the right position.
func modelType(t types.Type) (*model.Type, string) {
	if t == nil {
		return nil, "expression has no type"
	}
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Basic:
		if k, ok := basicKinds[t.Kind()]; ok {
			return model.Basic(k), ""
		}
		return nil, basicProblem(t)
	case *types.Named:
		return namedType(t)
	}
	return nil, typeProblem(t)
}

// namedType translates a defined type over a supported basic type.
func namedType(t *types.Named) (*model.Type, string) {
	obj := t.Obj()
	if obj.Pkg() == nil { // error, comparable
		return nil, typeProblem(t.Underlying())
	}
	if t.TypeArgs().Len() > 0 || t.TypeParams().Len() > 0 {
		return nil, "generic type " + obj.Name() + " is not allowed in operators: use a non-generic type"
	}
	if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
		return nil, "type " + obj.Name() + " is declared inside a function: declare it at package level"
	}
	under, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil, typeProblem(t.Underlying())
	}
	k, ok := basicKinds[under.Kind()]
	if !ok || under.Info()&types.IsUntyped != 0 {
		return nil, basicProblem(under)
	}
	return &model.Type{Kind: k, Name: obj.Name(), Pkg: obj.Pkg().Path()}, ""
}

// basicProblem explains why a basic type is not allowed.
func basicProblem(t *types.Basic) string {
	switch {
	case t.Info()&types.IsString != 0:
		return "strings are not allowed in operators: use numeric types"
	case t.Info()&types.IsComplex != 0:
		return "complex numbers are not supported in operators: use separate float values"
	case t.Kind() == types.UnsafePointer:
		return "unsafe.Pointer is not allowed in operators: pass and return values"
	case t.Kind() == types.UntypedNil:
		return "nil is not allowed in operators: operators have no pointers, slices, maps or interfaces"
	}
	return "type " + t.String() + " is not allowed in operators: use numeric types or bool"
}

// typeProblem explains why a composite type is not allowed.
func typeProblem(t types.Type) string {
	switch t := t.(type) {
	case *types.Basic:
		return basicProblem(t)
	case *types.Pointer:
		return "pointers are not allowed in operators: pass and return values"
	case *types.Slice:
		return "slices are not allowed in operators: operators work on single values"
	case *types.Array:
		return "arrays are not supported in operators yet: use separate values"
	case *types.Struct:
		return "structs are not supported in operators yet: use separate values"
	case *types.Map:
		return "maps are not allowed in operators"
	case *types.Chan:
		return "channels are not allowed in operators"
	case *types.Signature:
		return "function values are not allowed in operators: call //gocccl:op functions by name"
	case *types.Interface:
		return "interfaces are not allowed in operators: use concrete numeric types"
	case *types.TypeParam:
		return "type parameters are not allowed in operators: write one //gocccl:op function per type"
	case *types.Tuple:
		return "multiple values are not allowed here: operators return exactly one value for now"
	case *types.Named:
		return typeProblem(t.Underlying())
	}
	return "type " + types.TypeString(t, nil) + " is not allowed in operators: use numeric types or bool"
}
