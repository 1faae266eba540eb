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
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

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

// compile compiles src for every target, at most jobs nvcc runs at a time,
// in a temporary directory holding the source and the headers, and returns
// each target's artifact. It works an architecture at a time (see
// compileArch): nvcc writes the PTX of the whole package once, which
// splitPTX cuts into parts (the kernels of one instance each), and each
// part of a SASS target is compiled from its PTX on its own, through the
// spill guard (spillguard.go). A failure names the target, with nvcc's
// output in which lines of gocccl_gen.cu that belong to an operator carry
// their Go position. Nil parts make one part of every kernel.
func (tc *Toolchain) compile(ctx context.Context, src *cudaFile, headers []File, targets []Target, parts [][]string, jobs int) (map[Target]*artifact, error) {
	for _, t := range targets {
		if !tc.Supports(t) {
			return nil, tc.unsupportedTarget(t)
		}
	}
	dir, err := os.MkdirTemp("", "gocccl-gen-")
	if err != nil {
		return nil, fmt.Errorf("nvcc: %w", err)
	}
	defer os.RemoveAll(dir)
	files := append([]File{{Name: CUDAFile, Data: src.src}}, headers...)
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("nvcc: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, fmt.Errorf("nvcc: %w", err)
		}
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	builds := archBuilds(targets)
	results := make([]map[Target]*artifact, len(builds))
	errs := make([]error, len(builds))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, b := range builds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = tc.compileArch(ctx, dir, src, b, parts, sem)
		}()
	}
	wg.Wait()
	out := make(map[Target]*artifact, len(targets))
	var failed []string
	var first error
	for i, b := range builds {
		if errs[i] != nil {
			if first == nil {
				first = errs[i]
			} else {
				failed = append(failed, targetList(b.targets()))
			}
			continue
		}
		for t, a := range results[i] {
			out[t] = a
		}
	}
	if first != nil {
		if len(failed) > 0 {
			return nil, fmt.Errorf("%w\n(also failed: %s)", first, strings.Join(failed, ", "))
		}
		return nil, first
	}
	return out, nil
}

// archBuild is what compile builds for one architecture: its SASS target
// (sm_XY), its PTX target (compute_XY), or both, from one PTX.
type archBuild struct {
	arch      int
	sass, ptx bool
}

// archBuilds groups targets by architecture, in the order of their first
// target.
func archBuilds(targets []Target) []archBuild {
	var bs []archBuild
	at := make(map[int]int)
	for _, t := range targets {
		i, ok := at[t.Arch]
		if !ok {
			i = len(bs)
			at[t.Arch] = i
			bs = append(bs, archBuild{arch: t.Arch})
		}
		if t.PTX {
			bs[i].ptx = true
		} else {
			bs[i].sass = true
		}
	}
	return bs
}

// targets returns b's targets, SASS first.
func (b archBuild) targets() []Target {
	var ts []Target
	if b.sass {
		ts = append(ts, Target{Arch: b.arch})
	}
	if b.ptx {
		ts = append(ts, Target{Arch: b.arch, PTX: true})
	}
	return ts
}

