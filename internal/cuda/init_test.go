package cuda

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInitWithoutGPU checks the two ways Init may fail on a machine without
// a GPU, such as every development and CI machine.
func TestInitWithoutGPU(t *testing.T) {
	err := Init()
	if err == nil {
		t.Skip("a CUDA GPU is present")
	}
	var e *Error
	switch {
	case errors.Is(err, ErrDriverNotFound):
		assert.Contains(t, err.Error(), "libcuda.so.1")
	case errors.As(err, &e):
		assert.Equal(t, ErrorNoDevice, e.Code, "a driver without a GPU reports no device")
		assert.Equal(t, "cuInit", e.Call)
		assert.Contains(t, err.Error(), "CUDA_ERROR_NO_DEVICE")
	default:
		t.Fatalf("Init error is neither ErrDriverNotFound nor an *Error: %v", err)
	}
}

func TestInitReturnsTheSameResult(t *testing.T) {
	first := Init()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = Init() })
	}
	wg.Wait()
	for _, err := range errs {
		assert.Equal(t, first, err)
	}
}

func TestFunctionsReportInitError(t *testing.T) {
	initErr := Init()
	if initErr == nil {
		t.Skip("a CUDA GPU is present")
	}
	_, err := DeviceCount()
	assert.Equal(t, initErr, err)
	_, err = DeviceGet(0)
	assert.Equal(t, initErr, err)
	_, err = Device(0).Name()
	assert.Equal(t, initErr, err)
	_, _, err = Device(0).ComputeCapability()
	assert.Equal(t, initErr, err)
	_, err = Device(0).TotalMem()
	assert.Equal(t, initErr, err)
	ctx, err := PrimaryContext(0)
	assert.Nil(t, ctx)
	assert.Equal(t, initErr, err)
}

func TestDriverVersion(t *testing.T) {
	initErr := Init()
	v, err := DriverVersion()
	if errors.Is(initErr, ErrDriverNotFound) {
		assert.Equal(t, initErr, err)
		return
	}
	require.NoError(t, err, "the library is loaded even if there is no GPU")
	assert.GreaterOrEqual(t, v, 11000)
	t.Logf("driver supports CUDA %d.%d", v/1000, v%1000/10)
}

func TestLoadMissingLibrary(t *testing.T) {
	err := cuLoad("libgocccl-no-such-library.so.1")
	require.ErrorIs(t, err, ErrDriverNotFound)
	assert.Contains(t, err.Error(), "libgocccl-no-such-library.so.1")
}

// TestContextNotFromPrimaryContext checks that a Context made without
// PrimaryContext returns errors instead of calling the driver.
func TestContextNotFromPrimaryContext(t *testing.T) {
	for _, c := range []*Context{nil, new(Context)} {
		_, err := c.MemAlloc(16)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, ErrorInvalidContext, e.Code)
		assert.Equal(t, "cuMemAlloc", e.Call)
		assert.Error(t, c.Release())
	}
}
