package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/analyzer"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// flags are the options shared by generation and check.
type flags struct {
	arch    string
	nvcc    string
	tags    string
	verbose bool
}

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	var f flags
	root := &cobra.Command{
		Use:   "gocccl-gen [packages]",
		Short: "Generate and compile GPU kernels for //gocccl:op operators",
		Long: `gocccl-gen generates, for each package (default: the one in the current
directory), CUDA source for its //gocccl:op operators and algorithm instances,
compiles it with nvcc for every target, and writes the Go glue that embeds
the images. Nothing is written when any operator has an error.

Environment:
  GOCCCL_NVCC     the nvcc to use (the -nvcc flag wins)
  GOCCCL_CACHE    the compile cache directory (default: the user cache
                  directory; "off" disables it); GOCCCL_CACHE_MAX bounds it
                  (default 1 GiB)
  GOCCCL_BACKEND  at run time, not here: cpu, gpu or auto picks the device
                  runtime.Open(runtime.Auto) opens
  GOCCCL_UNGENERATED
                  at run time: 1 lets a CPU device run instances that were
                  not generated (by default both backends refuse them)`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Package patterns, not subcommands, are the root's arguments.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := misspelledVerb(args, cmd.Commands()); err != nil {
				return err
			}
			return generate(cmd.Context(), stdout, stderr, f, args)
		},
	}
	root.Flags().BoolVarP(&f.verbose, "v", "v", false, "print what was generated for each package")
	root.PersistentFlags().StringVar(&f.arch, "arch", "", "comma-separated targets, e.g. sm_80,sm_90,compute_90 (default: what nvcc supports from sm_75 to sm_90, plus PTX of the highest)")
	root.PersistentFlags().StringVar(&f.nvcc, "nvcc", "", "path to nvcc (default: $GOCCCL_NVCC, $CUDA_HOME/bin, $PATH, /usr/local/cuda/bin)")
	root.PersistentFlags().StringVar(&f.tags, "tags", "", "comma-separated build tags to load packages with")
	root.AddCommand(newCheckCommand(stdout, stderr, &f), newSizeCommand(stdout, stderr, &f), newDoctorCommand(stdout), newVersionCommand(stdout))
	return root
}

// load analyzes the packages named by args, printing every diagnostic.
func load(stderr io.Writer, f flags, args []string) ([]*model.Package, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var tags []string
	if f.tags != "" {
		tags = strings.Split(f.tags, ",")
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	pkgs, err := analyzer.Load(dir, tags, args...)
	var diags analyzer.Errors
	if errors.As(err, &diags) {
		for _, d := range diags {
			fmt.Fprintln(stderr, d)
		}
		return nil, exitError{1}
	}
	if err != nil {
		return nil, err
	}
	return pkgs, nil
}

func options(f flags) (emit.Options, error) {
	opts := emit.Options{NVCC: f.nvcc}
	if f.arch != "" {
		ts, err := emit.ParseTargets(f.arch)
		if err != nil {
			return opts, err
		}
		opts.Targets = ts
	}
	return opts, nil
}

func generate(ctx context.Context, stdout, stderr io.Writer, f flags, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	opts, err := options(f)
	if err != nil {
		return err
	}
	pkgs, err := load(stderr, f, args)
	if err != nil {
		return err
	}
	// Every package is generated before any is written, so an error in
	// generation (nvcc rejects the source, no toolchain) leaves every package
	// as it was; and every package's files are written to temporary files
	// before any is renamed into place (emit.WriteAll), so an error in
	// writing (a directory that is not writable) does too.
	outs, err := generateAll(ctx, pkgs, opts)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // interrupted: write nothing
		return err
	}
	dirs := make([]string, len(pkgs))
	for i, pkg := range pkgs {
		dirs[i] = pkg.Dir
	}
	if err := emit.WriteAll(outs, dirs); err != nil {
		return fmt.Errorf("nothing was written: %w", err)
	}
	if f.verbose {
		for i, pkg := range pkgs {
			report(stdout, pkg, outs[i])
		}
	}
	return nil
}

// report prints one line per package for -v: its instances, its targets
// and where the images came from; then a line for each kernel the spill
// guard compiled at a looser bound than its policy's.
func report(w io.Writer, pkg *model.Package, out *emit.Output) {
	if len(pkg.Instances) == 0 {
		fmt.Fprintf(w, "%s: no algorithm instances, nothing to generate (%d operators)\n", pkg.Path, len(pkg.Ops))
		return
	}
	var targets []string
	if out.Manifest != nil {
		for _, t := range out.Manifest.Targets {
			targets = append(targets, t.String())
		}
	}
	how := "compiled by nvcc"
	switch {
	case out.Reused:
		how = "up to date, nvcc not run"
	case len(out.Cached) == len(targets):
		how = "all images from the compile cache"
	case len(out.Cached) > 0:
		how = fmt.Sprintf("%d of %d images from the compile cache", len(out.Cached), len(targets))
	}
	fmt.Fprintf(w, "%s: %d instances, %d operators; %s; %s\n", pkg.Path, len(pkg.Instances), len(pkg.Ops), strings.Join(targets, ","), how)
	if out.Manifest == nil {
		return
	}
	for _, f := range out.Manifest.Files {
		for _, r := range f.Relaxed {
			fmt.Fprintf(w, "  %s: %s\n", f.Name, r)
		}
	}
}

// misspelledVerb reports an argument that is not a package but looks like a
// misspelled command ("docter"), instead of loading it as a package.
func misspelledVerb(args []string, cmds []*cobra.Command) error {
	if len(args) != 1 || strings.ContainsAny(args[0], "./") {
		return nil
	}
	if _, err := os.Stat(args[0]); err == nil {
		return nil // a directory of that name
	}
	for _, c := range cmds {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if d := editDistance(args[0], c.Name()); d > 0 && d <= 2 {
			return fmt.Errorf("unknown command %q: did you mean %q? (gocccl-gen takes package patterns or one of its commands: see gocccl-gen --help)", args[0], c.Name())
		}
	}
	return nil
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// generateAll runs emit.Generate for every package, several at once, so
// that nvcc runs in parallel across packages as well as across targets:
// up to GOMAXPROCS packages, sharing GOMAXPROCS nvcc jobs between them. The
// first failure cancels the others and is returned, naming its package.
func generateAll(ctx context.Context, pkgs []*model.Package, opts emit.Options) ([]*emit.Output, error) {
	procs := goruntime.GOMAXPROCS(0)
	if opts.Jobs > 0 {
		procs = opts.Jobs
	}
	par := max(1, min(len(pkgs), procs))
	opts.Jobs = max(1, procs/par)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([]*emit.Output, len(pkgs))
	errs := make([]error, len(pkgs))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, pkg := range pkgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			if outs[i], errs[i] = emit.Generate(ctx, pkg, opts); errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", pkg.Path, errs[i])
				cancel()
			}
		}()
	}
	wg.Wait()
	// The failure that caused the cancellation, not one it caused.
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	return outs, nil
}
