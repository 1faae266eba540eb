package model

import (
	"fmt"
	"go/constant"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Format returns a deterministic, human-readable dump of p: every operator as
// a tree of statements and expressions with their types and positions, then
// every instance. Positions are "file:line:col" (the file relative to p.Dir)
// on operators and instances and "line:col" inside an operator. It is meant
// for golden tests and debugging, not for parsing.
func Format(p *Package) string {
	f := &formatter{pkg: p}
	f.line(0, "package %s %s", p.Name, p.Path)
	for _, op := range p.Ops {
		f.op(op)
	}
	for _, op := range p.Imported {
		f.line(0, "")
		f.line(0, "imported %s.%s @ %s", op.Pkg, op.Name, f.filePos(op.Pos))
	}
	for _, in := range p.Instances {
		f.instance(in)
	}
	return f.b.String()
}

type formatter struct {
	pkg *Package
	b   strings.Builder
}

func (f *formatter) line(depth int, format string, args ...any) {
	f.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&f.b, format, args...)
	f.b.WriteByte('\n')
}

// filePos returns "file:line:col" with the file relative to the package.
func (f *formatter) filePos(pos token.Pos) string {
	if f.pkg.Fset == nil || !pos.IsValid() {
		return "-"
	}
	p := f.pkg.Fset.Position(pos)
	name := p.Filename
	if rel, err := filepath.Rel(f.pkg.Dir, name); err == nil && f.pkg.Dir != "" && !strings.HasPrefix(rel, "..") {
		name = rel
	} else {
		name = filepath.Base(name)
	}
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(name), p.Line, p.Column)
}

// pos returns "line:col".
func (f *formatter) pos(pos token.Pos) string {
	if f.pkg.Fset == nil || !pos.IsValid() {
		return "-"
	}
	p := f.pkg.Fset.Position(pos)
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// typ returns t's Go name; a named type adds its kind, and its package when
// that is not p.
func (f *formatter) typ(t *Type) string {
	switch {
	case t == nil:
		return "<nil type>"
	case t.Name == "":
		return t.GoName()
	case t.Pkg == f.pkg.Path:
		return fmt.Sprintf("%s(%s)", t.Name, t.Kind)
	}
	return fmt.Sprintf("%s.%s(%s)", t.Pkg, t.Name, t.Kind)
}

func (f *formatter) types(ts []*Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = f.typ(t)
	}
	return strings.Join(s, ", ")
}

func (f *formatter) op(op *Op) {
	if op == nil {
		f.line(0, "op <nil>")
		return
	}
	var opts string
	if op.FastMath {
		opts = " fastmath"
	}
	f.line(0, "")
	f.line(0, "op %s%s @ %s", op.Name, opts, f.filePos(op.Pos))
	for _, p := range op.Params {
		if p == nil {
			f.line(1, "param <nil>")
			continue
		}
		f.line(1, "param %s %s @ %s", p.Name, f.typ(p.Type), f.pos(p.Pos))
	}
	f.line(1, "results %s", f.types(op.Results))
	if op.Body == nil {
		f.line(1, "body <nil>")
		return
	}
	f.stmt(1, op.Body)
}

func (f *formatter) instance(in *Instance) {
	if in == nil {
		f.line(0, "instance <nil>")
		return
	}
	f.line(0, "")
	if in.State != nil {
		f.line(0, "instance %s [%s] state %s @ %s", in.Key(), f.types(in.Types), in.State.GoName(), f.filePos(in.Pos))
		return
	}
	f.line(0, "instance %s [%s] @ %s", in.Key(), f.types(in.Types), f.filePos(in.Pos))
}

