package analyzer

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// Importer gives the analysis of one package the operators of the packages
// it calls into. Load provides one that loads those packages with the same
// build configuration; Analyze has none, so a package analyzed alone may
// call only its own operators.
type Importer interface {
	// Import returns the model of the package with the given import path.
	// An Errors result carries the diagnostics of that package.
	Import(path string) (*model.Package, error)
}

// loader is the Importer of Load: it analyzes each package once, the
// packages named on the command line as loaded, and the others by loading
// them on demand.
type loader struct {
	cfg    *packages.Config
	roots  map[string]*packages.Package
	done   map[string]*imported
	active map[string]bool // being analyzed: an import cycle through them is Go's error
}

// imported is the memoized analysis of one package.
type imported struct {
	m   *model.Package
	err error
}

// Import implements Importer.
func (l *loader) Import(path string) (*model.Package, error) {
	if r, ok := l.done[path]; ok {
		return r.m, r.err
	}
	if l.active[path] {
		return nil, fmt.Errorf("import cycle through %s", path)
	}
	p := l.roots[path]
	if p == nil {
		pkgs, err := packages.Load(l.cfg, path)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", path, err)
		}
		if len(pkgs) != 1 {
			return nil, fmt.Errorf("loading %s: got %d packages", path, len(pkgs))
		}
		p = pkgs[0]
	}
	m, err := l.analyze(p)
	l.done[path] = &imported{m: m, err: err}
	return m, err
}

// analyze analyzes one loaded package.
func (l *loader) analyze(p *packages.Package) (*model.Package, error) {
	if len(p.Errors) > 0 || p.Types == nil || p.TypesInfo == nil {
		return nil, Errors(sortDiagnostics(loadDiagnostics(p)))
	}
	l.active[p.PkgPath] = true
	defer delete(l.active, p.PkgPath)
	m, err := analyze(p.Fset, p.Types, p.Syntax, p.TypesInfo, l)
	if err != nil {
		return nil, err
	}
	if dir := loadedDir(p); dir != "" {
		m.Dir = dir
	}
	return m, nil
}

// importOp resolves a reference to an operator of another package: it returns
// the operator, or nil after reporting why there is none.
func (a *analysis) importOp(pos token.Pos, pkgPath, pkgName, name string) *model.Op {
	if a.importer == nil {
		a.errorf(pos, "%s.%s is in another package: operators of other packages can be called when gocccl-gen loads the package (analyzer.Load)", pkgName, name)
		return nil
	}
	m, err := a.importer.Import(pkgPath)
	if err != nil {
		if errs, ok := err.(Errors); ok {
			a.errorf(pos, "cannot call %s.%s: package %s has errors (fix them first): %s", pkgName, name, pkgPath,
				strings.ReplaceAll(errs.Error(), "\n", "; "))
			return nil
		}
		a.errorf(pos, "cannot call %s.%s: %v", pkgName, name, err)
		return nil
	}
	for _, op := range m.Ops {
		if op.Name == name {
			return op
		}
	}
	a.errorf(pos, "%s.%s is not a //gocccl:op function: mark it with //gocccl:op in package %s to call it from an operator", pkgName, name, pkgPath)
	return nil
}

// importedOps returns the operators of other packages that ops call or
// instances use, directly or through each other, sorted by package path
// and position.
func importedOps(fset *token.FileSet, pkgPath string, ops []*model.Op, instances []*model.Instance) []*model.Op {
	seen := make(map[*model.Op]bool)
	var out []*model.Op
	var visit func(op *model.Op)
	visit = func(op *model.Op) {
		if op.Body == nil {
			return
		}
		model.Walk(op.Body, func(x model.Expr) {
			c, ok := x.(*model.Call)
			if !ok || c.Op == nil || seen[c.Op] {
				return
			}
			if c.Op.Pkg != pkgPath {
				seen[c.Op] = true
				out = append(out, c.Op)
				visit(c.Op)
			}
		})
	}
	for _, op := range ops {
		visit(op)
	}
	for _, in := range instances {
		for _, op := range in.AllOps() {
			if op.Pkg != pkgPath && !seen[op] {
				seen[op] = true
				out = append(out, op)
				visit(op)
			}
		}
	}
	slices.SortFunc(out, func(x, y *model.Op) int {
		if c := strings.Compare(x.Pkg, y.Pkg); c != 0 {
			return c
		}
		return comparePositions(fset.Position(x.Pos), fset.Position(y.Pos))
	})
	return out
}
