package emit

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// Loops and switches become C++ while loops and switches on a case index;
// break and continue become break, continue or a goto to a label next to
// their target. This file writes them and plans which labels each operator
// needs.

// flow is the state of one operator's control flow while it is written.
type flow struct {
	ids      map[model.Stmt]int  // label number of each loop and switch
	needs    map[model.Stmt]jump // labels a goto uses
	breakers []model.Stmt        // enclosing loops and switches, innermost last
}

// jump records which labels of a loop or switch a goto uses.
type jump struct{ brk, cont bool }

// planFlow numbers the loops and switches of body and records the labels
// that break and continue statements will jump to.
func planFlow(body *model.Block) *flow {
	f := &flow{ids: make(map[model.Stmt]int), needs: make(map[model.Stmt]jump)}
	var visit func(s model.Stmt)
	visit = func(s model.Stmt) {
		switch s := s.(type) {
		case *model.Block:
			if s != nil {
				for _, t := range s.Stmts {
					visit(t)
				}
			}
		case *model.IfStmt:
			visit(s.Init)
			visit(s.Then)
			visit(s.Else)
		case *model.ForStmt:
			f.ids[s] = len(f.ids)
			visit(s.Init)
			visit(s.Post)
			f.breakers = append(f.breakers, s)
			visit(s.Body)
			f.breakers = f.breakers[:len(f.breakers)-1]
		case *model.SwitchStmt:
			f.ids[s] = len(f.ids)
			visit(s.Init)
			f.breakers = append(f.breakers, s)
			for _, c := range s.Clauses {
				for _, t := range c.Body {
					visit(t)
				}
			}
			f.breakers = f.breakers[:len(f.breakers)-1]
		case *model.BranchStmt:
			j := f.needs[s.Target]
			switch {
			case s.Kind == model.Break && !f.innermost(s.Target):
				j.brk = true
			case s.Kind == model.Continue && !f.plainContinue(s.Target):
				j.cont = true
			}
			f.needs[s.Target] = j
		}
	}
	visit(body)
	f.breakers = nil
	return f
}

// innermost reports whether target is the innermost enclosing loop or
// switch, which a C++ break leaves.
func (f *flow) innermost(target model.Stmt) bool {
	return len(f.breakers) > 0 && f.breakers[len(f.breakers)-1] == target
}

// plainContinue reports whether a C++ continue does what Go's continue of
// target does: target is the innermost enclosing loop and has no post
// statement (a C++ continue of the while loop would skip it).
func (f *flow) plainContinue(target model.Stmt) bool {
	loop, ok := target.(*model.ForStmt)
	if !ok || loop.Post != nil {
		return false
	}
	for i := len(f.breakers) - 1; i >= 0; i-- {
		if l, isLoop := f.breakers[i].(*model.ForStmt); isLoop {
			return l == loop
		}
	}
	return false
}

// label returns the C++ label for leaving ("break") or continuing target.
func (f *flow) label(kind string, target model.Stmt) string {
	name := fmt.Sprintf("gocccl_%s%d", kind, f.ids[target])
	var goLabel string
	switch t := target.(type) {
	case *model.ForStmt:
		goLabel = t.Label
	case *model.SwitchStmt:
		goLabel = t.Label
	}
	if goLabel != "" {
		name = generated(name+"_", goLabel)
	}
	return name
}

// forStmt writes a loop:
//
//	{ init; while (cond) { { body } continue_label: ; post; } break_label: ; }
//
// leaving out what the loop does not need.
func (e *opEmitter) forStmt(op *model.Op, s *model.ForStmt) {
	w, f := e.w, e.flow
	need := f.needs[s]
	outer := s.Init != nil || need.brk
	if outer {
		w.p("{")
		w.in()
		if s.Init != nil {
			e.stmt(op, s.Init)
		}
	}
	cond := "true"
	if s.Cond != nil {
		e.wantBool(s.Cond)
		cond = e.top(s.Cond)
	}
	if label := goLabelComment(s.Label); label != "" {
		w.p("%s", label)
	}
	w.p("while (%s) {", cond)
	w.in()
	f.breakers = append(f.breakers, s)
	if need.cont {
		w.p("{")
		w.in()
		e.body(op, s.Body)
		w.out()
		w.p("}")
		w.p("%s:;", f.label("continue", s))
	} else {
		e.body(op, s.Body)
	}
	f.breakers = f.breakers[:len(f.breakers)-1]
	if s.Post != nil {
		e.stmt(op, s.Post)
	}
	w.out()
	w.p("}")
	if outer {
		if need.brk {
			w.p("%s:;", f.label("break", s))
		}
		w.out()
		w.p("}")
	}
}

