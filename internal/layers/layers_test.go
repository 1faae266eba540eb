package layers

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// imports is one package's imports inside the module, as paths relative
// to the module's root, split by who imports them.
type imports struct {
	path  string
	code  []string // by the package's non-test files
	tests []string // by its _test.go files, internal or external
}

// layerOf returns the layer of a package path (relative to the module),
// the one with the longest matching pattern, or nil.
func layerOf(path string) *layer {
	var best *layer
	bestLen := -1
	for i := range table {
		for _, p := range table[i].packages {
			ok := p == path
			if dir, found := strings.CutSuffix(p, "/..."); found {
				ok = path == dir || strings.HasPrefix(path, dir+"/")
			}
			if ok && len(p) > bestLen {
				best, bestLen = &table[i], len(p)
			}
		}
	}
	return best
}

// violations returns one line for each package outside every layer and
// for each import the table does not allow, sorted.
func violations(pkgs []imports) []string {
	var out []string
	allowed := func(from *layer, to string, test bool) bool {
		l := layerOf(to)
		if l == nil {
			return false
		}
		if l == from {
			return true
		}
		names := from.imports
		if test {
			names = append(append([]string(nil), from.imports...), from.tests...)
		}
		for _, n := range names {
			if n == l.name {
				return true
			}
		}
		return false
	}
	for _, p := range pkgs {
		from := layerOf(p.path)
		if from == nil {
			out = append(out, fmt.Sprintf("%s: in no layer (add it to the table in layers.go)", p.path))
			continue
		}
		for _, q := range p.code {
			if !allowed(from, q, false) {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s)", p.path, from.name, q, nameOf(q)))
			}
		}
		for _, q := range p.tests {
			if !allowed(from, q, true) {
				out = append(out, fmt.Sprintf("%s (%s) tests import %s (%s)", p.path, from.name, q, nameOf(q)))
			}
		}
	}
	sort.Strings(out)
	return out
}

func nameOf(path string) string {
	if l := layerOf(path); l != nil {
		return l.name
	}
	return "in no layer"
}

// load returns the module's packages with their imports inside the module.
func load(t *testing.T) []imports {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports, Tests: true, Dir: "../.."}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	byPath := map[string]*imports{}
	get := func(path string) *imports {
		if byPath[path] == nil {
			byPath[path] = &imports{path: path}
		}
		return byPath[path]
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.ID, e)
		}
		if strings.HasSuffix(p.PkgPath, ".test") {
			continue // the generated test main
		}
		rel, ok := relative(strings.TrimSuffix(p.PkgPath, "_test"))
		if !ok {
			continue
		}
		test := strings.Contains(p.ID, "[") || strings.HasSuffix(p.PkgPath, "_test")
		me := get(rel)
		for _, q := range p.Imports {
			qrel, ok := relative(q.PkgPath)
			if !ok || qrel == rel {
				continue
			}
			if test {
				me.tests = appendNew(me.tests, qrel)
			} else {
				me.code = appendNew(me.code, qrel)
			}
		}
	}
	var out []imports
	for _, p := range byPath {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// relative returns path relative to the module's root, and whether it is
// inside the module.
func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// TestLayers fails on every import of the module that runs against the
// table: from a lower layer to a higher one, or into a layer a package's
// layer does not list, and on every package the table does not place.
func TestLayers(t *testing.T) {
	pkgs := load(t)
	require.Greater(t, len(pkgs), 30, "the module's packages")
	for _, want := range []string{"runtime", "internal/cuda", "cmd/gocccl-gen/internal/emit", "conformance/devicetest"} {
		found := false
		for _, p := range pkgs {
			found = found || p.path == want
		}
		assert.True(t, found, "%s among the loaded packages", want)
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestViolations checks the checker on made-up packages: an import up the
// layers, an import allowed to tests only, and a package in no layer.
func TestViolations(t *testing.T) {
	got := violations([]imports{
		{path: "internal/algo", code: []string{"internal/arch"}},
		{path: "runtime", code: []string{"internal/cuda", "cmd/gocccl-gen/internal/emit"}},
		{path: "cmd/gocccl-gen/internal/emit", code: []string{"conformance/opfuzz"}, tests: []string{"conformance/opfuzz", "cmd/gocccl-gen/internal/analyzer"}},
		{path: "internal/registry", tests: []string{"runtime"}},
		{path: "conformance/scan", code: []string{"cmd/gocccl-gen/internal/analyzer", "runtime", "iterator"}},
		{path: "newthing", code: []string{"runtime"}},
	})
	assert.Equal(t, []string{
		"cmd/gocccl-gen/internal/emit (emitter) imports conformance/opfuzz (conformance)",
		"conformance/scan (conformance) imports cmd/gocccl-gen/internal/analyzer (analyzer)",
		"internal/registry (contract) tests import runtime (runtime)",
		"newthing: in no layer (add it to the table in layers.go)",
		"runtime (runtime) imports cmd/gocccl-gen/internal/emit (emitter)",
	}, got)
}
