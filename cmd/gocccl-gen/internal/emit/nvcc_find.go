package emit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// NVCCLocation is an nvcc that FindNVCC chose and the rule that chose it.
type NVCCLocation struct {
	Path string // the nvcc executable
	// Rule says why this nvcc: which place of the search order held it,
	// e.g. "$GOCCCL_NVCC" or "NVIDIA's nvcc wheel in python3's site-packages".
	Rule string
}

// standardNVCC is where NVIDIA's installers put nvcc; a variable for tests.
var standardNVCC = "/usr/local/cuda/bin/nvcc"

// FindNVCC returns the nvcc to use; see LocateNVCC for the search order.
func FindNVCC(explicit string) (string, error) {
	loc, err := LocateNVCC(explicit)
	return loc.Path, err
}

// LocateNVCC finds the nvcc to use and says which rule found it. It looks,
// in this order, at:
//
//  1. explicit (the -nvcc flag), when not empty;
//  2. $GOCCCL_NVCC;
//  3. $CUDA_HOME/bin/nvcc, then $CUDA_PATH/bin/nvcc;
//  4. nvcc on $PATH;
//  5. /usr/local/cuda/bin/nvcc;
//  6. the toolkit that scripts/install-cuda-toolkit.sh installs (see
//     ToolkitDir): <dir>/nvidia/cu13/bin/nvcc;
//  7. NVIDIA's nvcc wheel (nvidia/cuNN/bin/nvcc, the highest NN) in the
//     site-packages directories of the python3 on $PATH, its user site
//     included, where cuda-pathfinder finds it too;
//  8. $CONDA_PREFIX/bin/nvcc.
//
// An explicit path or $GOCCCL_NVCC that does not name an executable is an
// error rather than a reason to look elsewhere.
//
// A symbolic link to an nvcc is replaced by its target when the link's
// directory lacks the nvcc.profile that the target's has: nvcc reads its
// include, nvvm and library directories from the nvcc.profile beside the
// path it was started by, so a link to the wheel's nvcc in ~/bin would
// compile against whatever ../include holds (Debian's CUDA 11.8 headers in
// /usr/include, say).
func LocateNVCC(explicit string) (NVCCLocation, error) {
	loc, err := locateNVCC(explicit)
	if err != nil {
		return loc, err
	}
	if p := profiledTarget(loc.Path); p != "" {
		loc.Rule += " (" + loc.Path + " links to it)"
		loc.Path = p
	}
	return loc, nil
}

// profiledTarget returns the target of the symbolic link nvcc when the
// target's directory holds an nvcc.profile and the link's does not, else "".
func profiledTarget(nvcc string) string {
	if _, err := os.Stat(filepath.Join(filepath.Dir(nvcc), "nvcc.profile")); err == nil {
		return ""
	}
	p := resolved(nvcc)
	if p == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(p), "nvcc.profile")); err != nil {
		return ""
	}
	return p
}

