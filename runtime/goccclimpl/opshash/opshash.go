// Package opshash hashes the //gocccl:op operators of a package's source,
// so that a package's tests fail when its operators were edited after
// gocccl-gen compiled them. gocccl-gen records the hash in the generated
// gocccl_gen_test.go, whose test calls Check; programs never import it.
//
// The hash covers, in the package's non-test Go files other than the
// generated ones, every function whose doc comment holds //gocccl:op and
// every top-level constant declaration (operators may use them), printed
// without comments, so that editing a comment or moving a declaration to
// another file does not change it. All files of the directory count,
// whatever their build constraints. Operators of other packages are not
// covered: gocccl-gen check compares everything.
package opshash

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoSources is returned by Dir when dir holds no Go file of the package,
// as when a test binary runs away from its sources.
var ErrNoSources = errors.New("no Go files of the package")

// Dir returns the hash of the operators and constants of package pkg (its
// name, as in the package clause) in dir.
func Dir(dir, pkg string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	var decls []string
	files := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "gocccl_gen") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		if f.Name.Name != pkg {
			continue
		}
		files++
		for _, d := range f.Decls {
			var node ast.Node
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !isOp(d.Doc) {
					continue
				}
				c := *d
				c.Doc = nil
				node = &c
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				c := *d
				c.Doc = nil
				node = &c
			default:
				continue
			}
			var b bytes.Buffer
			if err := (&printer.Config{Mode: printer.RawFormat}).Fprint(&b, fset, node); err != nil {
				return "", err
			}
			decls = append(decls, b.String())
		}
	}
	if files == 0 {
		return "", fmt.Errorf("%s: %w %s", dir, ErrNoSources, pkg)
	}
	sort.Strings(decls)
	h := sha256.New()
	for _, d := range decls {
		fmt.Fprintf(h, "%d\n%s\n", len(d), d)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// isOp reports whether a doc comment holds a //gocccl:op line.
func isOp(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == "//gocccl:op" || strings.HasPrefix(c.Text, "//gocccl:op ") || strings.HasPrefix(c.Text, "//gocccl:op\t") {
			return true
		}
	}
	return false
}

// Check compares the hash of package pkg in dir with want, the hash
// gocccl-gen recorded, and returns an error that says to run go generate
// when they differ. skip is set, with a nil error, when dir does not hold
// the package's sources.
func Check(dir, pkg, want string) (skip bool, err error) {
	got, err := Dir(dir, pkg)
	if errors.Is(err, ErrNoSources) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("gocccl: hashing the operators of package %s: %w", pkg, err)
	}
	if got != want {
		return false, fmt.Errorf("gocccl: the //gocccl:op operators or constants of package %s changed since gocccl-gen compiled its kernels: run go generate", pkg)
	}
	return false, nil
}
