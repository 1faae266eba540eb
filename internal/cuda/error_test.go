package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorMessage(t *testing.T) {
	for _, tt := range []struct {
		err  *Error
		want string
	}{
		{&Error{"cuMemAlloc", ErrorOutOfMemory}, "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"},
		{&Error{"cuInit", ErrorNoDevice}, "cuInit: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected"},
		{&Error{"cuModuleLoadDataEx", ErrorInvalidImage}, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_IMAGE (200): device kernel image is invalid"},
		{&Error{"cuLaunchKernel", ErrorLaunchFailed}, "cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719): unspecified launch failure"},
		{&Error{"cuFoo", 12345}, "cuFoo: Result(12345) (12345)"},
	} {
		assert.Equal(t, tt.want, tt.err.Error())
	}
}

func TestResultString(t *testing.T) {
	assert.Equal(t, "CUDA_SUCCESS", Success.String())
	assert.Equal(t, "CUDA_ERROR_INVALID_PTX", ErrorInvalidPtx.String())
	assert.Equal(t, "CUDA_ERROR_UNKNOWN", ErrorUnknown.String())
	assert.Equal(t, "Result(12345)", Result(12345).String())
}

// TestResultValues pins the codes to their values in cuda.h.
func TestResultValues(t *testing.T) {
	for r, want := range map[Result]int{
		Success: 0, ErrorInvalidValue: 1, ErrorOutOfMemory: 2, ErrorNotInitialized: 3,
		ErrorDeinitialized: 4, ErrorNoDevice: 100, ErrorInvalidDevice: 101,
		ErrorInvalidImage: 200, ErrorInvalidContext: 201, ErrorNoBinaryForGPU: 209,
		ErrorInvalidPtx: 218, ErrorUnsupportedPtxVersion: 222, ErrorInvalidSource: 300,
		ErrorFileNotFound: 301, ErrorNotFound: 500, ErrorNotReady: 600,
		ErrorIllegalAddress: 700, ErrorLaunchOutOfResources: 701, ErrorLaunchFailed: 719,
		ErrorNotSupported: 801, ErrorUnknown: 999,
	} {
		assert.Equal(t, want, int(r), r.String())
	}
}

// TestResultNamesWithoutDriver checks the static table, which is used when
// the driver is not loaded.
func TestResultNamesWithoutDriver(t *testing.T) {
	for r, text := range resultTexts {
		name, desc := text[0], text[1]
		if r == Success {
			assert.Equal(t, "CUDA_SUCCESS", name)
		} else {
			assert.True(t, strings.HasPrefix(name, "CUDA_ERROR_"), name)
		}
		assert.NotEmpty(t, desc, name)
		assert.Equal(t, strings.ToUpper(name), name)
	}
	assert.Equal(t, "CUDA_ERROR_NO_DEVICE", resultTexts[ErrorNoDevice][0])
	assert.Equal(t, "CUDA_ERROR_OUT_OF_MEMORY", resultTexts[ErrorOutOfMemory][0])
}

// TestResultNamesMatchDriver compares the static table with the driver's
// names, where a driver is loaded (it is on GPU machines, and on machines
// with a driver but no GPU).
func TestResultNamesMatchDriver(t *testing.T) {
	_ = Init() // loads the driver, if there is one
	if !driver.loaded.Load() {
		t.Skip("no CUDA driver loaded")
	}
	for r, text := range resultTexts {
		name, _, ok := driverResultText(r)
		if ok {
			assert.Equal(t, text[0], name)
		}
	}
}

func TestCheck(t *testing.T) {
	assert.NoError(t, check("cuInit", Success))

	err := check("cuMemAlloc", ErrorOutOfMemory)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, &Error{Call: "cuMemAlloc", Code: ErrorOutOfMemory}, e)
}

func TestCheckMissingSymbol(t *testing.T) {
	err := check("cuMemAllocAsync", resultMissingSymbol)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has no cuMemAllocAsync")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorNotSupported, e.Code)
	assert.Equal(t, "cuMemAllocAsync", e.Call)
}

func TestErrInvalid(t *testing.T) {
	err := errNegative("cuMemAlloc", -3)
	assert.Contains(t, err.Error(), "negative size -3")
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, ErrorInvalidValue, e.Code)
}
