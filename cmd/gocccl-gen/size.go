package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

func newSizeCommand(stdout, stderr io.Writer, f *flags) *cobra.Command {
	return &cobra.Command{
		Use:   "size [packages]",
		Short: "Print the bytes of each package's compiled images, per target, and totals",
		Long: `size prints, for each generated package, the size of the image of every
target its manifest lists (what the package adds to a binary), the package's
total, and totals per target over all packages. The gzip column is the size
gzip -9 gives, for judging what compressing images would save.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			pkgs, err := load(stderr, *f, args)
			if err != nil {
				return err
			}
			if !anyGenerated(pkgs) {
				return fmt.Errorf("no generated images in %s: run go generate (gocccl-gen) first; a package gets images when it declares algorithm instances", describe(pkgs))
			}
			tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "package\ttarget\tbytes\tgzip\t")
			var (
				order  []emit.Target
				totals = make(map[emit.Target]imageSize)
				all    imageSize
			)
			for _, pkg := range pkgs {
				m, err := emit.ReadManifest(filepath.Join(pkg.Dir, emit.ManifestFile))
				if err != nil {
					if os.IsNotExist(err) {
						continue // not generated, or no instances
					}
					return fmt.Errorf("%s: %w", pkg.Path, err)
				}
				var sum imageSize
				for _, t := range m.Targets {
					s, err := measure(filepath.Join(pkg.Dir, t.FileName()))
					if err != nil {
						return fmt.Errorf("%s: %w", pkg.Path, err)
					}
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t\n", pkg.Path, t, s.bytes, s.gzip)
					if _, ok := totals[t]; !ok {
						order = append(order, t)
					}
					totals[t] = totals[t].add(s)
					sum = sum.add(s)
				}
				fmt.Fprintf(tw, "%s\ttotal\t%d\t%d\t\n", pkg.Path, sum.bytes, sum.gzip)
				all = all.add(sum)
			}
			if len(pkgs) > 1 {
				sortTargets(order)
				for _, t := range order {
					fmt.Fprintf(tw, "all packages\t%s\t%d\t%d\t\n", t, totals[t].bytes, totals[t].gzip)
				}
				fmt.Fprintf(tw, "all packages\ttotal\t%d\t%d\t\n", all.bytes, all.gzip)
			}
			return tw.Flush()
		},
	}
}

// anyGenerated reports whether some package has a manifest.
func anyGenerated(pkgs []*model.Package) bool {
	for _, pkg := range pkgs {
		if _, err := os.Stat(filepath.Join(pkg.Dir, emit.ManifestFile)); err == nil {
			return true
		}
	}
	return false
}

// describe names the packages in a message: "package example.com/x" or
// "3 packages".
func describe(pkgs []*model.Package) string {
	if len(pkgs) == 1 {
		return "package " + pkgs[0].Path
	}
	return fmt.Sprintf("%d packages", len(pkgs))
}

// imageSize is the size of an image, as it is and gzipped.
type imageSize struct{ bytes, gzip int64 }

func (s imageSize) add(t imageSize) imageSize {
	return imageSize{s.bytes + t.bytes, s.gzip + t.gzip}
}

// measure returns the size of the file at path and of its gzip -9 stream.
func measure(path string) (imageSize, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return imageSize{}, err
	}
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return imageSize{}, err
	}
	if _, err := w.Write(b); err != nil {
		return imageSize{}, err
	}
	if err := w.Close(); err != nil {
		return imageSize{}, err
	}
	return imageSize{int64(len(b)), int64(buf.Len())}, nil
}

// sortTargets sorts targets by architecture, SASS before PTX.
func sortTargets(ts []emit.Target) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && targetLess(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

func targetLess(a, b emit.Target) bool {
	if a.Arch != b.Arch {
		return a.Arch < b.Arch
	}
	return !a.PTX && b.PTX
}
