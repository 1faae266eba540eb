package analyzer_test

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	goruntime "runtime"
	"slices"
	"sync"
	"testing"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/analyzer"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
)

// FuzzAnalyze checks that the analyzer and the CUDA emitter never panic on
// the source of one Go file: a file that parses and type-checks gives either
// a model, which CUDASource turns into the same bytes every time (or
// refuses with an error), or an analyzer.Errors of diagnostics positioned
// inside the file. A file with type errors is reported by Load, not
// analyzed, and stops after type checking here too.
//
// The seeds are in testdata/fuzz/FuzzAnalyze; each is a whole file, from its
// package clause on. Run the fuzzer with
//
//	go test ./analyzer -run '^$' -fuzz FuzzAnalyze -fuzztime 3m
func FuzzAnalyze(f *testing.F) {
	imp := fuzzImporter()
	// Load the standard packages once, before fuzzing starts.
	for _, path := range fuzzStdPackages {
		if _, err := imp.Import(path); err != nil {
			f.Fatalf("importing %s: %v", path, err)
		}
	}
	if _, err := imp.Import(fuzzRuntimePath); err != nil {
		f.Fatalf("fake runtime: %v", err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fuzzAnalyze(t, imp, src)
	})
}

func fuzzAnalyze(t *testing.T, imp types.Importer, src string) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		if testing.Verbose() {
			t.Logf("parse errors: %v", err)
		}
		return // not Go: nothing for the analyzer to see
	}

	// Type-check as go/packages does for Load, with every map of Info it
	// fills in.
	var typeErrs []error
	conf := types.Config{
		Importer: imp,
		Sizes:    types.SizesFor("gc", goruntime.GOARCH),
		Error:    func(err error) { typeErrs = append(typeErrs, err) },
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	files := []*ast.File{file}
	pkg, _ := conf.Check("example.com/p", fset, files, info)
	if len(typeErrs) > 0 || pkg == nil {
		// Load reports the type errors and does not analyze the package.
		if testing.Verbose() {
			t.Logf("type errors: %v", typeErrs)
		}
		return
	}

	m, err := analyzer.Analyze(fset, pkg, files, info)
	if err != nil {
		if m != nil {
			t.Errorf("Analyze returned a model and an error")
		}
		errs, ok := err.(analyzer.Errors)
		if !ok {
			t.Fatalf("Analyze returned %T, want analyzer.Errors: %v", err, err)
		}
		checkDiagnostics(t, fset.File(file.Pos()), errs)
		if testing.Verbose() {
			t.Logf("%d diagnostics:\n%v", len(errs), errs)
		}
		return
	}
	if m == nil {
		t.Fatal("Analyze returned neither a model nor an error")
	}

	targets := []emit.Target{{Arch: 90}}
	cu, err := emit.CUDASource(m, targets)
	again, err2 := emit.CUDASource(m, targets)
	switch {
	case (err == nil) != (err2 == nil):
		t.Fatalf("CUDASource: first call: %v; second call: %v", err, err2)
	case err != nil:
		if err.Error() != err2.Error() {
			t.Fatalf("CUDASource fails differently: %q, then %q", err, err2)
		}
		if testing.Verbose() {
			t.Logf("model of %d ops, %d instances; CUDASource: %v", len(m.Ops), len(m.Instances), err)
		}
		return
	}
	if len(cu) == 0 {
		t.Fatal("CUDASource returned no source and no error")
	}
	if !bytes.Equal(cu, again) {
		t.Fatalf("CUDASource is not deterministic:\n--- first\n%s\n--- second\n%s", cu, again)
	}
	if testing.Verbose() {
		t.Logf("model of %d ops, %d instances; %d bytes of CUDA", len(m.Ops), len(m.Instances), len(cu))
	}
}

