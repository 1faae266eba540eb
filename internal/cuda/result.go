package cuda

import "strconv"

// Result is a CUDA driver result code (CUresult).
type Result int

// Result codes, with their values in cuda.h.
const (
	Success                         Result = 0
	ErrorInvalidValue               Result = 1
	ErrorOutOfMemory                Result = 2
	ErrorNotInitialized             Result = 3
	ErrorDeinitialized              Result = 4
	ErrorStubLibrary                Result = 34
	ErrorDeviceUnavailable          Result = 46
	ErrorNoDevice                   Result = 100
	ErrorInvalidDevice              Result = 101
	ErrorInvalidImage               Result = 200
	ErrorInvalidContext             Result = 201
	ErrorNoBinaryForGPU             Result = 209
	ErrorInvalidPtx                 Result = 218
	ErrorJitCompilerNotFound        Result = 221
	ErrorUnsupportedPtxVersion      Result = 222
	ErrorInvalidSource              Result = 300
	ErrorFileNotFound               Result = 301
	ErrorInvalidHandle              Result = 400
	ErrorNotFound                   Result = 500
	ErrorNotReady                   Result = 600
	ErrorIllegalAddress             Result = 700
	ErrorLaunchOutOfResources       Result = 701
	ErrorLaunchTimeout              Result = 702
	ErrorAssert                     Result = 710
	ErrorHardwareStackError         Result = 714
	ErrorIllegalInstruction         Result = 715
	ErrorMisalignedAddress          Result = 716
	ErrorInvalidAddressSpace        Result = 717
	ErrorInvalidPC                  Result = 718
	ErrorLaunchFailed               Result = 719
	ErrorNotPermitted               Result = 800
	ErrorNotSupported               Result = 801
	ErrorSystemDriverMismatch       Result = 803
	ErrorCompatNotSupportedOnDevice Result = 804
	ErrorUnknown                    Result = 999
)

// resultMissingSymbol is returned by the shim instead of a CUresult when the
// loaded driver lacks an optional entry point. No CUresult is negative.
const resultMissingSymbol Result = -1

// resultTexts holds the name and description of the codes above, as the
// driver's cuGetErrorName and cuGetErrorString give them, for use when the
// driver is not loaded.
var resultTexts = map[Result][2]string{
	Success:                         {"CUDA_SUCCESS", "no error"},
	ErrorInvalidValue:               {"CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	ErrorOutOfMemory:                {"CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	ErrorNotInitialized:             {"CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
	ErrorDeinitialized:              {"CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
	ErrorStubLibrary:                {"CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
	ErrorDeviceUnavailable:          {"CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable"},
	ErrorNoDevice:                   {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	ErrorInvalidDevice:              {"CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	ErrorInvalidImage:               {"CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
	ErrorInvalidContext:             {"CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
	ErrorNoBinaryForGPU:             {"CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"},
	ErrorInvalidPtx:                 {"CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	ErrorJitCompilerNotFound:        {"CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found"},
	ErrorUnsupportedPtxVersion:      {"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain."},
	ErrorInvalidSource:              {"CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid"},
	ErrorFileNotFound:               {"CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
	ErrorInvalidHandle:              {"CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	ErrorNotFound:                   {"CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	ErrorNotReady:                   {"CUDA_ERROR_NOT_READY", "device not ready"},
	ErrorIllegalAddress:             {"CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	ErrorLaunchOutOfResources:       {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
	ErrorLaunchTimeout:              {"CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
	ErrorAssert:                     {"CUDA_ERROR_ASSERT", "device-side assert triggered"},
	ErrorHardwareStackError:         {"CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
	ErrorIllegalInstruction:         {"CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"},
	ErrorInvalidAddressSpace:        {"CUDA_ERROR_INVALID_ADDRESS_SPACE", "operation not supported on global/shared address space"},
	ErrorInvalidPC:                  {"CUDA_ERROR_INVALID_PC", "invalid program counter"},
	ErrorMisalignedAddress:          {"CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
	ErrorLaunchFailed:               {"CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
	ErrorNotPermitted:               {"CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
	ErrorNotSupported:               {"CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
	ErrorSystemDriverMismatch:       {"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination"},
	ErrorCompatNotSupportedOnDevice: {"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW"},
	ErrorUnknown:                    {"CUDA_ERROR_UNKNOWN", "unknown error"},
}

// String returns the code's name, such as "CUDA_ERROR_OUT_OF_MEMORY", or
// "Result(n)" for a code that neither the driver nor this package knows.
func (r Result) String() string {
	name, _ := r.text()
	return name
}

// text returns the code's name and description: the driver's when it is
// loaded and knows the code, else this package's. The description is empty
// for codes known to neither.
func (r Result) text() (name, desc string) {
	if name, desc, ok := driverResultText(r); ok {
		return name, desc
	}
	if t, ok := resultTexts[r]; ok {
		return t[0], t[1]
	}
	return "Result(" + strconv.Itoa(int(r)) + ")", ""
}
