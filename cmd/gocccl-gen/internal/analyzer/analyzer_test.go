package analyzer

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// srcDir holds one package per test case, in the repository's top-level
// testdata (emit's tests compile the same cases): those with "// want"
// comments must produce exactly the wanted diagnostics, the others are
// compared with this package's testdata/<case>.golden.
const srcDir = "../testdata"

// testCases lists the case directories under srcDir: the ones that expect
// diagnostics and the ones that must be accepted.
func testCases(t *testing.T) (golden, diag []string) {
	t.Helper()
	entries, err := os.ReadDir(srcDir)
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, err := filepath.Glob(filepath.Join(srcDir, e.Name(), "*.go"))
		require.NoError(t, err)
		wants := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			wants = wants || strings.Contains(string(b), "// want ")
		}
		if wants {
			diag = append(diag, e.Name())
		} else {
			golden = append(golden, e.Name())
		}
	}
	return golden, diag
}

// patterns returns the package patterns of cases, relative to srcDir.
func patterns(cases []string) []string {
	ps := make([]string, len(cases))
	for i, c := range cases {
		ps[i] = "./" + c
	}
	return ps
}

// loadAccepted loads the cases that must be accepted, in one go.
func loadAccepted(t *testing.T, cases []string) map[string]*model.Package {
	t.Helper()
	pkgs, err := Load(srcDir, nil, patterns(cases)...)
	require.NoError(t, err)
	byCase := make(map[string]*model.Package)
	for _, p := range pkgs {
		byCase[filepath.Base(p.Dir)] = p
	}
	require.Len(t, byCase, len(cases))
	return byCase
}

var (
	diagOnce sync.Once
	diagErrs Errors
	diagErr  error
)

// loadRejected loads every case that expects diagnostics, once per test run.
func loadRejected(t *testing.T) Errors {
	t.Helper()
	diagOnce.Do(func() {
		_, diag := testCases(t)
		_, diagErr = Load(srcDir, nil, patterns(diag)...)
		if diagErr == nil {
			return
		}
		if errs, ok := diagErr.(Errors); ok {
			diagErrs, diagErr = errs, nil
		}
	})
	require.NoError(t, diagErr, "Load must return Errors")
	require.NotEmpty(t, diagErrs)
	return diagErrs
}

// want is one expected diagnostic: a regexp for a line.
type want struct {
	file    string // absolute
	line    int
	re      *regexp.Regexp
	matched bool
}

// wantsOf parses the "// want `re` ..." comments of the case's files.
func wantsOf(t *testing.T, dir string) []*want {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var ws []*want
	fset := token.NewFileSet()
	for _, name := range files {
		abs, err := filepath.Abs(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, abs, nil, parser.ParseComments|parser.AllErrors)
		if f == nil {
			require.NoError(t, err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				ws = append(ws, parseWants(t, fset, c, abs)...)
			}
		}
	}
	return ws
}

func parseWants(t *testing.T, fset *token.FileSet, c *ast.Comment, file string) []*want {
	i := strings.Index(c.Text, "// want ")
	if i < 0 {
		return nil
	}
	line := fset.Position(c.Pos()).Line
	rest := strings.TrimSpace(c.Text[i+len("// want "):])
	var ws []*want
	for rest != "" {
		q, err := strconv.QuotedPrefix(rest)
		require.NoError(t, err, "%s:%d: bad want comment", file, line)
		s, err := strconv.Unquote(q)
		require.NoError(t, err)
		ws = append(ws, &want{file: file, line: line, re: regexp.MustCompile(s)})
		rest = strings.TrimSpace(rest[len(q):])
	}
	return ws
}

// TestDiagnostics checks, case by case, that every diagnostic is wanted at
// exactly its line and every want is matched by one diagnostic.
func TestDiagnostics(t *testing.T) {
	errs := loadRejected(t)
	_, cases := testCases(t)
	byDir := make(map[string][]Diagnostic)
	for _, d := range errs {
		require.NotEmpty(t, d.Pos.Filename, "diagnostic without a file: %s", d)
		assert.Positive(t, d.Pos.Line, "diagnostic without a line: %s", d)
		assert.Positive(t, d.Pos.Column, "diagnostic without a column: %s", d)
		byDir[filepath.Base(filepath.Dir(d.Pos.Filename))] = append(byDir[filepath.Base(filepath.Dir(d.Pos.Filename))], d)
	}
	for dir := range byDir {
		assert.Contains(t, cases, dir, "diagnostics in a package that is not a diagnostics case")
	}
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			wants := wantsOf(t, filepath.Join(srcDir, c))
			for _, d := range byDir[c] {
				i := slices.IndexFunc(wants, func(w *want) bool {
					return !w.matched && w.file == d.Pos.Filename && w.line == d.Pos.Line && w.re.MatchString(d.Message)
				})
				if i < 0 {
					t.Errorf("unexpected diagnostic: %s", d)
					continue
				}
				wants[i].matched = true
			}
			for _, w := range wants {
				if !w.matched {
					t.Errorf("%s:%d: no diagnostic matches %q", filepath.Base(w.file), w.line, w.re)
				}
			}
		})
	}
}