// checkDiagnostics checks that errs is a non-empty list of diagnostics with
// messages, sorted by position, each at a valid position of the file tf
// (as the FileSet reports it: //line directives may rename the file).
func checkDiagnostics(t *testing.T, tf *token.File, errs analyzer.Errors) {
	t.Helper()
	if len(errs) == 0 {
		t.Fatal("Analyze returned an empty analyzer.Errors")
	}
	for _, d := range errs {
		if d.Message == "" {
			t.Errorf("diagnostic without a message at %v", d.Pos)
		}
		if !d.Pos.IsValid() {
			t.Errorf("diagnostic without a valid position: %s", d)
			continue
		}
		if d.Pos.Offset < 0 || d.Pos.Offset > tf.Size() {
			t.Errorf("diagnostic at offset %d, outside the file of %d bytes: %s", d.Pos.Offset, tf.Size(), d)
			continue
		}
		if want := tf.PositionFor(tf.Pos(d.Pos.Offset), true); d.Pos != want {
			t.Errorf("diagnostic at %#v, not a position of the file (its offset is at %#v): %s", d.Pos, want, d)
		}
	}
	sorted := slices.IsSortedFunc(errs, func(a, b analyzer.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Message, b.Message),
		)
	})
	if !sorted {
		t.Errorf("diagnostics are not sorted by position:\n%v", errs)
	}
}

// fuzzRuntimePath is the import path of the runtime the analyzer looks for.
const fuzzRuntimePath = "github.com/gocccl/gocccl/runtime"

// fuzzRuntimeSource declares the runtime constructors with the signatures
// of runtime/reduce.go and runtime/transform.go, so that inputs can be
// type-checked without the go command or the real package's cgo imports.
const fuzzRuntimeSource = `package runtime

type ReduceOp[T any] struct{ op func(T, T) T }
type UnaryTransformOp[In, Out any] struct{ op func(In) Out }
type BinaryTransformOp[A, B, Out any] struct{ op func(A, B) Out }

func Reduce[T any](op func(T, T) T) *ReduceOp[T] { return &ReduceOp[T]{op} }
func UnaryTransform[In, Out any](op func(In) Out) *UnaryTransformOp[In, Out] { return &UnaryTransformOp[In, Out]{op} }
func BinaryTransform[A, B, Out any](op func(A, B) Out) *BinaryTransformOp[A, B, Out] { return &BinaryTransformOp[A, B, Out]{op} }
`

// fuzzStdPackages are the standard packages inputs may import besides
// unsafe. Others are refused rather than loaded:
// a mutated import path must not cost a run of the go command.
var fuzzStdPackages = []string{"fmt", "math", "math/bits"}

// fuzzImporter returns the importer of the fuzz inputs, made once: the fake
// runtime, built from fuzzRuntimeSource, types.Unsafe, and importer.Default
// for fuzzStdPackages. Each fuzzing process calls the fuzz function from one
// goroutine at a time, so the importer needs no lock of its own.
var fuzzImporter = sync.OnceValue(func() types.Importer {
	return &fuzzSourceImporter{std: importer.Default()}
})

type fuzzSourceImporter struct {
	std     types.Importer
	runtime *types.Package
	err     error
	built   bool
}

func (im *fuzzSourceImporter) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if path == fuzzRuntimePath {
		if !im.built {
			im.built = true
			im.runtime, im.err = checkFakeRuntime()
		}
		return im.runtime, im.err
	}
	if slices.Contains(fuzzStdPackages, path) {
		return im.std.Import(path)
	}
	return nil, fmt.Errorf("package %s is not available to FuzzAnalyze", path)
}

// checkFakeRuntime type-checks fuzzRuntimeSource, in a FileSet of its own.
func checkFakeRuntime() (*types.Package, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "runtime.go", fuzzRuntimeSource, 0)
	if err != nil {
		return nil, err
	}
	var conf types.Config
	return conf.Check(fuzzRuntimePath, fset, []*ast.File{f}, nil)
}
