// Package nccl is the binding to NVIDIA's NCCL, opened at run time with
// dlopen as the driver is (package cuda): nothing links -lnccl, programs
// build and start where NCCL is absent, and CGO_ENABLED=0 builds report it
// absent. It looks in the places Load documents, NVIDIA's nvidia-nccl-cu13
// wheel (scripts/install-nccl.sh) among them.
//
// It finds NCCL and reports its version (gocccl-gen doctor), and binds the
// communicators (one process: InitAll; several: GetUniqueID and InitRank),
// the collectives and point-to-point calls that runtime/group runs over
// device memory.
package nccl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Library is the file name Load opens.
const Library = "libnccl.so.2"

// EnvPath names an environment variable holding the path of the NCCL
// library to load, which Load tries first.
const EnvPath = "GOCCCL_NCCL"

// ErrNotFound wraps every failure to find or open NCCL.
var ErrNotFound = errors.New("NCCL not found")

var found struct {
	once sync.Once
	path string
	err  error
}

// Candidates returns the paths Load tries, in order: $GOCCCL_NCCL; the
// library of NVIDIA's wheel where scripts/install-nccl.sh puts it
// ($GOCCCL_NCCL_DIR, else $XDG_DATA_HOME/gocccl/nccl, else
// ~/.local/share/gocccl/nccl, then nvidia/nccl/lib); then the bare name, which
// the dynamic loader looks up in its usual places (LD_LIBRARY_PATH, the
// ldconfig cache, /usr/lib).
func Candidates() []string {
	var paths []string
	if p := os.Getenv(EnvPath); p != "" {
		paths = append(paths, p)
	}
	dir := os.Getenv("GOCCCL_NCCL_DIR")
	if dir == "" {
		data := os.Getenv("XDG_DATA_HOME")
		if data == "" {
			if home, err := os.UserHomeDir(); err == nil {
				data = filepath.Join(home, ".local", "share")
			}
		}
		if data != "" {
			dir = filepath.Join(data, "gocccl", "nccl")
		}
	}
	if dir != "" {
		paths = append(paths, filepath.Join(dir, "nvidia", "nccl", "lib", Library))
	}
	return append(paths, Library)
}

// Load opens NCCL, once: the first candidate that opens wins. It returns
// the path it opened, or an error wrapping ErrNotFound that lists what it
// tried. It is safe for concurrent use.
func Load() (string, error) {
	found.once.Do(func() {
		var tried []string
		for _, p := range Candidates() {
			if filepath.IsAbs(p) {
				if _, err := os.Stat(p); err != nil {
					tried = append(tried, p+": no such file")
					continue
				}
			}
			err := load(p)
			if err == nil {
				found.path = p
				return
			}
			tried = append(tried, err.Error())
		}
		found.err = fmt.Errorf("%w (tried: %s)", ErrNotFound, joinTried(tried))
	})
	return found.path, found.err
}

func joinTried(tried []string) string {
	s := ""
	for i, t := range tried {
		if i > 0 {
			s += "; "
		}
		s += t
	}
	return s
}

// A Version is NCCL's release.
type Version struct{ Major, Minor, Patch int }

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// GetVersion loads NCCL and returns its version.
func GetVersion() (Version, error) {
	if _, err := Load(); err != nil {
		return Version{}, err
	}
	code, r := ncclGetVersion()
	if r != 0 {
		return Version{}, fmt.Errorf("ncclGetVersion: %s (ncclResult %d)", ncclGetErrorString(r), r)
	}
	return decode(code), nil
}

// decode splits ncclGetVersion's code: 10000*major + 100*minor + patch from
// NCCL 2.9 on, 1000*major + 100*minor + patch before.
func decode(code int) Version {
	if code >= 20900 {
		return Version{code / 10000, code % 10000 / 100, code % 100}
	}
	return Version{code / 1000, code % 1000 / 100, code % 100}
}