// TestDiagnosticColumns checks exact positions of a few diagnostics.
func TestDiagnosticColumns(t *testing.T) {
	errs := loadRejected(t)
	for _, tc := range []struct{ pos, message string }{
		{"directives/directives.go:19:13", `unknown //gocccl:op option "turbo"`},
		{"directives/directives.go:22:22", `duplicate //gocccl:op option "fastmath"`},
		{"directives/directives.go:4:1", `malformed directive`},
		{"signatures/signatures.go:14:7", `method T.Method has a pointer receiver`},
		{"signatures/signatures.go:17:13", `generic function Generic`},
		{"signatures/signatures.go:20:17", `variadic operators`},
		{"statements/statements.go:61:2", `goto is not allowed in operators`},
		{"expressions/expressions.go:21:7", `closures are not allowed in operators`},
		{"expressions/expressions.go:33:13", `package-level variable scale`},
		{"callrules/callrules.go:26:2", `calls to fmt.Println are not allowed`},
		{"recursion/recursion.go:9:9", `recursion is not allowed in operators: Fib → Fib`},
		{"recursion/recursion.go:17:9", `Even → Odd → Even`},
		{"instances/instances.go:31:21", `closures cannot be operators`},
		{"instances/instances.go:52:30", `operators cannot capture variables: put alpha in a state struct and write a method`},
		{"typeerror/typeerror.go:6:13", `undefined: undefinedThing`},
	} {
		found := false
		for _, d := range errs {
			rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(d.Pos.Filename)), filepath.Base(d.Pos.Filename)))
			pos := rel + ":" + strconv.Itoa(d.Pos.Line) + ":" + strconv.Itoa(d.Pos.Column)
			if pos == tc.pos && strings.Contains(d.Message, tc.message) {
				found = true
			}
		}
		assert.True(t, found, "no diagnostic %q at %s", tc.message, tc.pos)
	}
}

// TestErrorsFormat checks that Errors prints one "file:line:col: message"
// per line, sorted by position.
func TestErrorsFormat(t *testing.T) {
	errs := loadRejected(t)
	lines := strings.Split(errs.Error(), "\n")
	require.Len(t, lines, len(errs))
	for i, d := range errs {
		assert.Equal(t, d.String(), lines[i])
		assert.True(t, strings.HasPrefix(lines[i], d.Pos.Filename+":"+strconv.Itoa(d.Pos.Line)+":"+strconv.Itoa(d.Pos.Column)+": "), lines[i])
		if i > 0 {
			assert.LessOrEqual(t, compareDiagnostics(errs[i-1], d), 0, "not sorted: %s before %s", errs[i-1], d)
		}
	}
}

// TestGolden compares the model of every accepted case with its golden dump.
func TestGolden(t *testing.T) {
	golden, _ := testCases(t)
	pkgs := loadAccepted(t, golden)
	for _, c := range golden {
		t.Run(c, func(t *testing.T) {
			p := pkgs[c]
			checkModel(t, p)
			got := model.Format(p)
			file := filepath.Join("testdata", c+".golden")
			if *update {
				require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
				return
			}
			wantBytes, err := os.ReadFile(file)
			require.NoError(t, err, "run go test ./analyzer -run TestGolden -update to create it")
			assert.Equal(t, string(wantBytes), got)
		})
	}
}

// TestDeterministic loads everything twice, in different orders, and
// expects identical models and diagnostics.
func TestDeterministic(t *testing.T) {
	golden, diag := testCases(t)
	first := loadAccepted(t, golden)
	reversed := slices.Clone(golden)
	slices.Reverse(reversed)
	second := loadAccepted(t, reversed)
	for _, c := range golden {
		assert.Equal(t, model.Format(first[c]), model.Format(second[c]), c)
	}

	slices.Reverse(diag)
	_, err := Load(srcDir, nil, patterns(diag)...)
	assert.Equal(t, loadRejected(t).Error(), err.Error())
}

// TestBuildTags checks that Load honours build tags.
func TestBuildTags(t *testing.T) {
	count := func(tags []string) int {
		pkgs, err := Load(filepath.Join(srcDir, "tagged"), tags, ".")
		require.NoError(t, err)
		require.Len(t, pkgs, 1)
		return len(pkgs[0].Ops)
	}
	assert.Equal(t, 1, count(nil))
	assert.Equal(t, 2, count([]string{"gocccl_extra"}))
}

// TestLoadErrors checks failures that are not about the code.
func TestLoadErrors(t *testing.T) {
	_, err := Load(srcDir, nil, "./does-not-exist")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does-not-exist")
}
