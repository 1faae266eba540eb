package analyzer

import (
	"go/constant"
	"go/token"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/intrinsics"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// checkModel checks the invariants the emitter relies on: no nil nodes,
// every variable use points at a parameter or a declaration of its own
// operator, names unique and safe in C++, types consistent, constants
// normalized, instances matching their operators and sorted by key.
func checkModel(t *testing.T, p *model.Package) {
	t.Helper()
	ops := make(map[*model.Op]bool)
	for _, op := range p.Ops {
		ops[op] = true
	}
	for _, op := range p.Imported {
		ops[op] = true
		assert.NotEqual(t, p.Path, op.Pkg, "imported operator %s of the package itself", op.Name)
	}
	for _, op := range p.Ops {
		c := &modelChecker{t: t, op: op, ops: ops, declared: make(map[*model.Var]bool), names: make(map[string]bool)}
		require.NotEmpty(t, op.Results, op.Name)
		assert.Equal(t, p.Path, op.Pkg, op.Name)
		for _, v := range op.Params {
			c.declare(v)
		}
		require.NotNil(t, op.Body, op.Name)
		c.stmt(op.Body)
	}
	var keys []string
	for _, in := range p.Instances {
		keys = append(keys, in.Key())
		alg := in.Algorithm
		require.Len(t, in.Ops, len(alg.Ops), in.Key())
		assert.True(t, in.Pos.IsValid(), in.Key())
		require.Len(t, in.Types, len(alg.TypeParams), in.Key())
		for k, op := range in.Ops {
			// An imported operator (of another package's //gocccl:op)
			// is among the package's Imported.
			assert.True(t, ops[op], "instance %s refers to an operator outside the package", in.Key())
			params, results := op.Signature()
			sig := alg.Ops[k]
			for i, name := range append(slices.Clone(sig.Params), sig.Results...) {
				have := append(slices.Clone(params), results...)[i]
				if j := alg.TypeIndex(name); j >= 0 {
					assert.True(t, have.Identical(in.Types[j]), in.Key())
				}
			}
			if in.State != nil && op.State != nil {
				assert.True(t, op.State.Identical(in.State), "%s: state %s", in.Key(), in.State.GoName())
			}
		}
		if in.State != nil {
			assert.True(t, slices.ContainsFunc(in.Ops, func(op *model.Op) bool { return op.State != nil }), "%s: state %s but no method", in.Key(), in.State.GoName())
		}
	}
	assert.True(t, slices.IsSorted(keys), "instances not sorted by key: %v", keys)
	assert.Len(t, slices.Compact(slices.Clone(keys)), len(keys), "duplicate instances: %v", keys)
}

type modelChecker struct {
	t        *testing.T
	op       *model.Op
	ops      map[*model.Op]bool
	declared map[*model.Var]bool
	names    map[string]bool
	targets  []model.Stmt // enclosing loops and switches
}

func (c *modelChecker) declare(v *model.Var) {
	t := c.t
	require.NotNil(t, v, c.op.Name)
	assert.False(t, c.declared[v], "%s: %s declared twice", c.op.Name, v.Name)
	assert.False(t, c.names[v.Name], "%s: name %s not unique", c.op.Name, v.Name)
	assert.True(t, token.IsIdentifier(v.Name), "%s: name %q is not a Go identifier", c.op.Name, v.Name)
	assert.NotEqual(t, "_", v.Name, "%s: blank variable declared", c.op.Name)
	c.typ(v.Type)
	c.declared[v] = true
	c.names[v.Name] = true
}

func (c *modelChecker) use(v *model.Var) {
	require.NotNil(c.t, v, c.op.Name)
	assert.True(c.t, c.declared[v], "%s: %s used before or without its declaration", c.op.Name, v.Name)
}

func (c *modelChecker) typ(ty *model.Type) {
	require.NotNil(c.t, ty, c.op.Name)
	switch ty.Kind {
	case model.Struct:
		assert.NotEmpty(c.t, ty.Name, "%s: unnamed struct", c.op.Name)
		for _, f := range ty.Fields {
			c.typ(f.Type)
		}
	case model.Array:
		assert.Positive(c.t, ty.Len, "%s: array length", c.op.Name)
		c.typ(ty.Elem)
	case model.View:
		c.typ(ty.Elem)
		assert.False(c.t, ty.Elem.HasView(), "%s: view of views", c.op.Name)
	case model.Tuple:
		assert.GreaterOrEqual(c.t, len(ty.Elems), 2, "%s: tuple of %d", c.op.Name, len(ty.Elems))
		for _, e := range ty.Elems {
			c.typ(e)
		}
	default:
		assert.True(c.t, ty.IsBool() || ty.IsNumeric() || ty.IsComplex() || ty.IsHalf(), "%s: bad type %+v", c.op.Name, ty)
	}
}

func (c *modelChecker) same(a, b *model.Type, what string) {
	c.typ(a)
	c.typ(b)
	assert.True(c.t, b.AssignableTo(a) || a.AssignableTo(b), "%s: %s: %s vs %s", c.op.Name, what, a.GoName(), b.GoName())
}

func (c *modelChecker) stmt(s model.Stmt) {
	t := c.t
	require.NotNil(t, s, c.op.Name)
	assert.True(t, s.Position().IsValid(), "%s: %T without position", c.op.Name, s)
	switch s := s.(type) {
	case *model.Block:
		for _, st := range s.Stmts {
			c.stmt(st)
		}
	case *model.DeclStmt:
		if s.Init != nil {
			c.same(s.Var.Type, c.expr(s.Init), "declaration of "+s.Var.Name)
		}
		c.declare(s.Var)
	case *model.AssignStmt:
		require.NotEmpty(t, s.Targets)
		if len(s.Values) == 1 && len(s.Targets) > 1 {
			vt := c.expr(s.Values[0])
			require.Equal(t, model.Tuple, vt.Kind, "%s: one value for %d targets", c.op.Name, len(s.Targets))
			require.Len(t, vt.Elems, len(s.Targets))
			for i, lv := range s.Targets {
				if lv != nil {
					c.same(c.expr(lv), vt.Elems[i], "assignment")
				}
			}
			break
		}
		require.Len(t, s.Values, len(s.Targets))
		for i, lv := range s.Targets {
			if lv != nil {
				c.same(c.expr(lv), c.expr(s.Values[i]), "assignment")
			}
		}
	case *model.IfStmt:
		if s.Init != nil {
			c.stmt(s.Init)
		}
		assert.True(t, c.expr(s.Cond).IsBool(), "%s: if condition not bool", c.op.Name)
		c.stmt(s.Then)
		if s.Else != nil {
			switch s.Else.(type) {
			case *model.Block, *model.IfStmt:
			default:
				t.Errorf("%s: else is %T", c.op.Name, s.Else)
			}
			c.stmt(s.Else)
		}
	case *model.ReturnStmt:
		if len(s.Results) == 1 && len(c.op.Results) > 1 {
			c.same(model.TupleOf(c.op.Results), c.expr(s.Results[0]), "return")
			break
		}
		require.Len(t, s.Results, len(c.op.Results))
		for i, r := range s.Results {
			c.same(c.op.Results[i], c.expr(r), "return")
		}
	case *model.ForStmt:
		if s.Init != nil {
			c.stmt(s.Init)
		}
		if s.Cond != nil {
			assert.True(t, c.expr(s.Cond).IsBool(), "%s: loop condition not bool", c.op.Name)
		}
		if s.Post != nil {
			c.stmt(s.Post)
		}
		c.targets = append(c.targets, s)
		c.stmt(s.Body)
		c.targets = c.targets[:len(c.targets)-1]
	case *model.SwitchStmt:
		if s.Init != nil {
			c.stmt(s.Init)
		}
		var tag *model.Type
		if s.Tag != nil {
			tag = c.expr(s.Tag)
		}
		defaults := 0
		c.targets = append(c.targets, s)
		for i, cl := range s.Clauses {
			if cl.Default {
				defaults++
				assert.Empty(t, cl.List, "%s: default with case values", c.op.Name)
			}
			for _, x := range cl.List {
				if tag != nil {
					c.same(tag, c.expr(x), "case value")
				} else {
					assert.True(t, c.expr(x).IsBool(), "%s: case of a tagless switch not bool", c.op.Name)
				}
			}
			for _, st := range cl.Body {
				c.stmt(st)
			}
			assert.False(t, cl.Fallthrough && i == len(s.Clauses)-1, "%s: fallthrough in the last clause", c.op.Name)
		}
		c.targets = c.targets[:len(c.targets)-1]
		assert.LessOrEqual(t, defaults, 1, "%s: several defaults", c.op.Name)
	case *model.BranchStmt:
		require.NotNil(t, s.Target, "%s: branch without target", c.op.Name)
		assert.Contains(t, c.targets, s.Target, "%s: branch to a statement that does not enclose it", c.op.Name)
		if s.Kind == model.Continue {
			_, isLoop := s.Target.(*model.ForStmt)
			assert.True(t, isLoop, "%s: continue of a switch", c.op.Name)
		}
	default:
		t.Errorf("%s: unknown statement %T", c.op.Name, s)
	}
}

func (c *modelChecker) expr(e model.Expr) *model.Type {
	t := c.t
	require.NotNil(t, e, c.op.Name)
	assert.True(t, e.Position().IsValid(), "%s: %T without position", c.op.Name, e)
	switch e := e.(type) {
	case *model.VarRef:
		c.use(e.Var)
	case *model.Const:
		c.typ(e.T)
		require.NotNil(t, e.Value)
		want := map[bool]constant.Kind{true: constant.Int, false: constant.Float}[e.T.IsInteger() || e.T.IsHalf()]
		if e.T.IsBool() {
			want = constant.Bool
		}
		if e.T.IsComplex() && e.Value.Kind() == constant.Complex {
			want = constant.Complex
		}
		assert.Equal(t, want, e.Value.Kind(), "%s: constant %s of type %s", c.op.Name, e.Value, e.T.GoName())
	case *model.Unary:
		x := c.expr(e.X)
		switch e.Op {
		case model.Not:
			assert.True(t, x.IsBool())
		case model.Neg:
			assert.True(t, x.IsNumeric() || x.IsComplex())
		case model.BitNot:
			assert.True(t, x.IsInteger())
		default:
			t.Errorf("%s: unary op %d", c.op.Name, e.Op)
		}
	case *model.Binary:
		x, y := c.expr(e.X), c.expr(e.Y)
		c.typ(e.T)
		switch {
		case e.Op.IsComparison():
			c.same(x, y, "comparison operands")
			assert.True(t, e.T.IsBool())
		case e.Op == model.LAnd || e.Op == model.LOr:
			assert.True(t, x.IsBool() && y.IsBool() && e.T.IsBool())
		case e.Op == model.Shl || e.Op == model.Shr:
			c.same(e.T, x, "shift")
			assert.True(t, x.IsInteger() && y.IsInteger(), "%s: shift of %s by %s", c.op.Name, x.GoName(), y.GoName())
		default:
			c.same(x, y, "operands of "+e.Op.String())
			c.same(e.T, x, "result of "+e.Op.String())
			assert.True(t, x.IsNumeric() || x.IsComplex() && e.Op <= model.Quo, "%s: arithmetic on %s", c.op.Name, x.GoName())
		}
	case *model.Convert:
		c.expr(e.X)
		c.typ(e.T)
	case *model.Call:
		require.NotNil(t, e.Op)
		assert.True(t, c.ops[e.Op], "%s: call of an operator outside the package and its imports", c.op.Name)
		params, _ := e.Op.Signature()
		if len(e.Args) == 1 && len(params) > 1 {
			c.same(model.TupleOf(params), c.expr(e.Args[0]), "arguments of "+e.Op.Name)
			break
		}
		require.Len(t, e.Args, len(e.Op.Params))
		for i, a := range e.Args {
			c.same(e.Op.Params[i].Type, c.expr(a), "argument of "+e.Op.Name)
		}
	case *model.Selector:
		x := c.expr(e.X)
		require.Equal(t, model.Struct, x.Kind, "%s: field of %s", c.op.Name, x.GoName())
		require.Less(t, e.Field, len(x.Fields))
	case *model.Index:
		x := c.expr(e.X)
		require.Equal(t, model.Array, x.Kind, "%s: index of %s", c.op.Name, x.GoName())
		assert.True(t, c.expr(e.Index).IsInteger(), "%s: index not an integer", c.op.Name)
	case *model.Composite:
		c.typ(e.T)
		require.True(t, e.T.IsComposite(), "%s: composite of %s", c.op.Name, e.T.GoName())
		n := int(e.T.Len)
		if e.T.Kind == model.Struct {
			n = len(e.T.Fields)
		}
		require.Len(t, e.Elems, n)
		for i, x := range e.Elems {
			if x == nil {
				continue
			}
			want := e.T.Elem
			if e.T.Kind == model.Struct {
				want = e.T.Fields[i].Type
			}
			c.same(want, c.expr(x), "element of "+e.T.GoName())
		}
	case *model.Intrinsic:
		c.intrinsic(e)
	default:
		t.Errorf("%s: unknown expression %T", c.op.Name, e)
	}
	return e.Type()
}

// intrinsic checks a call of min, max or a math or math/bits function
// against its Go signature.
func (c *modelChecker) intrinsic(e *model.Intrinsic) {
	t := c.t
	if e.Func == "min" || e.Func == "max" {
		require.GreaterOrEqual(t, len(e.Args), 2, "%s: %s", c.op.Name, e.Func)
		assert.True(t, e.T.IsNumeric(), "%s: %s of %s", c.op.Name, e.Func, e.T.GoName())
		for _, a := range e.Args {
			c.same(e.T, c.expr(a), "argument of "+e.Func)
		}
		return
	}
	switch e.Func {
	case "complex":
		require.Len(t, e.Args, 2)
		require.True(t, e.T.IsComplex(), "%s: complex of type %s", c.op.Name, e.T.GoName())
		for _, a := range e.Args {
			c.same(e.T.PartType(), c.expr(a), "argument of complex")
		}
		return
	case "real", "imag":
		require.Len(t, e.Args, 1)
		x := c.expr(e.Args[0])
		require.True(t, x.IsComplex(), "%s: %s of %s", c.op.Name, e.Func, x.GoName())
		c.same(x.PartType(), e.T, "result of "+e.Func)
		return
	case "View.At", "View.Len":
		require.NotEmpty(t, e.Args, "%s: %s without its view", c.op.Name, e.Func)
		v := c.expr(e.Args[0])
		require.Equal(t, model.View, v.Kind, "%s: %s of %s", c.op.Name, e.Func, v.GoName())
		assert.NotNil(t, c.op.State, "%s: a view outside a state", c.op.Name)
		if e.Func == "View.Len" {
			assert.Len(t, e.Args, 1)
			assert.Equal(t, model.Int, e.T.Kind, "%s: Len has type %s", c.op.Name, e.T.GoName())
			return
		}
		require.Len(t, e.Args, 2)
		c.same(model.Basic(model.Int), c.expr(e.Args[1]), "index of View.At")
		assert.True(t, v.Elem.Identical(e.T), "%s: At has type %s", c.op.Name, e.T.GoName())
		return
	}
	if h := intrinsics.LookupHalf(e.Func); h != nil {
		require.Len(t, e.Args, len(h.Params))
		for i, a := range e.Args {
			c.same(h.Params[i], c.expr(a), "argument of "+e.Func)
		}
		assert.True(t, h.Result.Identical(e.T), "%s: %s has type %s", c.op.Name, e.Func, e.T.GoName())
		return
	}
	fn := intrinsics.Lookup(e.Func)
	require.NotNil(t, fn, "%s: unknown intrinsic %s", c.op.Name, e.Func)
	require.Len(t, e.Args, len(fn.Params))
	for i, a := range e.Args {
		c.same(fn.Params[i], c.expr(a), "argument of "+e.Func)
	}
	assert.True(t, fn.Result().Identical(e.T), "%s: %s has type %s", c.op.Name, e.Func, e.T.GoName())
}
