package analyzer

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"
)

// Diagnostic is one problem at a position.
type Diagnostic struct {
	Pos     token.Position
	Message string
}

// String returns "file.go:12:5: message", with the file name as the FileSet
// holds it, or the message alone when the position is unknown.
func (d Diagnostic) String() string {
	if !d.Pos.IsValid() && d.Pos.Filename == "" {
		return d.Message
	}
	return d.Pos.String() + ": " + d.Message
}

// Errors is returned when any diagnostic was found; it holds all of them
// sorted by position.
type Errors []Diagnostic

// Error returns the diagnostics, one per line.
func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, d := range e {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// sortDiagnostics sorts ds by file, line, column and message, and drops
// exact duplicates.
func sortDiagnostics(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, compareDiagnostics)
	return slices.Compact(ds)
}

func compareDiagnostics(a, b Diagnostic) int {
	return cmp.Or(
		comparePositions(a.Pos, b.Pos),
		cmp.Compare(a.Message, b.Message),
	)
}

func comparePositions(a, b token.Position) int {
	return cmp.Or(
		cmp.Compare(a.Filename, b.Filename),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
	)
}

// reporter collects the diagnostics of one package.
type reporter struct {
	fset  *token.FileSet
	diags []Diagnostic
}

// errorf records a diagnostic at pos.
func (r *reporter) errorf(pos token.Pos, format string, args ...any) {
	var p token.Position
	if pos.IsValid() {
		p = r.fset.Position(pos)
	}
	r.diags = append(r.diags, Diagnostic{Pos: p, Message: fmt.Sprintf(format, args...)})
}

// count returns the number of diagnostics so far, so that a caller can tell
// whether a step reported anything.
func (r *reporter) count() int { return len(r.diags) }