// locateNVCC is LocateNVCC without the resolution of links.
func locateNVCC(explicit string) (NVCCLocation, error) {
	if explicit != "" {
		p, err := checkExecutable(explicit, "the -nvcc flag")
		return NVCCLocation{Path: p, Rule: "the -nvcc flag"}, err
	}
	if env := os.Getenv("GOCCCL_NVCC"); env != "" {
		p, err := checkExecutable(env, "$GOCCCL_NVCC")
		return NVCCLocation{Path: p, Rule: "$GOCCCL_NVCC"}, err
	}
	var tried []string
	try := func(path, rule string) (NVCCLocation, bool) {
		if _, err := checkExecutable(path, ""); err == nil {
			return NVCCLocation{Path: path, Rule: rule}, true
		}
		tried = append(tried, path)
		return NVCCLocation{}, false
	}
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if home := os.Getenv(env); home != "" {
			if loc, ok := try(filepath.Join(home, "bin", "nvcc"), "$"+env); ok {
				return loc, nil
			}
		}
	}
	if p, err := exec.LookPath("nvcc"); err == nil {
		return NVCCLocation{Path: p, Rule: "$PATH"}, nil
	}
	tried = append(tried, "nvcc on $PATH")
	if loc, ok := try(standardNVCC, "the standard CUDA location"); ok {
		return loc, nil
	}
	if dir, err := ToolkitDir(); err == nil {
		rule := "the gocccl toolkit directory (scripts/install-cuda-toolkit.sh)"
		if loc, ok := try(filepath.Join(dir, "nvidia", "cu13", "bin", "nvcc"), rule); ok {
			return loc, nil
		}
	}
	for _, sp := range pythonSitePackages() {
		if p := wheelNVCC(sp); p != "" {
			return NVCCLocation{Path: p, Rule: "NVIDIA's nvcc wheel in python3's site-packages"}, nil
		}
		tried = append(tried, filepath.Join(sp, "nvidia", "cu*", "bin", "nvcc"))
	}
	if conda := os.Getenv("CONDA_PREFIX"); conda != "" {
		if loc, ok := try(filepath.Join(conda, "bin", "nvcc"), "$CONDA_PREFIX"); ok {
			return loc, nil
		}
	}
	return NVCCLocation{}, fmt.Errorf("nvcc not found (tried %s); run scripts/install-cuda-toolkit.sh (CUDA 13 from NVIDIA's wheels, no root) or set $GOCCCL_NVCC",
		strings.Join(tried, ", "))
}

// ToolkitDir returns the directory scripts/install-cuda-toolkit.sh installs
// the CUDA toolkit into: $GOCCCL_TOOLKIT_DIR, else
// $XDG_DATA_HOME/gocccl/cuda13, else ~/.local/share/gocccl/cuda13. The
// script uses the same rule.
func ToolkitDir() (string, error) {
	if d := os.Getenv("GOCCCL_TOOLKIT_DIR"); d != "" {
		return d, nil
	}
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("toolkit directory: %w", err)
		}
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "gocccl", "cuda13"), nil
}

// wheelNVCC returns the nvcc of the highest CUDA major release that an
// NVIDIA wheel installed under site-packages dir (nvidia/cu13/bin/nvcc), or
// "" when there is none.
func wheelNVCC(dir string) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "nvidia", "cu*", "bin", "nvcc"))
	major := func(p string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(filepath.Dir(p))), "cu"))
		return n
	}
	sort.Slice(matches, func(i, j int) bool { return major(matches[i]) > major(matches[j]) })
	for _, p := range matches {
		if _, err := checkExecutable(p, ""); err == nil {
			return p
		}
	}
	return ""
}

// pythonSiteScript prints the site-packages directories of the running
// Python, its user site last, one a line.
const pythonSiteScript = `import site, sys
dirs = []
try: dirs += site.getsitepackages()
except Exception: pass
dirs += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
try: dirs.append(site.getusersitepackages())
except Exception: pass
print("\n".join(dirs))`

// pythonSitePackages asks the python3 on $PATH for its site-packages
// directories, in its order and without duplicates; nil when there is no
// python3 or it fails.
func pythonSitePackages() []string {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, "-c", pythonSiteScript).Output()
	if err != nil {
		return nil
	}
	var dirs []string
	seen := make(map[string]bool)
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !seen[l] {
			seen[l] = true
			dirs = append(dirs, l)
		}
	}
	return dirs
}

// checkExecutable returns path when it names an executable regular file.
func checkExecutable(path, what string) (string, error) {
	fi, err := os.Stat(path)
	if err == nil && (fi.IsDir() || fi.Mode()&0o111 == 0) {
		err = errors.New("not an executable file")
	}
	if err != nil {
		if what != "" {
			if errors.Is(err, fs.ErrNotExist) {
				err = errors.New("no such file")
			}
			return "", fmt.Errorf("nvcc from %s: %s: %w; install the CUDA toolkit (scripts/install-cuda-toolkit.sh: CUDA 13 from NVIDIA's wheels, no root) or name an existing nvcc", what, path, err)
		}
		return "", err
	}
	return path, nil
}
