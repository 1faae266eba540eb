package analyzer

import (
	"go/types"
	"strconv"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// basicKinds maps the predeclared types an operator may use to model kinds.
// Untyped kinds map to the default type of their constants.
var basicKinds = map[types.BasicKind]model.Kind{
	types.Bool:       model.Bool,
	types.Int8:       model.Int8,
	types.Int16:      model.Int16,
	types.Int32:      model.Int32,
	types.Int64:      model.Int64,
	types.Int:        model.Int,
	types.Uint8:      model.Uint8,
	types.Uint16:     model.Uint16,
	types.Uint32:     model.Uint32,
	types.Uint64:     model.Uint64,
	types.Uint:       model.Uint,
	types.Uintptr:    model.Uintptr,
	types.Float32:    model.Float32,
	types.Float64:    model.Float64,
	types.Complex64:  model.Complex64,
	types.Complex128: model.Complex128,

	types.UntypedBool:    model.Bool,
	types.UntypedInt:     model.Int,
	types.UntypedRune:    model.Int32,
	types.UntypedFloat:   model.Float64,
	types.UntypedComplex: model.Complex128,
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
	case *types.Array:
		return arrayType(t, "", "")
	case *types.Struct:
		return nil, "unnamed struct types are not supported in operators: declare a named struct type at package level"
	}
	return nil, typeProblem(t)
}

// arrayType translates [N]E; name and pkg name a defined array type.
func arrayType(t *types.Array, name, pkg string) (*model.Type, string) {
	elem, problem := modelType(t.Elem())
	if elem == nil {
		return nil, problem
	}
	if elem.Kind == model.Tuple {
		return nil, typeProblem(t)
	}
	if t.Len() <= 0 || elem.Size() == 0 {
		return nil, "zero-size arrays are not supported in operators"
	}
	if t.Len() > maxCompositeSize/elem.Size() {
		return nil, "array type " + types.TypeString(t, nil) + " is too large for an operator (at most 64 KiB)"
	}
	return &model.Type{Kind: model.Array, Name: name, Pkg: pkg, Elem: elem, Len: t.Len()}, ""
}

// maxCompositeSize bounds the size of struct and array values: an operator
// keeps them in registers or thread-local memory.
const maxCompositeSize = 64 << 10

// gcSizes are the sizes the Go toolchain uses on the 64-bit platforms
// gocccl supports; struct layouts are checked against them.
var gcSizes = types.SizesFor("gc", "amd64")

// structType translates a defined struct type. Its fields keep Go's order
// and offsets, so a host []T and a device array of T hold the same bytes.
func structType(st *types.Struct, name, pkg string) (*model.Type, string) {
	t := &model.Type{Kind: model.Struct, Name: name, Pkg: pkg}
	vars := make([]*types.Var, st.NumFields())
	for i := range st.NumFields() {
		f := st.Field(i)
		vars[i] = f
		ft, problem := modelType(f.Type())
		if ft == nil {
			return nil, "field " + f.Name() + " of " + name + ": " + problem
		}
		t.Fields = append(t.Fields, &model.Field{Name: f.Name(), Type: ft})
	}
	model.Layout(t.Fields)
	if t.Size() == 0 {
		return nil, "zero-size struct " + name + " is not supported in operators"
	}
	if t.Size() > maxCompositeSize {
		return nil, "struct " + name + " is too large for an operator (at most 64 KiB)"
	}
	if len(vars) > 0 && t.Fields[len(vars)-1].Type.Size() == 0 {
		return nil, "struct " + name + " ends in a zero-size field, which Go pads: not supported in operators"
	}
	offsets := gcSizes.Offsetsof(vars)
	for i, f := range t.Fields {
		if offsets[i] != f.Offset {
			return nil, "struct " + name + ": field " + f.Name + " is at offset " +
				itoa(offsets[i]) + " in Go but " + itoa(f.Offset) + " on the device"
		}
	}
	if gcSizes.Sizeof(st) != t.Size() {
		return nil, "struct " + name + " has size " + itoa(gcSizes.Sizeof(st)) + " in Go but " + itoa(t.Size()) + " on the device"
	}
	return t, ""
}

// namedType translates a defined type over a supported basic type.
func namedType(t *types.Named) (*model.Type, string) {
	obj := t.Obj()
	if obj.Pkg() == nil { // error, comparable
		return nil, typeProblem(t.Underlying())
	}
	if h := halfNamed(obj); h != nil {
		return h, ""
	}
	if obj.Pkg().Path() == runtimePath && obj.Name() == "View" && t.TypeArgs().Len() == 1 {
		return viewType(t.TypeArgs().At(0))
	}
	if t.TypeArgs().Len() > 0 || t.TypeParams().Len() > 0 {
		return nil, "generic type " + obj.Name() + " is not allowed in operators: use a non-generic type"
	}
	if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
		return nil, "type " + obj.Name() + " is declared inside a function: declare it at package level"
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return structType(u, obj.Name(), obj.Pkg().Path())
	case *types.Array:
		return arrayType(u, obj.Name(), obj.Pkg().Path())
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

// viewType translates runtime.View[E]: a read-only view of a buffer of E,
// allowed only inside a state type (see viewProblem).
func viewType(e types.Type) (*model.Type, string) {
	elem, problem := modelType(e)
	if elem == nil {
		return nil, "runtime.View[" + types.TypeString(e, nil) + "]: " + problem
	}
	if elem.Kind == model.Tuple {
		return nil, typeProblem(e)
	}
	if elem.HasView() {
		return nil, "runtime.View[" + elem.GoName() + "]: the elements of a viewed buffer are plain values, not views"
	}
	return &model.Type{Kind: model.View, Elem: elem}, ""
}

// viewProblem explains why a type that holds a runtime.View is not allowed
// where a value of it would be: views are read from an operator's state
// (its receiver) only. role names the position ("parameter x"), and it
// returns "" when t holds no view.
func viewProblem(t *model.Type, role string) string {
	if t == nil || !t.HasView() {
		return ""
	}
	return role + " of type " + t.GoName() + " holds a runtime.View: a view may be only a field of an operator's state (its receiver), " +
		"made by Slice.View and given to Bind; put it in the state struct and read it there with At and Len"
}

// basicProblem explains why a basic type is not allowed.
func basicProblem(t *types.Basic) string {
	switch {
	case t.Info()&types.IsString != 0:
		return "strings are not allowed in operators: use numeric types"
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
		return "slices are not allowed in operators: use a fixed-size array ([N]T)"
	case *types.Array:
		return "array type " + types.TypeString(t, nil) + " is not allowed in operators"
	case *types.Struct:
		return "unnamed struct types are not supported in operators: declare a named struct type at package level"
	case *types.Map:
		return "maps are not allowed in operators: use a switch, or a fixed-size array indexed by a small integer"
	case *types.Chan:
		return "channels are not allowed in operators: pass values as parameters and return results"
	case *types.Signature:
		return "function values are not allowed in operators: call //gocccl:op functions by name"
	case *types.Interface:
		return "interfaces are not allowed in operators: use concrete numeric types"
	case *types.TypeParam:
		return "type parameters are not allowed in operators: write one //gocccl:op function per type"
	case *types.Tuple:
		return "multiple values are not allowed here"
	case *types.Named:
		return typeProblem(t.Underlying())
	}
	return "type " + types.TypeString(t, nil) + " is not allowed in operators: use numeric types or bool"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
