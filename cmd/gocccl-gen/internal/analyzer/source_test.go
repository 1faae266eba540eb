package analyzer

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// fakeRuntime declares the runtime constructors with their real signatures,
// so that sources can be type-checked in-process, without the go command.
const fakeRuntime = `package runtime
type ReduceOp[T any] struct{ op func(T, T) T }
type UnaryTransformOp[In, Out any] struct{ op func(In) Out }
type BinaryTransformOp[A, B, Out any] struct{ op func(A, B) Out }
func Reduce[T any](op func(T, T) T) *ReduceOp[T] { return &ReduceOp[T]{op} }
func UnaryTransform[In, Out any](op func(In) Out) *UnaryTransformOp[In, Out] { return &UnaryTransformOp[In, Out]{op} }
func BinaryTransform[A, B, Out any](op func(A, B) Out) *BinaryTransformOp[A, B, Out] { return &BinaryTransformOp[A, B, Out]{op} }
`

// sourceImporter imports the fake runtime and the standard library.
type sourceImporter struct {
	fset    *token.FileSet
	runtime *types.Package
	std     types.Importer
}

func (im *sourceImporter) Import(path string) (*types.Package, error) {
	if path != runtimePath {
		return im.std.Import(path)
	}
	if im.runtime == nil {
		f, err := parser.ParseFile(im.fset, "runtime.go", fakeRuntime, 0)
		if err != nil {
			return nil, err
		}
		conf := types.Config{}
		if im.runtime, err = conf.Check(runtimePath, im.fset, []*ast.File{f}, nil); err != nil {
			return nil, err
		}
	}
	return im.runtime, nil
}

var stdImporter = importer.Default()

// analyzeSource type-checks src as the package "example.com/p" (type errors
// are ignored, leaving partial type information, as a fuzzer would) and
// analyzes it.
func analyzeSource(src string) (*model.Package, error, []error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return nil, err, nil
	}
	var typeErrs []error
	conf := types.Config{
		Importer: &sourceImporter{fset: fset, std: stdImporter},
		Error:    func(err error) { typeErrs = append(typeErrs, err) },
	}
	info := &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Instances:  make(map[*ast.Ident]types.Instance),
		Scopes:     make(map[ast.Node]*types.Scope),
	}
	pkg, _ := conf.Check("example.com/p", fset, []*ast.File{f}, info)
	m, err := Analyze(fset, pkg, []*ast.File{f}, info)
	return m, err, typeErrs
}

// TestAnalyzeSource checks translations of small sources that the testdata
// packages do not show, through the model's invariants.
func TestAnalyzeSource(t *testing.T) {
	for _, src := range []string{
		// Untyped constant shifted by a variable takes the context's type.
		`func F(n uint8, x int64) int64 { var y int32 = 1 << n; z := 1 << n; return x + 1<<n + int64(y) + int64(z) }`,
		// Comparisons typed by their context, named bool.
		`type B bool
		func F(a, b float32) B { var m B = a < b && b < 3; return m || a == b }`,
		// Tuple assignment with blanks, redeclaration with swaps.
		`func F(a, b int32) int32 { a, _, b = b, 0, a; c, a := a, b; return a + c }`,
		// Constant conversions and typed constants of named types.
		`type L uint8
		const top L = 200
		func F(x L) L { return x + top/2 + L(3) }`,
		// Named results with bare returns in branches.
		`func F(x int32) (y int32) { if x > 0 { y = x; return }; return -x }`,
		// if with an init that declares two variables, as an else branch.
		`func F(x int32) int32 { if x > 0 { return 1 } else if a, b := x, -x; a < b { return a }; return 0 }`,
	} {
		m, err, typeErrs := analyzeSource("package p\n" + strings.Replace(src, "func F", "//gocccl:op\nfunc F", 1))
		require.Empty(t, typeErrs, src)
		require.NoError(t, err, src)
		checkModel(t, m)
	}
}

