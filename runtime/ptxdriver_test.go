package runtime

import (
	"testing"

	"github.com/gocccl/gocccl/internal/registry"
	"github.com/stretchr/testify/require"
)

// TestCheckPTXDriver: PTX newer than the driver is refused before loading,
// with the driver version it needs; SASS and PTX the driver knows pass.
func TestCheckPTXDriver(t *testing.T) {
	// Built by an nvcc newer than the driver: PTX ISA 9.5 (nvcc 13.5), and
	// SASS for sm_90 only.
	ims := []registry.Image{
		{Target: Target{Arch: 90}, Data: []byte("\x7fELF")},
		{Target: Target{Arch: 90, PTX: true}, Data: []byte("//\n// Cuda compilation tools, release 13.5\n\n.version 9.5\n.target sm_90\n")},
	}
	const driver = 13000 // driver 580, CUDA 13.0

	// An H200 gets the SASS: no JIT, no error.
	im, _, err := registry.SelectImage(ims, 9, 0)
	require.NoError(t, err)
	require.NoError(t, checkPTXDriver(im, driver, 9, 0))

	// A B200 only fits the PTX, which this driver cannot compile.
	im, _, err = registry.SelectImage(ims, 10, 0)
	require.NoError(t, err)
	require.True(t, im.Target.PTX)
	err = checkPTXDriver(im, driver, 10, 0)
	require.EqualError(t, err, "compute_90: PTX ISA 9.5 needs a driver for CUDA 13.5 or newer, and this driver supports CUDA 13.0: "+
		"update the driver, or regenerate with sm_100 among the targets (SASS needs no JIT)")
	require.NoError(t, checkPTXDriver(im, 13050, 10, 0))

	// The version the generated code recorded wins over the text.
	im.PTXISA = "9.0"
	require.NoError(t, checkPTXDriver(im, driver, 10, 0))
	im.PTXISA = "9.1"
	require.ErrorContains(t, checkPTXDriver(im, driver, 10, 0), "CUDA 13.1 or newer")

	// PTX of nvcc 11.8 (ISA 7.8) loads on any CUDA 12 or 13 driver.
	old := registry.Image{Target: Target{Arch: 90, PTX: true}, Data: []byte(".version 7.8\n.target sm_90\n")}
	require.NoError(t, checkPTXDriver(old, 12020, 10, 0))
	require.ErrorContains(t, checkPTXDriver(old, 11040, 10, 0), "CUDA 11.8 or newer")
}
