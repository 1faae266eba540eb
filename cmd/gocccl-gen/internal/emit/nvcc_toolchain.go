package emit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gocccl/gocccl/kernels"
)

// Toolchain is one nvcc installation and what it can compile for.
type Toolchain struct {
	Path    string // the nvcc executable
	Version string // release, e.g. "11.8"
	// VersionText is the full output of nvcc --version, which names the
	// compiler's build; the compile cache keys on it.
	VersionText string
	CUB         string   // CUB version of its headers, e.g. "1.17.2"; "" when not found
	CUBHeader   string   // the cub/version.cuh CUB was read from
	Supported   []Target // every sm_XY and compute_XY it accepts, sorted
	// Rule says why this nvcc was chosen (see NVCCLocation).
	Rule string
}

// LoadToolchain finds nvcc (see LocateNVCC) and asks it for its version and
// the targets it supports; the CUB version is read from its headers.
func LoadToolchain(ctx context.Context, explicit string) (*Toolchain, error) {
	loc, err := LocateNVCC(explicit)
	if err != nil {
		return nil, err
	}
	path := loc.Path
	out, err := exec.CommandContext(ctx, path, "--version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w\n%s", path, err, out)
	}
	version, err := parseNVCCVersion(string(out))
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", path, err)
	}
	tc := &Toolchain{Path: path, Version: version, VersionText: string(out), Rule: loc.Rule}
	tc.CUB, tc.CUBHeader = findCUBVersion(path)
	tc.Supported = listTargets(ctx, path)
	if len(tc.Supported) == 0 {
		tc.Supported = knownTargets(version)
	}
	return tc, nil
}

var releaseRE = regexp.MustCompile(`release (\d+)\.(\d+)`)

// parseNVCCVersion finds the release ("11.8") in nvcc --version output.
func parseNVCCVersion(out string) (string, error) {
	m := releaseRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("no release number in %q", strings.TrimSpace(out))
	}
	return m[1] + "." + m[2], nil
}

// listTargets asks nvcc for the targets it supports (nvcc ≥ 11.0 has
// --list-gpu-code and --list-gpu-arch); nil when it cannot say.
func listTargets(ctx context.Context, nvcc string) []Target {
	var ts []Target
	for _, flag := range []string{"--list-gpu-code", "--list-gpu-arch"} {
		out, err := exec.CommandContext(ctx, nvcc, flag).Output()
		if err != nil {
			return nil
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if t, err := ParseTarget(sc.Text()); err == nil {
				ts = append(ts, t)
			}
		}
	}
	return normalizeTargets(ts)
}

// Supports reports whether the toolchain can compile for t.
func (tc *Toolchain) Supports(t Target) bool {
	for _, s := range tc.Supported {
		if s == t {
			return true
		}
	}
	return false
}

// findCUBVersion reads CUB_VERSION from the cub/version.cuh that nvcc at
// path includes: beside its bin directory (include/, include/cccl/, for the
// nvcc binary and for what a wrapper script or link points to), else
// /usr/include as Debian installs it. It returns the version and the header
// it read, or "" and "" when none is found.
func findCUBVersion(nvcc string) (version, header string) {
	var dirs []string
	for _, p := range []string{nvcc, resolved(nvcc), "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"} {
		if p == "" {
			continue
		}
		root := filepath.Dir(filepath.Dir(p))
		dirs = append(dirs, filepath.Join(root, "include"), filepath.Join(root, "include", "cccl"))
	}
	dirs = append(dirs, "/usr/include")
	for _, d := range dirs {
		h := filepath.Join(d, "cub", "version.cuh")
		b, err := os.ReadFile(h)
		if err != nil {
			continue
		}
		if v, ok := parseCUBVersion(string(b)); ok {
			return cubVersionString(v), h
		}
	}
	return "", ""
}

// resolved returns path with symbolic links resolved, or "".
func resolved(path string) string {
	p, err := filepath.EvalSymlinks(path)
	if err != nil || p == path {
		return ""
	}
	return p
}

var cubVersionRE = regexp.MustCompile(`(?m)^\s*#\s*define\s+CUB_VERSION\s+(\d+)`)

// parseCUBVersion finds "#define CUB_VERSION 101702" in cub/version.cuh.
func parseCUBVersion(src string) (int, bool) {
	m := cubVersionRE.FindStringSubmatch(src)
	if m == nil {
		return 0, false
	}
	v, err := strconv.Atoi(m[1])
	return v, err == nil
}

// Flags returns the nvcc flags every target is compiled with: C++17, full
// optimization, and no floating-point shortcuts (no FMA contraction, no
// flushing of subnormals, IEEE division and square root), as Go computes.
// The header directory is relative: nvcc runs in the directory that holds
// the source, so no absolute path reaches an artifact.
func Flags() []string {
	return []string{"-std=c++17", "-O3", "-fmad=false", "-ftz=false", "-prec-div=true", "-prec-sqrt=true", "-Iinclude"}
}

// pathFlags fix the source path nvcc hands to its device compiler (cicc),
// which otherwise makes it absolute: names of internal-linkage device
// variables (CCCL 3's __device__ constexpr customization-point objects, in
// every cubin and PTX) embed a hash of that path, so without them the output
// would depend on the temporary directory nvcc ran in. nvcc 11.8 accepts them
// too; its output, which has no such names, does not change. They are not in
// Flags, and so not in manifests: they change no code, only those names.
func pathFlags() []string {
	return []string{"-Xcicc", "--orig_src_path_name=" + CUDAFile}
}

// TargetFlags returns the flags that select one target: "-cubin
// -arch=sm_XY" or "-ptx -arch=compute_XY".
func TargetFlags(t Target) []string {
	if t.PTX {
		return []string{"-ptx", "-arch=" + t.String()}
	}
	return []string{"-cubin", "-arch=" + t.String()}
}

// embeddedHeaders returns the header tree of the kernels package, with
// paths such as "include/gocccl/gosem.cuh", sorted by path.
func embeddedHeaders() ([]File, error) {
	var hs []File
	err := fs.WalkDir(kernels.Include, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(kernels.Include, path)
		if err != nil {
			return err
		}
		hs = append(hs, File{Name: path, Data: b})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("embedded headers: %w", err)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	return hs, nil
}

var cuLineRE = regexp.MustCompile(regexp.QuoteMeta(CUDAFile) + `\((\d+)\)`)

// annotate adds the Go position to every "gocccl_gen.cu(LINE)" of compiler
// output whose line belongs to an operator: "gocccl_gen.cu(42) [sum.go:13:2]".
func (f *cudaFile) annotate(out string) string {
	return cuLineRE.ReplaceAllStringFunc(strings.TrimSpace(out), func(s string) string {
		n, _ := strconv.Atoi(cuLineRE.FindStringSubmatch(s)[1])
		if p, ok := f.lines[n]; ok {
			return s + " [" + p + "]"
		}
		return s
	})
}

// targetList prints targets separated by commas.
func targetList(ts []Target) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}