// TestUntypedShiftCount checks that an untyped non-constant shift count is
// computed as uint, as gc does: with a signed count, (1 << 63) % 7 would be
// negative and the shift would give 0 instead of Go's 50 for H(100, 63).
func TestUntypedShiftCount(t *testing.T) {
	m, err, typeErrs := analyzeSource("package p\n//gocccl:op\nfunc H(a int64, s uint) int64 { return a >> ((1 << s) % 7) }\n" +
		"//gocccl:op\nfunc F(a int, s uint) int { return a >> (18446744073709551615 << s) }\n")
	require.Empty(t, typeErrs)
	require.NoError(t, err)
	checkModel(t, m)
	count := m.Ops[0].Body.Stmts[0].(*model.ReturnStmt).Results[0].(*model.Binary).Y
	rem := count.(*model.Binary)
	require.Equal(t, model.Rem, rem.Op)
	require.Equal(t, model.Uint, rem.T.Kind, "the count (1 << s) % 7")
	require.Equal(t, model.Uint, rem.X.Type().Kind, "1 << s")
	require.Equal(t, model.Uint, rem.X.(*model.Binary).X.Type().Kind, "the constant 1")
	require.Equal(t, model.Uint, rem.Y.Type().Kind, "the constant 7")
	require.Equal(t, int64(50), H(100, 63), "Go's own result, which the GPU must match")
}

// H is the operator TestUntypedShiftCount translates.
func H(a int64, s uint) int64 { return a >> ((1 << s) % 7) }

// TestAnalyzeNeverPanics feeds odd, partly ill-typed sources to Analyze:
// each must give a model or diagnostics, never a panic. This is the seed of
// the fuzz target.
func TestAnalyzeNeverPanics(t *testing.T) {
	for i, src := range oddSources {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			m, err, _ := analyzeSource(src)
			if err == nil {
				checkModel(t, m)
				return
			}
			if errs, ok := err.(Errors); ok {
				for _, d := range errs {
					assert.True(t, d.Pos.IsValid(), "diagnostic without position: %s", d)
					assert.NotEmpty(t, d.Message)
				}
			}
		})
	}
}

var oddSources = []string{
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return a + nosuch }",
	"package p\n//gocccl:op\nfunc F(a nosuch) nosuch { return a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { x := nosuch(); return x }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { var x, y = a; return x + y }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { a, b := 1; return a + b }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { L: for { break L }; return a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { if x := G(); x { return 1 }; return a }\nfunc G() (bool, int) { return true, 1 }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return F }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return a.b.c }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return a, a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { a++; a += \"x\"; return a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return int32(a, a) }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return a << -1 }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return 1 << 100 }",
	"package p\n//gocccl:op\nfunc F(a float32) float32 { return 1e300 }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { var x [a]int32; return x[0] }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return G(a) }\n//gocccl:op\nfunc G(a int32) (int32, int32) { return F(a), 0 }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return G(a...) }\n//gocccl:op\nfunc G(a ...int32) int32 { return 0 }",
	"package p\n//gocccl:op\nfunc F[T any](a T) T { return F(a) }",
	"package p\n//gocccl:op\nfunc (F) F(a int32) int32 { return a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32\n",
	"package p\n//gocccl:op\nfunc init() {}",
	"package p\n//gocccl:op\nfunc F(a, a int32) int32 { return a }",
	"package p\n//gocccl:op\nfunc F(int32) int32 { return _ }",
	"package p\nimport \"github.com/gocccl/gocccl/runtime\"\nvar x = runtime.Reduce()\nvar y = runtime.Reduce(1, 2)\nvar z = runtime.Reduce(nosuch)",
	"package p\nimport \"github.com/gocccl/gocccl/runtime\"\n//gocccl:op\nfunc F(a int32) int32 { runtime.Reduce(F); return a }",
	"package p\nimport \"github.com/gocccl/gocccl/runtime\"\n//gocccl:op\nfunc F(a int32) int32 { return a }\nvar x = runtime.Reduce(F)",
	"package p\nimport . \"github.com/gocccl/gocccl/runtime\"\n//gocccl:op\nfunc F(a, b int32) int32 { return a }\nvar x = Reduce(F).op\nvar y = (Reduce)",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { switch {}; select {}; go F(a); defer F(a); goto X; X: return a }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { type T int32; var t T = T(a); return int32(t) }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { const c = \"s\"; return int32(len(c)) + a }",
	"package p\n//gocccl:op\nfunc F(a complex64) complex64 { return a * 1i }",
	"package p\n//gocccl:op\nfunc F(a uintptr) bool { var p = &a; return p == nil && *p > 0 }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return map[int32]int32{}[a] + []int32{a}[0] }",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { return a +",
	"package p\n//gocccl:op\nfunc F(a int32) int32 { ) }",
	"package p\n//gocccl:op\nfunc",
	strings.Repeat("package p\n//gocccl:op\nfunc F(a int32) int32 { return a }\n", 2),
}
