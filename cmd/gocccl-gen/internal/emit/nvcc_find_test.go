package emit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nvccWorld is a temporary machine for LocateNVCC: every place it searches,
// each of which may hold an nvcc stand-in.
type nvccWorld struct {
	root   string
	places map[string]string // place name → the nvcc path it would hold
}

// newNVCCWorld points every place LocateNVCC searches into a temporary
// directory and puts an executable nvcc into the places named in with. The
// python3 on $PATH is a script that prints two site-packages directories,
// "site" and "usersite".
func newNVCCWorld(t *testing.T, with ...string) *nvccWorld {
	root := t.TempDir()
	w := &nvccWorld{root: root, places: map[string]string{
		"explicit":  filepath.Join(root, "explicit", "nvcc"),
		"gocccl":    filepath.Join(root, "gocccl", "nvcc"),
		"cudahome":  filepath.Join(root, "cudahome", "bin", "nvcc"),
		"cudapath":  filepath.Join(root, "cudapath", "bin", "nvcc"),
		"path":      filepath.Join(root, "pathbin", "nvcc"),
		"standard":  filepath.Join(root, "usr-local-cuda", "bin", "nvcc"),
		"toolkit":   filepath.Join(root, "toolkit", "nvidia", "cu13", "bin", "nvcc"),
		"site":      filepath.Join(root, "site", "nvidia", "cu13", "bin", "nvcc"),
		"site-cu14": filepath.Join(root, "site", "nvidia", "cu14", "bin", "nvcc"),
		"usersite":  filepath.Join(root, "usersite", "nvidia", "cu13", "bin", "nvcc"),
		"conda":     filepath.Join(root, "conda", "bin", "nvcc"),
	}}
	for _, p := range with {
		path, ok := w.places[p]
		require.True(t, ok, p)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\necho "+p+"\n"), 0o755))
	}
	pathBin := filepath.Join(root, "pathbin")
	require.NoError(t, os.MkdirAll(pathBin, 0o755))
	py := fmt.Sprintf("#!/bin/sh\necho %s\necho %s\necho %s\n", filepath.Join(root, "site"), filepath.Join(root, "usersite"), filepath.Join(root, "site"))
	require.NoError(t, os.WriteFile(filepath.Join(pathBin, "python3"), []byte(py), 0o755))

	t.Setenv("PATH", pathBin)
	t.Setenv("GOCCCL_NVCC", "")
	t.Setenv("CUDA_HOME", filepath.Join(root, "cudahome"))
	t.Setenv("CUDA_PATH", filepath.Join(root, "cudapath"))
	t.Setenv("GOCCCL_TOOLKIT_DIR", filepath.Join(root, "toolkit"))
	t.Setenv("CONDA_PREFIX", filepath.Join(root, "conda"))
	old := standardNVCC
	standardNVCC = w.places["standard"]
	t.Cleanup(func() { standardNVCC = old })
	return w
}

func TestLocateNVCCOrder(t *testing.T) {
	all := []string{"explicit", "gocccl", "cudahome", "cudapath", "path", "standard", "toolkit", "site", "usersite", "conda"}
	tests := []struct {
		with     []string
		explicit bool
		gocccl   bool // set $GOCCCL_NVCC to the "gocccl" place
		want     string
		rule     string
	}{
		{with: all, explicit: true, gocccl: true, want: "explicit", rule: "-nvcc flag"},
		{with: all, gocccl: true, want: "gocccl", rule: "$GOCCCL_NVCC"},
		{with: all, want: "cudahome", rule: "$CUDA_HOME"},
		{with: all[3:], want: "cudapath", rule: "$CUDA_PATH"},
		{with: all[4:], want: "path", rule: "$PATH"},
		{with: all[5:], want: "standard", rule: "standard CUDA location"},
		{with: all[6:], want: "toolkit", rule: "install-cuda-toolkit.sh"},
		{with: all[7:], want: "site", rule: "site-packages"},
		{with: []string{"site", "site-cu14"}, want: "site-cu14", rule: "site-packages"},
		{with: all[8:], want: "usersite", rule: "site-packages"},
		{with: all[9:], want: "conda", rule: "$CONDA_PREFIX"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			w := newNVCCWorld(t, tt.with...)
			explicit := ""
			if tt.explicit {
				explicit = w.places["explicit"]
			}
			if tt.gocccl {
				t.Setenv("GOCCCL_NVCC", w.places["gocccl"])
			}
			loc, err := LocateNVCC(explicit)
			require.NoError(t, err)
			assert.Equal(t, w.places[tt.want], loc.Path)
			assert.Contains(t, loc.Rule, tt.rule)
			p, err := FindNVCC(explicit)
			require.NoError(t, err)
			assert.Equal(t, loc.Path, p)
		})
	}
}

