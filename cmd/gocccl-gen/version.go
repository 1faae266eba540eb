package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
)

// moduleVersion returns the version of the module the generator was built
// from, "(devel)" when it was built inside it.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// versionLine describes this generator, e.g.
// "0.1.0 (module v0.1.0, go1.26.8, linux/amd64)": the generator version that
// manifests record (emit.Version), then the module version, the Go release
// and the platform it was built with.
func versionLine() string {
	return fmt.Sprintf("%s (module %s, %s, %s/%s)", emit.Version, moduleVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCommand(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the generator's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintf(stdout, "gocccl-gen %s\n", versionLine())
			return err
		},
	}
}
