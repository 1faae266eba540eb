// Package cuda is a thin binding to the CUDA driver API, for the gocccl
// runtime.
//
// The driver is opened at run time: the first call to [Init] loads
// libcuda.so.1 with dlopen and calls cuInit. Nothing links against libcuda
// and nothing happens at program start, so binaries that import this package
// build without a CUDA toolkit and start on machines without a GPU; there,
// Init returns an error wrapping [ErrDriverNotFound], or an [*Error] whose
// Code is [ErrorNoDevice]. Built with CGO_ENABLED=0 the package still
// compiles, and Init always fails with ErrDriverNotFound.
//
// Work happens in the primary context of a device, obtained with
// [PrimaryContext]. Every method of [Context] makes that context current on
// the calling OS thread inside the same C call as the driver call it makes,
// so callers never need runtime.LockOSThread, and goroutines may use one
// Context concurrently.
//
// Every failure is returned as an error. Failures reported by the driver are
// [*Error] values that name the call and the CUDA result code.
//
// Handles ([Stream], [Event], [Module], [Function], [DevicePtr]) are plain
// integers owned by the caller: the package keeps no record of them and frees
// nothing on its own.
package cuda
