//go:build cgo

package cuda

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadLibraryWithoutDriverSymbols loads a library that exists but is not
// a CUDA driver: the error names the missing symbol.
func TestLoadLibraryWithoutDriverSymbols(t *testing.T) {
	err := cuLoad("libc.so.6")
	require.ErrorIs(t, err, ErrDriverNotFound)
	assert.Contains(t, err.Error(), "cuInit")
}
