// Command opfuzz writes a package of random gocccl operators and their
// differential test (see package opfuzz):
//
//	go run ./conformance/opfuzz/cmd/opfuzz -seed 1 -n 120 -out conformance/devicetest/opfuzz
//
// Then run go generate in the package, with nvcc, to compile it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocccl/gocccl/conformance/opfuzz"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the generator: the same seed writes the same files")
	n := flag.Int("n", 100, "operators to generate")
	out := flag.String("out", "", "directory to write ops.go and opfuzz_test.go into (created if missing)")
	pkg := flag.String("pkg", "", "package name (default: the base name of -out)")
	arch := flag.String("arch", "sm_90", "targets of the //gocccl:arch directive (empty: none)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "opfuzz: -out is required")
		os.Exit(2)
	}
	if *pkg == "" {
		*pkg = filepath.Base(*out)
	}
	if err := run(*out, opfuzz.Config{
		Seed:    *seed,
		N:       *n,
		Package: *pkg,
		Arch:    *arch,
		Command: fmt.Sprintf("opfuzz -seed %d -n %d", *seed, *n),
	}); err != nil {
		fmt.Fprintln(os.Stderr, "opfuzz:", err)
		os.Exit(1)
	}
}

func run(dir string, c opfuzz.Config) error {
	if strings.ContainsAny(c.Package, "-. ") {
		return fmt.Errorf("package name %q is not an identifier: give -pkg", c.Package)
	}
	files, err := opfuzz.Generate(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