func TestLocateNVCCErrors(t *testing.T) {
	w := newNVCCWorld(t)
	_, err := LocateNVCC(w.places["explicit"])
	assert.ErrorContains(t, err, "the -nvcc flag", "an explicit path that does not exist is not searched past")

	t.Setenv("GOCCCL_NVCC", w.places["gocccl"])
	_, err = LocateNVCC("")
	assert.ErrorContains(t, err, "$GOCCCL_NVCC")

	notExec := filepath.Join(w.root, "toolkit", "nvidia", "cu13", "bin", "nvcc")
	require.NoError(t, os.MkdirAll(filepath.Dir(notExec), 0o755))
	require.NoError(t, os.WriteFile(notExec, []byte("not a program"), 0o644))
	t.Setenv("GOCCCL_NVCC", "")
	_, err = LocateNVCC("")
	require.Error(t, err)
	for _, p := range []string{"cudahome", "cudapath", "standard", "toolkit", "conda"} {
		assert.Contains(t, err.Error(), w.places[p])
	}
	assert.Contains(t, err.Error(), "nvcc on $PATH")
	assert.Contains(t, err.Error(), filepath.Join(w.root, "usersite", "nvidia", "cu*", "bin", "nvcc"))
	assert.Contains(t, err.Error(), "scripts/install-cuda-toolkit.sh")
	assert.Equal(t, 1, strings.Count(err.Error(), filepath.Join(w.root, "site", "nvidia")), "site-packages directories are searched once")
}

func TestToolkitDir(t *testing.T) {
	t.Setenv("GOCCCL_TOOLKIT_DIR", "/opt/tk")
	d, err := ToolkitDir()
	require.NoError(t, err)
	assert.Equal(t, "/opt/tk", d)

	t.Setenv("GOCCCL_TOOLKIT_DIR", "")
	t.Setenv("XDG_DATA_HOME", "/data")
	d, err = ToolkitDir()
	require.NoError(t, err)
	assert.Equal(t, "/data/gocccl/cuda13", d)

	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	d, err = ToolkitDir()
	require.NoError(t, err)
	assert.Equal(t, "/home/u/.local/share/gocccl/cuda13", d)
}

func TestLocateNVCCResolvesLinkToProfile(t *testing.T) {
	w := newNVCCWorld(t, "toolkit")
	real := w.places["toolkit"]
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(real), "nvcc.profile"), []byte("TOP = $(_HERE_)/..\n"), 0o644))
	link := filepath.Join(w.root, "pathbin", "nvcc")
	require.NoError(t, os.Symlink(real, link))

	loc, err := LocateNVCC("")
	require.NoError(t, err)
	assert.Equal(t, real, loc.Path, "a link to an nvcc that reads its nvcc.profile")
	assert.Equal(t, "$PATH ("+link+" links to it)", loc.Rule)

	// A link in a directory with its own nvcc.profile, or to an nvcc
	// without one, is kept.
	require.NoError(t, os.WriteFile(filepath.Join(w.root, "pathbin", "nvcc.profile"), nil, 0o644))
	loc, err = LocateNVCC("")
	require.NoError(t, err)
	assert.Equal(t, link, loc.Path)
	require.NoError(t, os.Remove(filepath.Join(w.root, "pathbin", "nvcc.profile")))
	require.NoError(t, os.Remove(filepath.Join(filepath.Dir(real), "nvcc.profile")))
	loc, err = LocateNVCC("")
	require.NoError(t, err)
	assert.Equal(t, link, loc.Path)
}
