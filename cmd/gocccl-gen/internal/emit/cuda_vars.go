package emit

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// nameVars gives the parameters and local variables of op their C++ names
// in names: unnamed and blank parameters become gocccl_p0, gocccl_p1, … by
// position, every other variable is named by a varNamer, in declaration
// order, with the operators' names reserved. Blank locals ("_") are never
// printed and get no name.
func nameVars(op *model.Op, reserved map[string]bool, names map[*model.Var]string) {
	n := newVarNamer(reserved)
	for i, p := range op.Params {
		switch {
		case p == nil:
		case p.Name == "" || p.Name == "_":
			names[p] = fmt.Sprintf("gocccl_p%d", i)
		default:
			names[p] = n.name(p.Name)
		}
	}
	if op.Body == nil {
		return
	}
	model.WalkStmts(op.Body, func(s model.Stmt) {
		d, ok := s.(*model.DeclStmt)
		if !ok || d.Var == nil || d.Var.Name == "_" {
			return
		}
		if _, done := names[d.Var]; !done {
			names[d.Var] = n.name(d.Var.Name)
		}
	})
}

// varNamer gives the variables of one operator C++ names that are unique
// within it and that C++ can use: the Go name escaped by cIdent; with a
// trailing underscore when reservedC rejects it or it is reserved here (an
// operator's name: int → int_, Add → Add_); and then with _1, _2, … when
// the name is taken (the analyzer makes Go names unique, but escaping and
// suffixes may make two of them equal).
type varNamer struct {
	reserved map[string]bool // names no variable may take besides reservedC's
	used     map[string]bool // names given so far
}

func newVarNamer(reserved map[string]bool) *varNamer {
	return &varNamer{reserved: reserved, used: make(map[string]bool)}
}

// name returns a fresh C++ name for a variable with Go name goName.
func (n *varNamer) name(goName string) string {
	base := n.safe(cIdent(goName))
	sep := "_"
	if strings.HasSuffix(base, "_") {
		sep = ""
	}
	name := base
	for i := 1; n.used[name] || n.isReserved(name); i++ {
		name = n.safe(fmt.Sprintf("%s%s%d", base, sep, i))
	}
	n.used[name] = true
	return name
}

// safe returns name, or name with a suffix when it is reserved: "_", or "v"
// after a name already ending in "_" (never "__").
func (n *varNamer) safe(name string) string {
	switch {
	case !n.isReserved(name):
		return name
	case strings.HasSuffix(name, "_"):
		return name + "v"
	}
	return name + "_"
}

// isReserved reports whether no variable may be called name.
func (n *varNamer) isReserved(name string) bool {
	return n.reserved[name] || reservedC(name)
}
