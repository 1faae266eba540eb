package analyzer

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// loadDir holds packages for tests of Load itself, outside the cases of
// srcDir.
const loadDir = "testdata/load"

// loadOne loads the package in loadDir/name and returns its model.
func loadOne(t *testing.T, name string, tags []string) *model.Package {
	t.Helper()
	pkgs, err := Load(filepath.Join(loadDir, name), tags, ".")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	return pkgs[0]
}

// TestCgoPackageDir: the files go/packages type-checks for a package using
// cgo lie in the build cache; the model's directory must still be the
// package's, where the generated files go.
func TestCgoPackageDir(t *testing.T) {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	require.NoError(t, err)
	if strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is disabled (CGO_ENABLED=0 or no C compiler)")
	}
	want, err := filepath.Abs(filepath.Join(loadDir, "cgopkg"))
	require.NoError(t, err)
	pkg := loadOne(t, "cgopkg", nil)
	assert.Equal(t, want, pkg.Dir)
	// Positions are those of the package's own file, relative to Dir.
	dump := model.Format(pkg)
	assert.Contains(t, dump, "op Add @ cgo.go:11:6\n")
	assert.Contains(t, dump, "instance Reduce(Add) [int32] @ cgo.go:13:9\n")
}

// TestGOFLAGSTags: the build tags GOFLAGS sets are honoured along with
// model.AnalyzeTag and the caller's tags, which a -tags flag alone would
// replace.
func TestGOFLAGSTags(t *testing.T) {
	instances := func(tags []string) int { return len(loadOne(t, "goflags", tags).Instances) }
	t.Setenv("GOFLAGS", "")
	assert.Equal(t, 0, instances(nil), "foo.go is left out without the tag")
	assert.Equal(t, 1, instances([]string{"foo"}))
	for _, goflags := range []string{"-tags=foo", "-tags=bar,foo", "--tags=foo", "-mod=mod -tags=foo"} {
		t.Run(goflags, func(t *testing.T) {
			t.Setenv("GOFLAGS", goflags)
			assert.Equal(t, 1, instances(nil))
			assert.Equal(t, 1, instances([]string{"other"}), "the caller's tags add to those of GOFLAGS")
		})
	}
}

func TestGOFLAGSParsing(t *testing.T) {
	for _, c := range []struct {
		goflags string
		want    []string
	}{
		{"", nil},
		{"-buildvcs=false", nil},
		{"-tags=a,b", []string{"a", "b"}},
		{"-tags a,b", []string{"a", "b"}},
		{"--tags=a", []string{"a"}},
		{"--tags a", []string{"a"}},
		{"-mod=mod -tags=a -v", []string{"a"}},
		{"-tags=a -tags=b", []string{"b"}}, // the last one wins
		{`"-tags=a b" -x`, []string{"a", "b"}},
		{"'-tags=a,b'", []string{"a", "b"}},
		{"-tags", nil},
		{"-buildtags=a tags=b", nil},
	} {
		assert.Equal(t, c.want, goflagsTags(c.goflags), "GOFLAGS=%s", c.goflags)
	}
}

// TestSyntaxErrorFirst: a package that does not parse is reported as go
// build reports it: the syntax error at its position, once per line, and
// none of the type errors that follow from it ("declared and not used").
func TestSyntaxErrorFirst(t *testing.T) {
	_, err := Load(filepath.Join(loadDir, "syntaxerr"), nil, ".")
	var diags Errors
	require.ErrorAs(t, err, &diags)
	require.Len(t, diags, 1, "%v", diags)
	assert.Equal(t, 9, diags[0].Pos.Line, "the parser stops where the operand is missing")
	assert.Equal(t, 2, diags[0].Pos.Column)
	assert.Contains(t, diags[0].Message, "syntax error: ")
	assert.NotContains(t, err.Error(), "declared and not used")
}