func (f *formatter) stmt(d int, s Stmt) {
	switch s := s.(type) {
	case *Block:
		if s == nil {
			f.line(d, "block <nil>")
			return
		}
		f.line(d, "block @ %s", f.pos(s.Pos))
		for _, st := range s.Stmts {
			f.stmt(d+1, st)
		}
	case *DeclStmt:
		if s.Var == nil {
			f.line(d, "decl <nil> @ %s", f.pos(s.Pos))
			return
		}
		f.line(d, "decl %s %s @ %s (var @ %s)", s.Var.Name, f.typ(s.Var.Type), f.pos(s.Pos), f.pos(s.Var.Pos))
		if s.Init != nil {
			f.expr(d+1, s.Init)
		}
	case *AssignStmt:
		names := make([]string, len(s.Targets))
		for i, t := range s.Targets {
			names[i] = lvalue(t)
		}
		f.line(d, "assign %s @ %s", strings.Join(names, ", "), f.pos(s.Pos))
		for _, t := range s.Targets {
			if idx := indexOperands(t); len(idx) > 0 {
				f.line(d+1, "target %s indices", lvalue(t))
				for _, x := range idx {
					f.expr(d+2, x)
				}
			}
		}
		for _, v := range s.Values {
			f.expr(d+1, v)
		}
	case *IfStmt:
		f.line(d, "if @ %s", f.pos(s.Pos))
		if s.Init != nil {
			f.line(d+1, "init")
			f.stmt(d+2, s.Init)
		}
		f.line(d+1, "cond")
		f.expr(d+2, s.Cond)
		f.line(d+1, "then")
		f.stmt(d+2, s.Then)
		if s.Else != nil {
			f.line(d+1, "else")
			f.stmt(d+2, s.Else)
		}
	case *ReturnStmt:
		f.line(d, "return @ %s", f.pos(s.Pos))
		for _, r := range s.Results {
			f.expr(d+1, r)
		}
	case *ForStmt:
		f.line(d, "for%s @ %s", label(s.Label), f.pos(s.Pos))
		if s.Init != nil {
			f.line(d+1, "init")
			f.stmt(d+2, s.Init)
		}
		if s.Cond != nil {
			f.line(d+1, "cond")
			f.expr(d+2, s.Cond)
		}
		if s.Post != nil {
			f.line(d+1, "post")
			f.stmt(d+2, s.Post)
		}
		f.line(d+1, "body")
		f.stmt(d+2, s.Body)
	case *SwitchStmt:
		f.line(d, "switch%s @ %s", label(s.Label), f.pos(s.Pos))
		if s.Init != nil {
			f.line(d+1, "init")
			f.stmt(d+2, s.Init)
		}
		if s.Tag != nil {
			f.line(d+1, "tag")
			f.expr(d+2, s.Tag)
		}
		for _, c := range s.Clauses {
			kind := "case"
			if c.Default {
				kind = "default"
			}
			if c.Fallthrough {
				kind += " fallthrough"
			}
			f.line(d+1, "%s @ %s", kind, f.pos(c.Pos))
			for _, x := range c.List {
				f.expr(d+2, x)
			}
			for _, st := range c.Body {
				f.stmt(d+2, st)
			}
		}
	case *BranchStmt:
		kind := "break"
		if s.Kind == Continue {
			kind = "continue"
		}
		target := "<nil>"
		if s.Target != nil {
			target = f.pos(s.Target.Position())
		}
		f.line(d, "%s%s -> %s @ %s", kind, label(s.Label), target, f.pos(s.Pos))
	case nil:
		f.line(d, "<nil stmt>")
	default:
		f.line(d, "<unknown stmt %T>", s)
	}
}

