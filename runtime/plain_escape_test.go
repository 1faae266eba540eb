package runtime

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestPlainCallsEscape reads the compiler's escape analysis of the calls of
// the algorithms whose Run takes Inputs and Outputs (instantiated by
// testdata/plainalloc): launch arguments (a cuda.Args, some kilobytes) or a
// histogram's binner moved to the heap are allocated by every call that
// declares them, the plain ones among them, which the GPU suites'
// TestGPUAllocations would count. It runs where a GPU is absent.
func TestPlainCallsEscape(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	const pkg = "github.com/gocccl/gocccl/runtime/testdata/plainalloc"
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags="+pkg+"=-m", "./testdata/plainalloc")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// Variables of a whole Run (or of a helper every call goes through),
	// not of a branch that only a composition or the CPU backend takes.
	bad := regexp.MustCompile(`(histogram|histogram_range|search|segmented_reduce|select|select_util|unique)\.go:\d+:\d+: (moved to heap: runtime\.args|&runtime\.evenBinner.* escapes to heap)`)
	var found []string
	for _, line := range strings.Split(string(out), "\n") {
		if bad.MatchString(line) && !strings.Contains(line, "does not escape") {
			found = append(found, line)
		}
	}
	if len(found) > 0 {
		t.Errorf("plain calls allocate on every call:\n%s", strings.Join(found, "\n"))
	}
}
