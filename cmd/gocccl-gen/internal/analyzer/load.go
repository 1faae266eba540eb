package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// loadMode is what the analyzer needs from go/packages: syntax and full type
// information of the named packages, export data for their dependencies, and
// (NeedFiles) each package's directory.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo

// Load loads the packages matching patterns (relative to dir) and analyzes
// each. The build tags are tags together with those GOFLAGS sets (and
// model.AnalyzeTag). Test files are not part of a package here, but an
// instance that only a _test.go file declares is reported (see
// checkTestFiles): its kernels would be missing.
//
// When any package does not compile or breaks a rule, Load returns nil and
// an Errors holding every diagnostic of every package. Other errors (the go
// command could not run, no package matched) are returned as they are.
func Load(dir string, tags []string, patterns ...string) ([]*model.Package, error) {
	// The generated glue is left out (see model.AnalyzeTag): it may refer
	// to operators that no longer exist.
	tags, err := buildTags(dir, tags)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	// One FileSet for every package, so that the positions of imported
	// operators resolve in the model of the package that calls them.
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Fset: token.NewFileSet(), BuildFlags: []string{"-tags=" + strings.Join(tags, ",")}}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	l := &loader{
		cfg:    cfg,
		roots:  make(map[string]*packages.Package),
		done:   make(map[string]*imported),
		active: make(map[string]bool),
	}
	for _, p := range pkgs {
		l.roots[p.PkgPath] = p
	}
	var (
		models []*model.Package
		diags  []Diagnostic
	)
	for _, p := range pkgs {
		m, err := l.Import(p.PkgPath)
		if errs, ok := err.(Errors); ok {
			diags = append(diags, errs...)
			continue
		}
		if err != nil {
			return nil, err
		}
		models = append(models, m)
	}
	if len(diags) == 0 {
		dirs := make(map[string]string, len(models))
		for _, m := range models {
			dirs[m.Path] = m.Dir
		}
		if diags, err = checkTestFiles(cfg, dirs); err != nil {
			return nil, fmt.Errorf("loading the tests of %s: %w", strings.Join(patterns, " "), err)
		}
	}
	if len(diags) > 0 {
		return nil, Errors(sortDiagnostics(diags))
	}
	return models, nil
}

// loadedDir returns the directory holding p's source files, as the go
// command reports it. The files p.Syntax was parsed from are no guide: for a
// package using cgo, some or all of them are cgo's output in the build cache.
func loadedDir(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	if len(p.GoFiles) > 0 { // the package's own files, cgo files included
		return filepath.Dir(p.GoFiles[0])
	}
	return ""
}

// loadDiagnostics turns the errors go/packages found in p (the code does not
// parse or type-check, a file is missing) into diagnostics.
//
// When the type checker found errors, the go command's report of the same
// compile failure (a list error starting "# path") is left out: it repeats
// them without positions of its own.
//
// When the code does not parse, only the syntax errors are reported, the
// first of each line, as go build reports them: type errors of code that
// did not parse ("declared and not used", "missing return") are
// consequences, and misleading.
func loadDiagnostics(p *packages.Package) []Diagnostic {
	typeErrors, parseErrors := false, false
	for _, e := range p.Errors {
		typeErrors = typeErrors || e.Kind == packages.TypeError || e.Kind == packages.ParseError
		parseErrors = parseErrors || e.Kind == packages.ParseError
	}
	var ds []Diagnostic
	lines := make(map[string]bool) // file:line of a reported syntax error
	for _, e := range p.Errors {
		if typeErrors && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			continue
		}
		pos := parsePosition(e.Pos)
		if parseErrors {
			if e.Kind == packages.TypeError {
				continue
			}
			line := pos.Filename + ":" + strconv.Itoa(pos.Line)
			if e.Kind == packages.ParseError && lines[line] {
				continue
			}
			lines[line] = true
		}
		msg := strings.TrimSpace(e.Msg)
		if e.Kind == packages.ParseError && !strings.HasPrefix(msg, "syntax error") {
			msg = "syntax error: " + msg
		}
		ds = append(ds, Diagnostic{Pos: pos, Message: typeErrorAdvice(msg)})
	}
	if len(ds) == 0 {
		ds = append(ds, Diagnostic{Message: fmt.Sprintf("package %s has no type information", p.PkgPath)})
	}
	return ds
}

// parsePosition parses the "file:line:col", "file:line" or "file" form of a
// go/packages error position; "" and "-" mean no position.
func parsePosition(s string) token.Position {
	if s == "" || s == "-" {
		return token.Position{}
	}
	var nums []int
	rest := s
	for len(nums) < 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil {
			break
		}
		nums = append(nums, n)
		rest = rest[:i]
	}
	pos := token.Position{Filename: rest}
	switch len(nums) {
	case 2:
		pos.Line, pos.Column = nums[1], nums[0]
	case 1:
		pos.Line = nums[0]
	}
	return pos
}

// Analyze builds the model of one type-checked package: fset holds the
// positions of files, the package's non-test files, and info must record at
// least Types, Defs and Uses for them. Any diagnostic makes it return nil and
// an Errors.
//
// Load calls Analyze for each package; it is exported for callers that
// type-check on their own, such as tests and fuzzers.
func Analyze(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) (*model.Package, error) {
	if fset == nil || pkg == nil || info == nil {
		return nil, fmt.Errorf("analyzer: Analyze needs a FileSet, a package and its type information")
	}
	return analyze(fset, pkg, files, info, nil)
}

// analyze is Analyze with an importer for calls to other packages.
func analyze(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info, imp Importer) (*model.Package, error) {
	a := newAnalysis(fset, pkg, files, info)
	a.importer = imp
	m := a.run()
	if len(a.diags) > 0 {
		return nil, Errors(sortDiagnostics(a.diags))
	}
	m.Dir = packageDir(fset, files)
	return m, nil
}

// packageDir returns the directory of the package's first file. Load
// replaces it with the directory the go command reports, which differs for
// packages using cgo; callers of Analyze that type-check cgo's output must
// set model.Package.Dir themselves.
func packageDir(fset *token.FileSet, files []*ast.File) string {
	for _, f := range files {
		if name := fset.Position(f.Pos()).Filename; name != "" {
			return filepath.Dir(name)
		}
	}
	return ""
}
