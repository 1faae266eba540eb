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
//	gocccl-gen size [packages]     bytes of the compiled images per target
//	gocccl-gen doctor              describe the toolchain, driver and GPUs
//	gocccl-gen version
//
// Flags may be spelled with one dash, as Go tools do, or two.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	os.Exit(execute())
}

// execute runs the command line and returns the exit status. SIGINT and
// SIGTERM cancel the context the commands run with, so that nvcc is stopped
// and its temporary directory removed before gocccl-gen exits; a second
// signal kills at once.
func execute() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next signal gets its default behaviour
	}()
	cmd := newRootCommand(os.Stdout, os.Stderr)
	cmd.SetArgs(goStyleFlags(os.Args[1:]))
	if err := cmd.ExecuteContext(ctx); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		fmt.Fprintln(os.Stderr, "gocccl-gen:", err)
		return 1
	}
	return 0
}

// longFlags are the flags that Go tools spell with one dash.
var longFlags = []string{"arch", "nvcc", "tags"}

// goStyleFlags accepts Go's one-dash spelling of the long flags ("-arch
// sm_90", "-tags=a,b"), as go generate lines are written, by rewriting it
// to the two-dash form the flag parser expects. Arguments after "--" are
// left alone.
func goStyleFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		for _, f := range longFlags {
			if a == "-"+f || strings.HasPrefix(a, "-"+f+"=") {
				a = "-" + a
				break
			}
		}
		out = append(out, a)
	}
	return out
}
