package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gocccl/gocccl/emit"
)

func newCheckCommand(stdout, stderr io.Writer, f *flags) *cobra.Command {
	return &cobra.Command{
		Use:   "check [packages]",
		Short: "Exit 1 and name the stale files when generated output is out of date",
		Long: `check regenerates each package's CUDA source and Go glue in memory and
compares them, the manifest's input hash and every compiled image's hash,
with what is on disk. It does not run nvcc.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := options(*f)
			if err != nil {
				return err
			}
			pkgs, err := load(stderr, *f, args)
			if err != nil {
				return err
			}
			stale := 0
			for _, pkg := range pkgs {
				files, err := emit.Check(pkg, pkg.Dir, opts)
				if err != nil {
					return fmt.Errorf("%s: %w", pkg.Path, err)
				}
				for _, name := range files {
					fmt.Fprintf(stderr, "stale: %s\n", filepath.Join(relative(pkg.Dir), name))
				}
				stale += len(files)
			}
			if stale > 0 {
				fmt.Fprintf(stderr, "%d generated file(s) are out of date; run go generate\n", stale)
				return exitError{1}
			}
			fmt.Fprintf(stdout, "%d package(s) up to date\n", len(pkgs))
			return nil
		},
	}
}

// relative returns dir relative to the working directory when that is
// shorter, for messages.
func relative(dir string) string {
	wd, err := filepath.Abs(".")
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(wd, dir); err == nil && len(rel) < len(dir) {
		return rel
	}
	return dir
}
