package opfuzz

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func config(seed uint64, n int) Config {
	return Config{Seed: seed, N: n, Package: "fuzzpkg", Arch: "sm_90", Command: "opfuzz_test"}
}

// TestDeterministic checks that one seed gives the same bytes twice and
// that another seed gives other operators.
func TestDeterministic(t *testing.T) {
	a, err := Generate(config(7, 30))
	require.NoError(t, err)
	b, err := Generate(config(7, 30))
	require.NoError(t, err)
	require.Equal(t, a, b)
	c, err := Generate(config(8, 30))
	require.NoError(t, err)
	require.NotEqual(t, a[0].Data, c[0].Data)
}

// TestTypeChecks type-checks the generated operators of many seeds with
// go/types (the runtime import stubbed out by removing the instances):
// every generated operator is valid Go, with no unused variable and no
// constant overflow.
func TestTypeChecks(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		files, err := Generate(config(seed, 25))
		require.NoError(t, err)
		src := withoutInstances(t, files[0].Data)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "ops.go", src, parser.ParseComments)
		require.NoError(t, err, "seed %d", seed)
		conf := types.Config{Importer: importer.Default()}
		_, err = conf.Check("fuzzpkg", fset, []*ast.File{f}, nil)
		require.NoError(t, err, "seed %d:\n%s", seed, numbered(src))
	}
}

// withoutInstances drops the runtime import and the instances of ops.go,
// whose runtime package go/types' default importer cannot load from
// source.
func withoutInstances(t *testing.T, src []byte) []byte {
	t.Helper()
	s := string(src)
	s = strings.Replace(s, "\n\t\"github.com/gocccl/gocccl/runtime\"\n", "", 1)
	i := strings.Index(s, "// The instances, one per operator.")
	require.GreaterOrEqual(t, i, 0)
	return []byte(s[:i])
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, l := range bytes.Split(src, []byte("\n")) {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}