func (f *formatter) expr(d int, e Expr) {
	switch e := e.(type) {
	case *VarRef:
		if e.Var == nil {
			f.line(d, "var <nil> @ %s", f.pos(e.Pos))
			return
		}
		f.line(d, "var %s %s @ %s", e.Var.Name, f.typ(e.Var.Type), f.pos(e.Pos))
	case *Const:
		f.line(d, "const %s %s @ %s", constString(e), f.typ(e.T), f.pos(e.Pos))
	case *Unary:
		var t *Type
		if e.X != nil {
			t = e.X.Type()
		}
		f.line(d, "unary %s %s @ %s", unaryNames[e.Op], f.typ(t), f.pos(e.Pos))
		f.expr(d+1, e.X)
	case *Binary:
		f.line(d, "binary %s %s @ %s", e.Op, f.typ(e.T), f.pos(e.Pos))
		f.expr(d+1, e.X)
		f.expr(d+1, e.Y)
	case *Convert:
		f.line(d, "convert %s @ %s", f.typ(e.T), f.pos(e.Pos))
		f.expr(d+1, e.X)
	case *Call:
		name, t := "<nil>", (*Type)(nil)
		if e.Op != nil {
			name = e.Op.Name
			if e.Op.Pkg != "" && e.Op.Pkg != f.pkg.Path {
				name = e.Op.Pkg + "." + name
			}
			if len(e.Op.Results) > 0 {
				t = e.Type()
			}
		}
		f.line(d, "call %s %s @ %s", name, f.typ(t), f.pos(e.Pos))
		for _, a := range e.Args {
			f.expr(d+1, a)
		}
	case *Selector:
		name, t := "<bad field>", (*Type)(nil)
		if e.X != nil && e.X.Type() != nil && e.Field >= 0 && e.Field < len(e.X.Type().Fields) {
			fd := e.X.Type().Fields[e.Field]
			name, t = fd.Name, fd.Type
		}
		f.line(d, "field %s %s @ %s", name, f.typ(t), f.pos(e.Pos))
		f.expr(d+1, e.X)
	case *Index:
		var t *Type
		if e.X != nil && e.X.Type() != nil {
			t = e.X.Type().Elem
		}
		f.line(d, "index %s @ %s", f.typ(t), f.pos(e.Pos))
		f.expr(d+1, e.X)
		f.expr(d+1, e.Index)
	case *Composite:
		f.line(d, "composite %s @ %s", f.typ(e.T), f.pos(e.Pos))
		for _, x := range e.Elems {
			if x == nil {
				f.line(d+1, "zero")
				continue
			}
			f.expr(d+1, x)
		}
	case *Intrinsic:
		f.line(d, "intrinsic %s %s @ %s", e.Func, f.typ(e.T), f.pos(e.Pos))
		for _, a := range e.Args {
			f.expr(d+1, a)
		}
	case nil:
		f.line(d, "<nil expr>")
	default:
		f.line(d, "<unknown expr %T>", e)
	}
}

// label formats a statement's Go label.
func label(name string) string {
	if name == "" {
		return ""
	}
	return " " + name + ":"
}

// lvalue formats an assignment target: "x", "p.X", "a[_]"; indices are
// printed below the assign line.
func lvalue(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "_"
	case *VarRef:
		if e.Var == nil {
			return "<nil>"
		}
		return e.Var.Name
	case *Selector:
		if e.X != nil && e.X.Type() != nil && e.Field >= 0 && e.Field < len(e.X.Type().Fields) {
			return lvalue(e.X) + "." + e.X.Type().Fields[e.Field].Name
		}
		return lvalue(e.X) + ".<bad field>"
	case *Index:
		return lvalue(e.X) + "[_]"
	}
	return fmt.Sprintf("<%T>", e)
}

// indexOperands returns the index expressions of an assignment target,
// outermost operand first.
func indexOperands(e Expr) []Expr {
	switch e := e.(type) {
	case *Selector:
		return indexOperands(e.X)
	case *Index:
		return append(indexOperands(e.X), e.Index)
	}
	return nil
}

var unaryNames = map[UnaryOp]string{Neg: "-", Not: "!", BitNot: "^"}

// constString prints a constant exactly: integers in decimal, floats with
// the fewest digits that read back to the same value of their type.
func constString(c *Const) string {
	v := c.Value
	if v == nil {
		return "<nil>"
	}
	if v.Kind() == constant.Float && c.T != nil && c.T.IsFloat() {
		x, _ := constant.Float64Val(v)
		return strconv.FormatFloat(x, 'g', -1, c.T.Bits())
	}
	return v.ExactString()
}