// goLabelComment returns a comment naming a Go label, or "".
func goLabelComment(label string) string {
	if label == "" {
		return ""
	}
	return "// " + label + ":"
}

// body writes the statements of a block without braces.
func (e *opEmitter) body(op *model.Op, b *model.Block) {
	if b != nil {
		e.stmts(op, b.Stmts)
	}
}

// switchStmt writes a switch as a C++ switch on the index of the first
// clause whose case matches (the default's index when none does), so that
// fallthrough and break mean what they mean in Go:
//
//	{ init; const T tag = x; const int c = tag == a ? 0 : tag == b || tag == c ? 1 : 2;
//	  switch (c) { case 0: { … } break; case 1: { … } [[fallthrough]]; case 2: … } }
func (e *opEmitter) switchStmt(op *model.Op, s *model.SwitchStmt) {
	w, f := e.w, e.flow
	id := f.ids[s]
	w.p("{")
	w.in()
	if s.Init != nil {
		e.stmt(op, s.Init)
	}
	tag := ""
	if s.Tag != nil {
		tag = fmt.Sprintf("gocccl_tag%d", id)
		w.p("const %s %s = %s;", cType(s.Tag.Type()), tag, e.top(s.Tag))
	}
	dflt := -1
	var conds []string
	for i, c := range s.Clauses {
		if c.Default {
			dflt = i
			continue
		}
		var alts []string
		for _, x := range c.List {
			if tag != "" {
				e.sameType(x.Position(), s.Tag.Type(), x.Type(), "case value")
				alts = append(alts, tag+" == "+e.operand(x))
			} else {
				e.wantBool(x)
				alts = append(alts, e.operand(x))
			}
		}
		if len(alts) == 0 {
			continue
		}
		conds = append(conds, fmt.Sprintf("%s ? %d", strings.Join(alts, " || "), i))
	}
	sel := fmt.Sprintf("gocccl_case%d", id)
	conds = append(conds, fmt.Sprint(dflt))
	if label := goLabelComment(s.Label); label != "" {
		w.p("%s", label)
	}
	w.p("const int %s = %s;", sel, strings.Join(conds, " : "))
	w.p("switch (%s) {", sel)
	f.breakers = append(f.breakers, s)
	for i, c := range s.Clauses {
		prev := w.setPos(goPos(e.pkg.Fset, c.Pos))
		w.p("case %d: {", i)
		w.in()
		e.stmts(op, c.Body)
		w.out()
		if c.Fallthrough {
			w.p("} [[fallthrough]];")
		} else {
			w.p("} break;")
		}
		w.setPos(prev)
	}
	f.breakers = f.breakers[:len(f.breakers)-1]
	w.p("}")
	if f.needs[s].brk {
		w.p("%s:;", f.label("break", s))
	}
	w.out()
	w.p("}")
}

// branchStmt writes break or continue.
func (e *opEmitter) branchStmt(s *model.BranchStmt) {
	f := e.flow
	if s.Target == nil {
		e.fail(s.Pos, "break or continue without a target")
		return
	}
	switch s.Kind {
	case model.Break:
		if f.innermost(s.Target) {
			e.w.p("break;")
			return
		}
		e.w.p("goto %s;", f.label("break", s.Target))
	case model.Continue:
		if f.plainContinue(s.Target) {
			e.w.p("continue;")
			return
		}
		e.w.p("goto %s;", f.label("continue", s.Target))
	default:
		e.fail(s.Pos, "unknown branch statement")
	}
}
