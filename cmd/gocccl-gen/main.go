// Command gocccl-gen generates CUDA kernels and Go glue for the //gocccl:op
// operators and algorithm instances of a Go package, and compiles the
// kernels ahead of time for every requested GPU architecture.
//
// Run it from go generate:
//
//	//go:generate gocccl-gen
//
// Usage:
//
//	gocccl-gen [-arch sm_80,sm_90,compute_90] [-nvcc path] [-tags t1,t2] [packages]
//	gocccl-gen check [packages]    exit 1 and name the stale files
//	gocccl-gen doctor              describe the toolchain, driver and GPUs
//	gocccl-gen version
package main

import (
	"errors"
	"fmt"
	"os"
)

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	cmd := newRootCommand(os.Stdout, os.Stderr)
	if err := cmd.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "gocccl-gen:", err)
		os.Exit(1)
	}
}
