package analyzer

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Instances in test files.
//
// gocccl-gen generates kernels for a package's own files only: go generate
// runs once per package, its glue is a package file, and a test's instances
// would otherwise be silently missing on a GPU. Every backend returns
// runtime.ErrNotGenerated for them at run time; the generator reports them
// first, at their position: an instance declared in a _test.go file (of
// the package or of its external test package) over operators of the
// package or its tests, that no package file also declares. Test files may
// still declare instances a package file declares too (the registry is keyed
// by algorithm, operators and types, so they share its kernels), and
// instances over functions that are not operators (tests of the not-generated
// error) are left to the runtime.

// testInstanceMessage is the diagnostic for an instance only a test file
// declares.
const testInstanceMessage = "runtime.%s is declared only in a _test.go file: gocccl-gen generates kernels for package files only; move the declaration (and its operator, if that is in a test file too) to a non-test file, then run go generate"

// checkTestFiles loads the test variants of the packages in dirs (import
// path → directory) whose test files import the runtime, and returns a
// diagnostic for each instance only their test files declare. Test files that
// do not load or type-check are left to go test.
func checkTestFiles(base *packages.Config, dirs map[string]string) ([]Diagnostic, error) {
	var paths []string
	for path, dir := range dirs {
		if testFilesImportRuntime(dir) {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	cfg := &packages.Config{Mode: loadMode | packages.NeedForTest, Dir: base.Dir, Env: base.Env, Fset: token.NewFileSet(), BuildFlags: base.BuildFlags, Tests: true}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	// The package with its test files, and its external test package, by
	// the package they test.
	variants := make(map[string][]*packages.Package)
	for _, p := range pkgs {
		if p.ForTest == "" || len(p.Errors) > 0 || p.TypesInfo == nil {
			continue
		}
		if _, ok := dirs[p.ForTest]; ok {
			variants[p.ForTest] = append(variants[p.ForTest], p)
		}
	}
	var diags []Diagnostic
	for _, vs := range variants {
		diags = append(diags, testOnlyInstances(cfg.Fset, vs)...)
	}
	return diags, nil
}

// testFilesImportRuntime reports whether a _test.go file of dir imports
// the runtime, reading only the import lists.
func testFilesImportRuntime(dir string) bool {
	names, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, name := range names {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); path == runtimePath {
				return true
			}
		}
	}
	return false
}

// testOnlyInstances finds, in the test variants of one package, the
// instances that only test files declare.
func testOnlyInstances(fset *token.FileSet, variants []*packages.Package) []Diagnostic {
	own := make(map[string]bool) // the package's and its tests' packages
	ops := make(map[*types.Func]bool)
	for _, p := range variants {
		own[p.PkgPath] = true
		for _, f := range p.Syntax {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && hasOpDirective(fd) { // functions and methods (per-call state)
					if fn, _ := p.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
						ops[fn] = true
					}
				}
			}
		}
	}
	type call struct {
		pos  token.Pos
		key  string
		desc string
	}
	declared := make(map[string]bool) // keys package files declare
	var inTests []call
	for _, p := range variants {
		for _, f := range p.Syntax {
			test := strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go")
			ast.Inspect(f, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				alg, stateful := constructor(calleeObject(p.TypesInfo, c.Fun))
				if alg == nil {
					return true
				}
				key, desc, ok := testCallKey(p.TypesInfo, c, constructorName(alg, stateful), ops, own)
				switch {
				case !ok:
				case test:
					inTests = append(inTests, call{c.Pos(), key, desc})
				default:
					declared[key] = true
				}
				return true
			})
		}
	}
	var diags []Diagnostic
	seen := make(map[string]bool)
	for _, c := range inTests {
		if declared[c.key] || seen[c.key] {
			continue
		}
		seen[c.key] = true
		diags = append(diags, Diagnostic{Pos: fset.Position(c.pos), Message: fmt.Sprintf(testInstanceMessage, c.desc)})
	}
	return diags
}

// testCallKey returns the key of the instance that call (of the
// constructor of algorithm alg) declares, "Reduce(p.Add)[int32]", and how
// to name it, "Reduce(Add)"; ok is false unless every operator argument
// names an operator of the package or its tests.
func testCallKey(info *types.Info, call *ast.CallExpr, alg string, ops map[*types.Func]bool, own map[string]bool) (key, desc string, ok bool) {
	var keys, names []string
	for _, arg := range call.Args {
		var id *ast.Ident
		switch a := ast.Unparen(arg).(type) {
		case *ast.Ident:
			id = a
		case *ast.SelectorExpr:
			id = a.Sel
		default:
			return "", "", false
		}
		fn, _ := info.Uses[id].(*types.Func)
		if fn == nil || fn.Pkg() == nil || !own[fn.Pkg().Path()] || !ops[fn] {
			return "", "", false
		}
		name := fn.Name()
		if recv := fn.Signature().Recv(); recv != nil {
			// A method expression S.Op of a stateful constructor.
			if named, ok := types.Unalias(recv.Type()).(*types.Named); ok {
				name = named.Obj().Name() + "." + name
			}
		}
		keys = append(keys, strings.TrimSuffix(fn.Pkg().Path(), "_test")+"."+name)
		names = append(names, types.ExprString(arg))
	}
	var targs []string
	var id *ast.Ident
	switch f := calleeName(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if inst, found := info.Instances[id]; id != nil && found && inst.TypeArgs != nil {
		for i := range inst.TypeArgs.Len() {
			targs = append(targs, types.TypeString(inst.TypeArgs.At(i), nil))
		}
	}
	desc = alg + "(" + strings.Join(names, ", ") + ")"
	if len(names) == 0 {
		desc = alg + "[" + strings.Join(targs, ", ") + "]"
	}
	return alg + "(" + strings.Join(keys, ",") + ")[" + strings.Join(targs, ",") + "]", desc, true
}

// hasOpDirective reports whether fd's doc comment holds a //gocccl:op line.
func hasOpDirective(fd *ast.FuncDecl) bool {
	if fd.Doc == nil {
		return false
	}
	for _, c := range fd.Doc.List {
		if c.Text == opDirective || strings.HasPrefix(c.Text, opDirective+" ") || strings.HasPrefix(c.Text, opDirective+"\t") {
			return true
		}
	}
	return false
}
