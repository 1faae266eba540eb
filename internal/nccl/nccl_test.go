package nccl

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecode checks both of ncclGetVersion's encodings.
func TestDecode(t *testing.T) {
	assert.Equal(t, Version{2, 32, 6}, decode(23206))
	assert.Equal(t, Version{2, 9, 0}, decode(20900))
	assert.Equal(t, Version{2, 8, 4}, decode(2804))
	assert.Equal(t, "2.32.6", decode(23206).String())
}

// TestCandidates checks the search order: the variable, the install
// script's directory, then the loader's own search.
func TestCandidates(t *testing.T) {
	t.Setenv(EnvPath, "/opt/x/libnccl.so.2")
	t.Setenv("GOCCCL_NCCL_DIR", "/data/nccl")
	assert.Equal(t, []string{"/opt/x/libnccl.so.2", "/data/nccl/nvidia/nccl/lib/libnccl.so.2", "libnccl.so.2"}, Candidates())
	t.Setenv(EnvPath, "")
	t.Setenv("GOCCCL_NCCL_DIR", "")
	t.Setenv("XDG_DATA_HOME", "/xdg")
	assert.Equal(t, []string{"/xdg/gocccl/nccl/nvidia/nccl/lib/libnccl.so.2", "libnccl.so.2"}, Candidates())
}

// TestLoad loads NCCL where it is installed and reads its version; where
// it is not, Load must say so with ErrNotFound (GOCCCL_REQUIRE_NCCL makes a
// missing NCCL fail the test).
func TestLoad(t *testing.T) {
	path, err := Load()
	if err != nil {
		require.ErrorIs(t, err, ErrNotFound)
		assert.Contains(t, err.Error(), Library)
		if os.Getenv("GOCCCL_REQUIRE_NCCL") != "" {
			t.Fatalf("GOCCCL_REQUIRE_NCCL is set: %v", err)
		}
		t.Skipf("NCCL is not installed (%v)", err)
	}
	assert.Equal(t, Library, filepath.Base(path))
	v, err := GetVersion()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, v.Major, 2, "NCCL %s", v)
	t.Logf("NCCL %s from %s", v, path)
	_, again := Load()
	assert.False(t, errors.Is(again, ErrNotFound))
}
