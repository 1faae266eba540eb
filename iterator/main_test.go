package iterator_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gocccl/gocccl/runtime"
)

// TestMain lets the example and tests run their instances, declared in
// _test.go files that gocccl-gen does not generate, on the CPU backend.
func TestMain(m *testing.M) {
	if err := os.Setenv(runtime.EnvUngenerated, "1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
