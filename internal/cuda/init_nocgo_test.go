//go:build !cgo

package cuda

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInitWithoutCgo(t *testing.T) {
	err := Init()
	require.ErrorIs(t, err, ErrDriverNotFound)
	assert.Contains(t, err.Error(), "without cgo")
}
