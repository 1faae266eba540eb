//go:build !cgo

package cuda

// Built without cgo, the driver cannot be loaded: cuLoad fails, so Init and
// everything that needs the driver return its error, and the other functions
// here are never reached. They report ErrorNotInitialized all the same.

import (
	"fmt"
	"unsafe"
)

func cuLoad(path string) error {
	return fmt.Errorf("%w: %s cannot be loaded: this binary was built without cgo (CGO_ENABLED=0)",
		ErrDriverNotFound, path)
}

func driverResultText(Result) (name, desc string, ok bool) { return "", "", false }

func cuInit() Result                          { return ErrorNotInitialized }
func cuDriverGetVersion() (int, Result)       { return 0, ErrorNotInitialized }
func cuDeviceGetCount() (int, Result)         { return 0, ErrorNotInitialized }
func cuDeviceGet(int) (Device, Result)        { return 0, ErrorNotInitialized }
func cuDeviceGetName(Device) (string, Result) { return "", ErrorNotInitialized }
func cuDeviceGetAttribute(Device, DeviceAttribute) (int, Result) {
	return 0, ErrorNotInitialized
}
func cuDeviceTotalMem(Device) (uint64, Result)          { return 0, ErrorNotInitialized }
func cuDevicePrimaryCtxRetain(Device) (uintptr, Result) { return 0, ErrorNotInitialized }
func cuDevicePrimaryCtxRelease(Device) Result           { return ErrorNotInitialized }
func cuMemAlloc(uintptr, int) (DevicePtr, Result)       { return 0, ErrorNotInitialized }
func cuMemFree(uintptr, DevicePtr) Result               { return ErrorNotInitialized }
func cuMemAllocAsync(uintptr, int, Stream) (DevicePtr, Result) {
	return 0, ErrorNotInitialized
}
func cuMemFreeAsync(uintptr, DevicePtr, Stream) Result             { return ErrorNotInitialized }
func cuMemPoolCreate(uintptr, Device, uint64) (MemPool, Result)    { return 0, ErrorNotInitialized }
func cuMemPoolDestroy(uintptr, MemPool) Result                     { return ErrorNotInitialized }
func cuMemPoolTrimTo(uintptr, MemPool, uint64) Result              { return ErrorNotInitialized }
func cuMemPoolSetReleaseThreshold(uintptr, MemPool, uint64) Result { return ErrorNotInitialized }
func cuMemAllocFromPoolAsync(uintptr, int, MemPool, Stream) (DevicePtr, Result) {
	return 0, ErrorNotInitialized
}
func cuMemGetInfo(uintptr) (free, total uint64, r Result) {
	return 0, 0, ErrorNotInitialized
}
func cuMemcpyHtoD(uintptr, DevicePtr, unsafe.Pointer, int) Result { return ErrorNotInitialized }
func cuMemcpyDtoH(uintptr, unsafe.Pointer, DevicePtr, int) Result { return ErrorNotInitialized }
func cuMemcpyDtoD(uintptr, DevicePtr, DevicePtr, int) Result      { return ErrorNotInitialized }
func cuMemcpyDtoDAsync(uintptr, DevicePtr, DevicePtr, int, Stream) Result {
	return ErrorNotInitialized
}
func cuMemsetD8(uintptr, DevicePtr, byte, int) Result { return ErrorNotInitialized }
func cuStreamCreate(uintptr, bool) (Stream, Result)   { return 0, ErrorNotInitialized }
func cuMemcpyHtoDAsync(uintptr, DevicePtr, unsafe.Pointer, int, Stream) Result {
	return ErrorNotInitialized
}
func cuMemcpyDtoHAsync(uintptr, unsafe.Pointer, DevicePtr, int, Stream) Result {
	return ErrorNotInitialized
}
func cuMemsetAsync(uintptr, DevicePtr, uint32, int, int, Stream) Result { return ErrorNotInitialized }
func cuMemHostAlloc(uintptr, int, uint32) (unsafe.Pointer, Result) {
	return nil, ErrorNotInitialized
}
func cuMemFreeHost(uintptr, unsafe.Pointer) Result                  { return ErrorNotInitialized }
func cuMemHostRegister(uintptr, unsafe.Pointer, int, uint32) Result { return ErrorNotInitialized }
func cuMemHostUnregister(uintptr, unsafe.Pointer) Result            { return ErrorNotInitialized }
func cuPointerGetAttribute(uintptr, PointerAttribute, DevicePtr) (uint64, Result) {
	return 0, ErrorNotInitialized
}
func cuCtxSetCurrent(uintptr) Result                    { return ErrorNotInitialized }
func cuCtxGetDevice(uintptr) (Device, Result)           { return 0, ErrorNotInitialized }
func cuStreamWaitEvent(uintptr, Stream, Event) Result   { return ErrorNotInitialized }
func cuStreamQuery(uintptr, Stream) Result              { return ErrorNotInitialized }
func cuEventQuery(uintptr, Event) Result                { return ErrorNotInitialized }
func cuStreamDestroy(uintptr, Stream) Result            { return ErrorNotInitialized }
func cuStreamSynchronize(uintptr, Stream) Result        { return ErrorNotInitialized }
func cuCtxSynchronize(uintptr) Result                   { return ErrorNotInitialized }
func cuEventCreate(uintptr, EventFlags) (Event, Result) { return 0, ErrorNotInitialized }
func cuEventRecord(uintptr, Event, Stream) Result       { return ErrorNotInitialized }
func cuEventSynchronize(uintptr, Event) Result          { return ErrorNotInitialized }
func cuEventElapsedTime(uintptr, Event, Event) (float32, Result) {
	return 0, ErrorNotInitialized
}
func cuEventDestroy(uintptr, Event) Result { return ErrorNotInitialized }
func cuModuleLoadDataEx(uintptr, []byte, []byte, []byte) (Module, Result) {
	return 0, ErrorNotInitialized
}
func cuModuleUnload(uintptr, Module) Result { return ErrorNotInitialized }
func cuModuleGetFunction(uintptr, Module, string) (Function, Result) {
	return 0, ErrorNotInitialized
}
func cuOccupancyMaxActiveBlocksPerMultiprocessor(uintptr, Function, int, int) (int, Result) {
	return 0, ErrorNotInitialized
}
func cuLaunchKernel(uintptr, Function, Dim3, Dim3, int, Stream, unsafe.Pointer, int) Result {
	return ErrorNotInitialized
}

func cuStreamBeginCapture(uintptr, Stream, int) Result      { return ErrorNotInitialized }
func cuStreamEndCapture(uintptr, Stream) (Graph, Result)    { return 0, ErrorNotInitialized }
func cuGraphInstantiate(uintptr, Graph) (GraphExec, Result) { return 0, ErrorNotInitialized }
func cuGraphLaunch(uintptr, GraphExec, Stream) Result       { return ErrorNotInitialized }
func cuGraphExecDestroy(uintptr, GraphExec) Result          { return ErrorNotInitialized }
func cuGraphDestroy(uintptr, Graph) Result                  { return ErrorNotInitialized }
