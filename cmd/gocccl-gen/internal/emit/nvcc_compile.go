package emit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// compile compiles src for every target, at most jobs nvcc runs at a time,
// in a temporary directory holding the source and the headers, and returns
// each target's artifact. It works an architecture at a time (see
// compileArch): nvcc writes the PTX of the whole package once, which
// splitPTX cuts into parts (the kernels of one instance each), and each
// part of a SASS target is compiled from its PTX on its own, through the
// spill guard (nvcc_spillguard.go). A failure names the target, with nvcc's
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
			images[i], finals[i], relaxed[i], errs[i] = guardSpills(sass, text,
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
