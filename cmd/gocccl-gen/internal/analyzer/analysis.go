package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// analysis is the state of analyzing one package. It runs in four steps,
// each in its own file: find the operators and check their signatures
// (ops.go), translate their bodies (translate.go and what it calls), reject
// recursion (recursion.go), and find the algorithm instances (instances.go).
type analysis struct {
	reporter
	pkg   *types.Package
	files []*ast.File // sorted by file name
	info  *types.Info

	ops    map[*types.Func]*opDecl // every //gocccl:op function, valid or not
	opList []*opDecl               // the same, in source order

	// importer resolves calls to operators of other packages; nil when
	// the package is analyzed alone.
	importer Importer
}

// opDecl is one //gocccl:op function while it is being analyzed.
type opDecl struct {
	decl *ast.FuncDecl
	fn   *types.Func
	op   *model.Op

	// ok is set when the signature is inside the subset, so the operator
	// can be called by other operators and instantiated.
	ok bool

	params       []*types.Var // the Go parameters, for op.Params
	namedResults []*types.Var // named results, declared as locals
	calls        []opCall     // the operators this one calls, in source order
}

// opCall is a call from one operator to another.
type opCall struct {
	callee *opDecl
	pos    token.Pos
}

// newAnalysis prepares the analysis of one package, with its files in file
// name order so that everything derived from them is deterministic.
func newAnalysis(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) *analysis {
	files = slices.Clone(files)
	files = slices.DeleteFunc(files, func(f *ast.File) bool { return f == nil })
	slices.SortStableFunc(files, func(x, y *ast.File) int {
		return strings.Compare(fset.Position(x.Pos()).Filename, fset.Position(y.Pos()).Filename)
	})
	return &analysis{
		reporter: reporter{fset: fset},
		pkg:      pkg,
		files:    files,
		info:     info,
		ops:      make(map[*types.Func]*opDecl),
	}
}

// run analyzes the package and returns its model; the model is complete only
// when no diagnostic was reported.
func (a *analysis) run() *model.Package {
	a.findOps()
	for _, od := range a.opList {
		a.checkSignature(od)
	}
	for _, od := range a.opList {
		if od.ok {
			a.translate(od)
		}
	}
	a.checkRecursion()
	m := &model.Package{
		Path:      a.pkg.Path(),
		Name:      a.pkg.Name(),
		Fset:      a.fset,
		Instances: a.findInstances(),
	}
	for _, od := range a.opList {
		m.Ops = append(m.Ops, od.op)
	}
	m.Imported = importedOps(a.fset, m.Path, m.Ops, m.Instances)
	m.Targets, m.TargetsPos = a.findArch()
	return m
}

// position returns the file position of pos, for ordering.
func (a *analysis) position(pos token.Pos) token.Position {
	return a.fset.Position(pos)
}
