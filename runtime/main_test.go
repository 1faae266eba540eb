package runtime

import (
	"fmt"
	"os"
	"testing"
)

// TestMain opts this package's tests into running operators without
// generated kernels on the CPU backend: they (and the examples) declare
// instances in _test.go files, which gocccl-gen does not generate, and test
// the algorithms' host dispatch and CPU backend, not generated code. Every
// CPU device they open says so in its String. Tests of the default (a CPU
// device refuses an instance without kernels, as a GPU does) clear the
// variable themselves.
func TestMain(m *testing.M) {
	if err := os.Setenv(EnvUngenerated, "1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
