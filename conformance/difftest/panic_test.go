package difftest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/runtime"
)

// indexChildEnv makes TestIndexOutOfRange run the failing launch itself: on
// the GPU the kernel traps and the CUDA context is lost, so the parent runs
// it in a child process.
const indexChildEnv = "GOCCCL_DIFFTEST_INDEX_CHILD"

// runArrIndex runs ArrIndex over one element with index i and returns the
// first error of the upload, launch or download.
func runArrIndex(dev *runtime.Device, i int) error {
	a, err := runtime.FromHost(dev, [][8]float32{{1, 2, 3, 4, 5, 6, 7, 8}})
	if err != nil {
		return err
	}
	defer a.Free()
	idx, err := runtime.FromHost(dev, []int{i})
	if err != nil {
		return err
	}
	defer idx.Free()
	out, err := runtime.Alloc[float32](dev, 1)
	if err != nil {
		return err
	}
	defer out.Free()
	if err := runtime.BinaryTransform(ArrIndex).Run(nil, a, idx, out); err != nil {
		return err
	}
	_, err = out.ToHost()
	return err
}

// TestIndexOutOfRange documents what an index out of range does
// (docs/OPERATORS.md): Go panics, so the CPU backend's Run returns the
// panic as an error; on the GPU the kernel traps and the launch's error
// comes back from the next call that waits for it.
func TestIndexOutOfRange(t *testing.T) {
	if os.Getenv(indexChildEnv) == "1" {
		dev, err := runtime.Open(runtime.GPU)
		require.NoError(t, err)
		err = runArrIndex(dev, 8)
		fmt.Printf("index-child: error: %v\n", err)
		fmt.Printf("index-child: faulted: %v\n", errors.Is(err, runtime.ErrDeviceFaulted))
		_, err = runtime.Alloc[float32](dev, 1)
		fmt.Printf("index-child: later: %v\n", err)
		fmt.Printf("index-child: later faulted: %v\n", errors.Is(err, runtime.ErrDeviceFaulted))
		fmt.Printf("index-child: close: %v\n", dev.Close())
		return
	}
	dev := openDevice(t)
	require.NoError(t, runArrIndex(dev, 3), "an index in range")
	if dev.Backend() != runtime.GPU {
		err := runArrIndex(dev, 8)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "index out of range")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestIndexOutOfRange$", "-test.count=1")
	cmd.Env = append(os.Environ(), indexChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.False(t, err != nil && !errors.As(err, &exit), "running the child: %v", err)
	t.Logf("child:\n%s", out)
	said := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimPrefix(l, "index-child: "), ": "); ok && strings.HasPrefix(l, "index-child: ") {
			said[k] = v
		}
	}
	require.Contains(t, said, "error", "the child reported nothing")
	assert.NotEqual(t, "<nil>", said["error"], "an index out of range must fail the launch on the GPU")
	// The fault names the instance, and the device says it cannot be used
	// again, on this call and the next.
	assert.Equal(t, "true", said["faulted"], "the fault wraps ErrDeviceFaulted")
	assert.Contains(t, said["error"], "ArrIndex", "the fault names the instance")
	assert.Contains(t, said["error"], "every later call on this Device fails")
	assert.Equal(t, "true", said["later faulted"], "a later call fails with the fault: %s", said["later"])
	assert.Equal(t, 1, strings.Count(said["error"], "gocccl: "), said["error"])
}
