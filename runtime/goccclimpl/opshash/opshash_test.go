package opshash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const base = `package p

const K = 3

// Add adds.
//
//gocccl:op
func Add(a, b int32) int32 {
	// a comment
	return a + b + K
}

func helper() int { return 1 }
`

func hashOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	h, err := Dir(dir, "p")
	require.NoError(t, err)
	return h
}

// TestDir: the hash changes with an operator's code and the package's
// constants, not with comments, other functions, test or generated files,
// or the file an operator is in.
func TestDir(t *testing.T) {
	h := hashOf(t, map[string]string{"a.go": base})
	same := map[string]map[string]string{
		"comments":        {"a.go": replace(base, "// a comment", "// another comment"), "b.go": "package p\n"},
		"other function":  {"a.go": replace(base, "return 1", "return 2")},
		"test file":       {"a.go": base, "a_test.go": "package p\n\n//gocccl:op\nfunc Sub(a, b int32) int32 { return a - b }\n"},
		"generated files": {"a.go": base, "gocccl_gen.go": "package p\n\nconst Z = 1\n"},
		"other package":   {"a.go": base, "x.go": "package q\n\nconst Z = 1\n"},
		"moved":           {"a.go": replace(base, "const K = 3\n", ""), "k.go": "package p\n\nconst K = 3\n"},
	}
	for name, files := range same {
		assert.Equal(t, h, hashOf(t, files), name)
	}
	changed := map[string]map[string]string{
		"body":         {"a.go": replace(base, "a + b + K", "a - b + K")},
		"signature":    {"a.go": replace(base, "(a, b int32)", "(b, a int32)")},
		"constant":     {"a.go": replace(base, "K = 3", "K = 4")},
		"new operator": {"a.go": base, "b.go": "package p\n\n//gocccl:op\nfunc Sub(a, b int32) int32 { return a - b }\n"},
		"not an op":    {"a.go": replace(base, "//gocccl:op\n", "")},
	}
	for name, files := range changed {
		assert.NotEqual(t, h, hashOf(t, files), name)
	}
}

func replace(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("no " + old)
	}
	return strings.Replace(s, old, new, 1)
}

// TestCheck: Check passes with the recorded hash, says to run go generate
// with another, and skips where the sources are not.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte(base), 0o644))
	h, err := Dir(dir, "p")
	require.NoError(t, err)
	skip, err := Check(dir, "p", h)
	assert.False(t, skip)
	assert.NoError(t, err)
	skip, err = Check(dir, "p", "0000")
	assert.False(t, skip)
	assert.EqualError(t, err, "gocccl: the //gocccl:op operators or constants of package p changed since gocccl-gen compiled its kernels: run go generate")
	skip, err = Check(t.TempDir(), "p", h)
	assert.True(t, skip)
	assert.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package p\nfunc {"), 0o644))
	_, err = Check(dir, "p", h)
	assert.ErrorContains(t, err, "hashing the operators of package p")
}