// compileArch compiles the package's PTX for b's architecture in dir,
// splits it into parts and runs each part through the spill guard, each
// nvcc run holding one of sem's slots. The SASS target's parts are the
// guard's images; the PTX target's are the PTX they were compiled from, so
// that a driver's JIT compiles the bounds the guard chose. A PTX target
// without its SASS target is measured against that SASS where the toolchain
// supports it (its bounded parts only: the others need no ptxas run), and
// shipped as nvcc wrote it where not.
func (tc *Toolchain) compileArch(ctx context.Context, dir string, src *cudaFile, b archBuild, parts [][]string, sem chan struct{}) (map[Target]*artifact, error) {
	sass, ptxTarget := Target{Arch: b.arch}, Target{Arch: b.arch, PTX: true}
	whole := stem(b.targets()[0]) + ".all.ptx"
	sem <- struct{}{}
	ptx, err := tc.run(ctx, dir, src, b.targets()[0], append(TargetFlags(ptxTarget), "-o", whole, CUDAFile), whole)
	<-sem
	if err != nil {
		return nil, err
	}
	texts := [][]byte{ptx} // no parts: one of every kernel
	if parts != nil {
		if texts, err = splitPTX(ptx, parts); err != nil {
			return nil, fmt.Errorf("nvcc for %s: %w", targetList(b.targets()), err)
		}
	}
	measure := b.sass || tc.Supports(sass)
	images := make([][]byte, len(texts))
	finals := make([][]byte, len(texts))
	relaxed := make([][]Relaxed, len(texts))
	errs := make([]error, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		if !measure {
			finals[i] = text
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := fmt.Sprintf("%s.part%d", stem(sass), i)
			compile := func(text []byte, verbose bool) ([]byte, string, error) {
				if err := os.WriteFile(filepath.Join(dir, base+".ptx"), text, 0o644); err != nil {
					return nil, "", fmt.Errorf("nvcc for %s: %w", sass, err)
				}
				args := TargetFlags(sass)
				if verbose {
					args = append(args, "-Xptxas", "-v")
				}
				sem <- struct{}{}
				defer func() { <-sem }()
				return tc.runLog(ctx, dir, src, sass, append(args, "-o", base+".cubin", base+".ptx"), base+".cubin")
			}
			plain := func(text []byte) ([]byte, error) {
				if !b.sass {
					return nil, nil // nothing to measure, no image wanted
				}
				image, _, err := compile(text, false)
				return image, err
			}
			images[i], finals[i], relaxed[i], errs[i] = guardSpills(text,
				func(text []byte) ([]byte, string, error) { return compile(text, true) }, plain)
			if errs[i] != nil && parts != nil {
				errs[i] = fmt.Errorf("%w\n(compiling the part of kernels %s)", errs[i], strings.Join(parts[i], ", "))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var all []Relaxed
	for _, r := range relaxed {
		all = append(all, r...)
	}
	out := make(map[Target]*artifact, 2)
	if b.sass {
		a := joinParts(images)
		a.relaxed = all
		out[sass] = a
	}
	if b.ptx {
		withNUL := make([][]byte, len(finals))
		for i, text := range finals {
			withNUL[i] = append(text[:len(text):len(text)], 0)
		}
		a := joinParts(withNUL)
		a.relaxed = all
		out[ptxTarget] = a
	}
	return out, nil
}

// stem returns t's artifact name without its extension: gocccl_gen_sm_90.
func stem(t Target) string {
	return strings.TrimSuffix(t.FileName(), filepath.Ext(t.FileName()))
}
// run runs nvcc with the common flags and args in dir and returns the file
// it wrote, out.
func (tc *Toolchain) run(ctx context.Context, dir string, src *cudaFile, t Target, args []string, out string) ([]byte, error) {
	b, _, err := tc.runLog(ctx, dir, src, t, args, out)
	return b, err
}

// runLog is run that also returns what nvcc printed (ptxas' report, with
// -Xptxas -v).
func (tc *Toolchain) runLog(ctx context.Context, dir string, src *cudaFile, t Target, args []string, out string) ([]byte, string, error) {
	args = append(append(Flags(), pathFlags()...), args...)
	cmd := exec.CommandContext(ctx, tc.Path, args...)
	cmd.Dir = dir
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, "", fmt.Errorf("nvcc for %s: %w", t, ctx.Err())
		}
		return nil, "", fmt.Errorf("nvcc %s for %s: %w:\n%s", tc.Version, t, err, src.annotate(log.String()))
	}
	b, err := os.ReadFile(filepath.Join(dir, out))
	if err != nil {
		return nil, "", fmt.Errorf("nvcc for %s: %w", t, err)
	}
	return b, log.String(), nil
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
