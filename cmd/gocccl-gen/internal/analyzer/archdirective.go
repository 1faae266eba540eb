package analyzer

import (
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// archDirective is the prefix of the package-level directive that names the
// targets a package is compiled for:
//
//	//gocccl:arch sm_80,sm_90,compute_90
//
// Targets are separated by commas or blanks; a trailing "// comment" is
// allowed. The directive may appear in any file of the package, on a line of
// its own outside declarations. Several directives must name the same
// targets.
const archDirective = "//gocccl:arch"

// archTargetRE matches one target as nvcc spells it: SASS for a compute
// capability (sm_90) or PTX for a virtual architecture (compute_90).
var archTargetRE = regexp.MustCompile(`^(sm|compute)_([1-9][0-9]{1,2})$`)

// archLine is one well-formed //gocccl:arch directive.
type archLine struct {
	pos     token.Pos
	targets []string // sorted, free of duplicates
}

// findArch returns the targets of the package's //gocccl:arch directives,
// sorted by compute capability (SASS before PTX), and the position of the
// first directive; nil and token.NoPos when the package has none. Bad
// targets, empty lists, misplaced or malformed directives and directives that
// disagree are reported.
func (a *analysis) findArch() ([]string, token.Pos) {
	var first *archLine
	for _, f := range a.files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line, ok := a.parseArch(f, c)
				if !ok {
					continue
				}
				if first == nil {
					first = line
					continue
				}
				if !slices.Equal(line.targets, first.targets) {
					a.errorf(line.pos, "%s %s conflicts with %s %s at %s: a package has one list of targets",
						archDirective, strings.Join(line.targets, ","), archDirective, strings.Join(first.targets, ","), a.shortPos(first.pos))
				}
			}
		}
	}
	if first == nil {
		return nil, token.NoPos
	}
	return first.targets, first.pos
}

// parseArch reports whether c is a //gocccl:arch directive without errors
// and returns it; a directive with errors is reported. Comments that look
// like a misspelt directive ("// gocccl:arch", "//GOCCCL:arch") are
// reported too.
func (a *analysis) parseArch(f *ast.File, c *ast.Comment) (*archLine, bool) {
	rest, ok := strings.CutPrefix(c.Text, archDirective)
	if !ok {
		a.checkMalformedArch(c)
		return nil, false
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, false // another directive, e.g. //gocccl:archs: see parseDirective
	}
	if insideDecl(f, c) {
		a.errorf(c.Pos(), "%s applies to the whole package: write it on a line of its own outside declarations, e.g. below the package clause", archDirective)
		return nil, false
	}
	before := a.count()
	var targets []string
	for _, w := range splitTargets(c.Pos()+token.Pos(len(archDirective)), rest) {
		if !archTargetRE.MatchString(w.name) {
			a.errorf(w.pos, "bad target %q in %s: want sm_XY (SASS for compute capability X.Y) or compute_XY (PTX), e.g. sm_90 or compute_90", w.name, archDirective)
			continue
		}
		targets = append(targets, w.name)
	}
	if a.count() > before {
		return nil, false
	}
	if len(targets) == 0 {
		a.errorf(c.Pos(), "%s names no targets: write e.g. %s sm_80,sm_90,compute_90", archDirective, archDirective)
		return nil, false
	}
	sortTargets(targets)
	return &archLine{pos: c.Pos(), targets: slices.Compact(targets)}, true
}

// checkMalformedArch reports a spaced or capitalized //gocccl:arch:
// "// gocccl:arch", "//GOCCCL:arch", "// gocccl: arch". Forms starting with
// "//gocccl:" are parseDirective's to judge.
func (a *analysis) checkMalformedArch(c *ast.Comment) {
	if !strings.HasPrefix(c.Text, "//") || strings.HasPrefix(c.Text, "//gocccl:") {
		return
	}
	words := strings.Fields(strings.Replace(strings.ToLower(strings.TrimPrefix(c.Text, "//")), ":", ": ", 1))
	if len(words) >= 2 && words[0] == "gocccl:" && words[1] == "arch" {
		a.errorf(c.Pos(), "malformed directive: did you mean %s? (directives are lower case, with no space after \"//\" or \"gocccl:\")", archDirective)
	}
}

// insideDecl reports whether c is part of a declaration: in its doc comment
// or between its first and last token.
func insideDecl(f *ast.File, c *ast.Comment) bool {
	for _, d := range f.Decls {
		var doc *ast.CommentGroup
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc = d.Doc
		case *ast.GenDecl:
			doc = d.Doc
		}
		if doc != nil && doc.Pos() <= c.Pos() && c.Pos() < doc.End() {
			return true
		}
		if d.Pos() <= c.Pos() && c.Pos() < d.End() {
			return true
		}
	}
	return false
}

// word is one target of a directive, with its position.
type word struct {
	name string
	pos  token.Pos
}

// splitTargets splits the text after "//gocccl:arch" (at pos) at commas and
// blanks, stopping at a trailing "//" comment.
func splitTargets(pos token.Pos, s string) []word {
	var ws []word
	isSep := func(b byte) bool { return b == ',' || b == ' ' || b == '\t' }
	for i := 0; i < len(s); {
		if isSep(s[i]) {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "//") {
			break
		}
		j := i
		for j < len(s) && !isSep(s[j]) {
			j++
		}
		ws = append(ws, word{name: s[i:j], pos: pos + token.Pos(i)})
		i = j
	}
	return ws
}

// sortTargets sorts well-formed targets by compute capability, SASS before
// PTX, as the generator orders them.
func sortTargets(ts []string) {
	key := func(t string) (int, bool) {
		m := archTargetRE.FindStringSubmatch(t)
		n, _ := strconv.Atoi(m[2])
		return n, m[1] == "compute"
	}
	slices.SortFunc(ts, func(x, y string) int {
		xa, xp := key(x)
		ya, yp := key(y)
		switch {
		case xa != ya:
			return xa - ya
		case xp == yp:
			return 0
		case yp:
			return -1
		}
		return 1
	})
}

// shortPos returns "file.go:line:col" for pos, with the file's base name.
func (a *analysis) shortPos(pos token.Pos) string {
	p := a.fset.Position(pos)
	return p.Filename[strings.LastIndexAny(p.Filename, `/\`)+1:] + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// suggestDirective returns the known directive an unknown //gocccl:name
// probably meant.
func suggestDirective(name string) string {
	if strings.HasPrefix(name, "arch") || strings.HasPrefix(name, "target") {
		return archDirective
	}
	return opDirective
}
