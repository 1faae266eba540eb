package analyzer

import (
	"go/token"
	"go/types"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// builder translates the body of one operator into the model. Each Go
// construct has its own method (statements in stmt.go, expressions in
// expr.go, calls and conversions in call.go, constants in const.go); what
// is outside the subset is reported by reject.go. A method that cannot
// translate its construct reports why and returns nil; callers pass nil
// on, so one mistake is reported once and the rest of the body is still
// checked.
type builder struct {
	*analysis
	od    *opDecl
	names *namer
	vars  map[*types.Var]*model.Var // parameters and locals declared so far

	// bad holds variables declared with a type outside the subset: their
	// declaration was reported, their uses are not.
	bad map[*types.Var]bool

	// untypedInt, when set, is the type of untyped integer expressions
	// being translated (uint inside a non-constant untyped shift count);
	// otherwise they take their default type, int.
	untypedInt *model.Type

	// targets are the enclosing loops and switches, innermost last.
	targets []branchTarget
}

// translate fills in od.op.Body and names od's variables.
func (a *analysis) translate(od *opDecl) {
	b := &builder{
		analysis: a,
		od:       od,
		names:    newNamer(),
		vars:     make(map[*types.Var]*model.Var),
		bad:      make(map[*types.Var]bool),
	}
	for i, p := range od.op.Params {
		p.Name = b.names.name(p.Name)
		b.vars[od.params[i]] = p
	}
	body := od.decl.Body
	block := &model.Block{Pos: body.Lbrace}
	for i, r := range od.namedResults {
		v := b.declare(r, r.Pos(), od.op.Results[i])
		block.Stmts = append(block.Stmts, &model.DeclStmt{Pos: r.Pos(), Var: v})
	}
	block.Stmts = append(block.Stmts, b.stmts(body.List)...)
	od.op.Body = block
}

// declare creates the model variable of the Go variable obj, of type t.
func (b *builder) declare(obj *types.Var, pos token.Pos, t *model.Type) *model.Var {
	name := obj.Name()
	if name == "_" {
		name = "_r"
	}
	v := &model.Var{Name: b.names.name(name), Type: t, Pos: pos}
	b.vars[obj] = v
	return v
}

// declareLocal declares the local variable obj, reporting at pos when its
// type is outside the subset (unless quiet: its initializer was reported
// already). It returns nil when the variable cannot be declared.
func (b *builder) declareLocal(obj *types.Var, pos token.Pos, quiet bool) *model.Var {
	if obj == nil {
		return nil
	}
	t, problem := modelType(obj.Type())
	if t == nil {
		b.bad[obj] = true
		if !quiet {
			b.errorf(pos, "%s", problem)
		}
		return nil
	}
	return b.declare(obj, obj.Pos(), t)
}
