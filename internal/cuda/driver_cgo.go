//go:build cgo

package cuda

// The functions in this file call the C shim (shim.h), one per driver call,
// converting between Go and C types. No shim function keeps a pointer it is
// given or calls back into Go; the noescape and nocallback directives tell
// cgo so for those that take pointers, so that passing a pointer to Go memory
// (an out-parameter, an Args buffer) does not move that memory to the heap.

/*
#cgo LDFLAGS: -ldl
#cgo noescape gocccl_load
#cgo nocallback gocccl_load
#cgo noescape gocccl_cuDriverGetVersion
#cgo nocallback gocccl_cuDriverGetVersion
#cgo noescape gocccl_cuGetErrorName
#cgo nocallback gocccl_cuGetErrorName
#cgo noescape gocccl_cuGetErrorString
#cgo nocallback gocccl_cuGetErrorString
#cgo noescape gocccl_cuDeviceGetCount
#cgo nocallback gocccl_cuDeviceGetCount
#cgo noescape gocccl_cuDeviceGet
#cgo nocallback gocccl_cuDeviceGet
#cgo noescape gocccl_cuDeviceGetName
#cgo nocallback gocccl_cuDeviceGetName
#cgo noescape gocccl_cuDeviceGetAttribute
#cgo nocallback gocccl_cuDeviceGetAttribute
#cgo noescape gocccl_cuDeviceTotalMem
#cgo nocallback gocccl_cuDeviceTotalMem
#cgo noescape gocccl_cuDevicePrimaryCtxRetain
#cgo nocallback gocccl_cuDevicePrimaryCtxRetain
#cgo noescape gocccl_cuMemAlloc
#cgo nocallback gocccl_cuMemAlloc
#cgo noescape gocccl_cuMemAllocAsync
#cgo nocallback gocccl_cuMemAllocAsync
#cgo noescape gocccl_cuMemPoolCreate
#cgo nocallback gocccl_cuMemPoolCreate
#cgo noescape gocccl_cuMemPoolSetReleaseThreshold
#cgo nocallback gocccl_cuMemPoolSetReleaseThreshold
#cgo noescape gocccl_cuMemAllocFromPoolAsync
#cgo nocallback gocccl_cuMemAllocFromPoolAsync
#cgo noescape gocccl_cuMemGetInfo
#cgo nocallback gocccl_cuMemGetInfo
#cgo noescape gocccl_cuMemcpyHtoD
#cgo nocallback gocccl_cuMemcpyHtoD
#cgo noescape gocccl_cuMemcpyDtoH
#cgo nocallback gocccl_cuMemcpyDtoH
#cgo noescape gocccl_cuMemcpyHtoDAsync
#cgo nocallback gocccl_cuMemcpyHtoDAsync
#cgo noescape gocccl_cuMemcpyDtoHAsync
#cgo nocallback gocccl_cuMemcpyDtoHAsync
#cgo nocallback gocccl_cuMemsetAsync
#cgo noescape gocccl_cuMemHostAlloc
#cgo nocallback gocccl_cuMemHostAlloc
#cgo nocallback gocccl_cuMemFreeHost
#cgo nocallback gocccl_cuMemHostRegister
#cgo nocallback gocccl_cuMemHostUnregister
#cgo noescape gocccl_cuPointerGetAttribute
#cgo nocallback gocccl_cuPointerGetAttribute
#cgo noescape gocccl_cuCtxGetDevice
#cgo nocallback gocccl_cuCtxGetDevice
#cgo nocallback gocccl_cuStreamWaitEvent
#cgo nocallback gocccl_cuStreamQuery
#cgo nocallback gocccl_cuEventQuery
#cgo noescape gocccl_cuStreamCreate
#cgo nocallback gocccl_cuStreamCreate
#cgo noescape gocccl_cuEventCreate
#cgo nocallback gocccl_cuEventCreate
#cgo noescape gocccl_cuEventElapsedTime
#cgo nocallback gocccl_cuEventElapsedTime
#cgo noescape gocccl_cuModuleLoadDataEx
#cgo nocallback gocccl_cuModuleLoadDataEx
#cgo noescape gocccl_cuModuleGetFunction
#cgo nocallback gocccl_cuModuleGetFunction
#cgo noescape gocccl_cuOccupancyMaxActiveBlocksPerMultiprocessor
#cgo nocallback gocccl_cuOccupancyMaxActiveBlocksPerMultiprocessor
#cgo noescape gocccl_cuLaunchKernel
#cgo nocallback gocccl_cuLaunchKernel

#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// cuLoad opens the driver library at path and resolves its entry points.
// Only a successful load changes what the other functions call.
func cuLoad(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	switch C.gocccl_load(cpath, &msg[0], C.size_t(len(msg))) {
	case C.GOCCCL_LOAD_OK:
		return nil
	case C.GOCCCL_LOAD_DLOPEN:
		return fmt.Errorf("%w: %s", ErrDriverNotFound, C.GoString(&msg[0]))
	default:
		return fmt.Errorf("%w: %s is missing a symbol (driver too old?): %s",
			ErrDriverNotFound, path, C.GoString(&msg[0]))
	}
}

// driverResultText returns the driver's name and description of r, if the
// driver is loaded and knows r.
func driverResultText(r Result) (name, desc string, ok bool) {
	if !driver.loaded.Load() {
		return "", "", false
	}
	var n, d *C.char
	if C.gocccl_cuGetErrorName(C.CUresult(r), &n) != C.CUDA_SUCCESS ||
		C.gocccl_cuGetErrorString(C.CUresult(r), &d) != C.CUDA_SUCCESS ||
		n == nil || d == nil {
		return "", "", false
	}
	return C.GoString(n), C.GoString(d), true
}

func cuInit() Result {
	return Result(C.gocccl_cuInit())
}

func cuDriverGetVersion() (int, Result) {
	var v C.int
	r := C.gocccl_cuDriverGetVersion(&v)
	return int(v), Result(r)
}

func cuDeviceGetCount() (int, Result) {
	var n C.int
	r := C.gocccl_cuDeviceGetCount(&n)
	return int(n), Result(r)
}

func cuDeviceGet(ordinal int) (Device, Result) {
	var d C.CUdevice
	r := C.gocccl_cuDeviceGet(&d, C.int(ordinal))
	return Device(d), Result(r)
}

func cuDeviceGetName(d Device) (string, Result) {
	var name [256]C.char
	r := C.gocccl_cuDeviceGetName(&name[0], C.int(len(name)), C.CUdevice(d))
	if r != C.CUDA_SUCCESS {
		return "", Result(r)
	}
	return C.GoString(&name[0]), Success
}

func cuDeviceGetAttribute(d Device, a DeviceAttribute) (int, Result) {
	var v C.int
	r := C.gocccl_cuDeviceGetAttribute(&v, C.CUdevice_attribute(a), C.CUdevice(d))
	return int(v), Result(r)
}

func cuDeviceTotalMem(d Device) (uint64, Result) {
	var n C.size_t
	r := C.gocccl_cuDeviceTotalMem(&n, C.CUdevice(d))
	return uint64(n), Result(r)
}

func cuDevicePrimaryCtxRetain(d Device) (uintptr, Result) {
	var ctx C.uintptr_t
	r := C.gocccl_cuDevicePrimaryCtxRetain(&ctx, C.CUdevice(d))
	return uintptr(ctx), Result(r)
}

func cuDevicePrimaryCtxRelease(d Device) Result {
	return Result(C.gocccl_cuDevicePrimaryCtxRelease(C.CUdevice(d)))
}

func cuMemAlloc(ctx uintptr, bytes int) (DevicePtr, Result) {
	var p C.CUdeviceptr
	r := C.gocccl_cuMemAlloc(C.uintptr_t(ctx), &p, C.size_t(bytes))
	return DevicePtr(p), Result(r)
}

func cuMemFree(ctx uintptr, p DevicePtr) Result {
	return Result(C.gocccl_cuMemFree(C.uintptr_t(ctx), C.CUdeviceptr(p)))
}

func cuMemAllocAsync(ctx uintptr, bytes int, s Stream) (DevicePtr, Result) {
	var p C.CUdeviceptr
	r := C.gocccl_cuMemAllocAsync(C.uintptr_t(ctx), &p, C.size_t(bytes), C.uintptr_t(s))
	return DevicePtr(p), Result(r)
}

func cuMemFreeAsync(ctx uintptr, p DevicePtr, s Stream) Result {
	return Result(C.gocccl_cuMemFreeAsync(C.uintptr_t(ctx), C.CUdeviceptr(p), C.uintptr_t(s)))
}

func cuMemPoolCreate(ctx uintptr, d Device, releaseThreshold uint64) (MemPool, Result) {
	var p C.uintptr_t
	r := C.gocccl_cuMemPoolCreate(C.uintptr_t(ctx), C.CUdevice(d), C.ulonglong(releaseThreshold), &p)
	return MemPool(p), Result(r)
}

func cuMemPoolDestroy(ctx uintptr, p MemPool) Result {
	return Result(C.gocccl_cuMemPoolDestroy(C.uintptr_t(ctx), C.uintptr_t(p)))
}

func cuMemPoolSetReleaseThreshold(ctx uintptr, p MemPool, bytes uint64) Result {
	return Result(C.gocccl_cuMemPoolSetReleaseThreshold(C.uintptr_t(ctx), C.uintptr_t(p), C.ulonglong(bytes)))
}

func cuMemPoolTrimTo(ctx uintptr, p MemPool, keep uint64) Result {
	return Result(C.gocccl_cuMemPoolTrimTo(C.uintptr_t(ctx), C.uintptr_t(p), C.size_t(keep)))
}

func cuMemAllocFromPoolAsync(ctx uintptr, bytes int, p MemPool, s Stream) (DevicePtr, Result) {
	var d C.CUdeviceptr
	r := C.gocccl_cuMemAllocFromPoolAsync(C.uintptr_t(ctx), &d, C.size_t(bytes), C.uintptr_t(p), C.uintptr_t(s))
	return DevicePtr(d), Result(r)
}

func cuMemGetInfo(ctx uintptr) (free, total uint64, r Result) {
	var f, t C.size_t
	r = Result(C.gocccl_cuMemGetInfo(C.uintptr_t(ctx), &f, &t))
	return uint64(f), uint64(t), r
}

func cuMemcpyHtoD(ctx uintptr, dst DevicePtr, src unsafe.Pointer, bytes int) Result {
	return Result(C.gocccl_cuMemcpyHtoD(C.uintptr_t(ctx), C.CUdeviceptr(dst), src, C.size_t(bytes)))
}

func cuMemcpyDtoH(ctx uintptr, dst unsafe.Pointer, src DevicePtr, bytes int) Result {
	return Result(C.gocccl_cuMemcpyDtoH(C.uintptr_t(ctx), dst, C.CUdeviceptr(src), C.size_t(bytes)))
}

func cuMemcpyDtoD(ctx uintptr, dst, src DevicePtr, bytes int) Result {
	return Result(C.gocccl_cuMemcpyDtoD(C.uintptr_t(ctx), C.CUdeviceptr(dst), C.CUdeviceptr(src), C.size_t(bytes)))
}

func cuMemcpyDtoDAsync(ctx uintptr, dst, src DevicePtr, bytes int, s Stream) Result {
	return Result(C.gocccl_cuMemcpyDtoDAsync(C.uintptr_t(ctx), C.CUdeviceptr(dst), C.CUdeviceptr(src),
		C.size_t(bytes), C.uintptr_t(s)))
}

func cuMemsetD8(ctx uintptr, dst DevicePtr, value byte, n int) Result {
	return Result(C.gocccl_cuMemsetD8(C.uintptr_t(ctx), C.CUdeviceptr(dst), C.uchar(value), C.size_t(n)))
}

// The async copies pass src and dst as they are: the driver reads or writes
// them after the call returns, so they must be page-locked memory that the
// caller keeps alive (cuMemHostAlloc's, or registered), or pageable memory,
// which the driver stages before returning (host to device) or copies before
// returning (device to host).

func cuMemcpyHtoDAsync(ctx uintptr, dst DevicePtr, src unsafe.Pointer, bytes int, s Stream) Result {
	return Result(C.gocccl_cuMemcpyHtoDAsync(C.uintptr_t(ctx), C.CUdeviceptr(dst), src, C.size_t(bytes), C.uintptr_t(s)))
}

func cuMemcpyDtoHAsync(ctx uintptr, dst unsafe.Pointer, src DevicePtr, bytes int, s Stream) Result {
	return Result(C.gocccl_cuMemcpyDtoHAsync(C.uintptr_t(ctx), dst, C.CUdeviceptr(src), C.size_t(bytes), C.uintptr_t(s)))
}

func cuMemsetAsync(ctx uintptr, dst DevicePtr, value uint32, width, n int, s Stream) Result {
	return Result(C.gocccl_cuMemsetAsync(C.uintptr_t(ctx), C.CUdeviceptr(dst), C.uint(value), C.int(width), C.size_t(n), C.uintptr_t(s)))
}

func cuMemHostAlloc(ctx uintptr, bytes int, flags uint32) (unsafe.Pointer, Result) {
	var p unsafe.Pointer
	r := C.gocccl_cuMemHostAlloc(C.uintptr_t(ctx), &p, C.size_t(bytes), C.uint(flags))
	return p, Result(r)
}

func cuMemFreeHost(ctx uintptr, p unsafe.Pointer) Result {
	return Result(C.gocccl_cuMemFreeHost(C.uintptr_t(ctx), p))
}

func cuMemHostRegister(ctx uintptr, p unsafe.Pointer, bytes int, flags uint32) Result {
	return Result(C.gocccl_cuMemHostRegister(C.uintptr_t(ctx), p, C.size_t(bytes), C.uint(flags)))
}

func cuMemHostUnregister(ctx uintptr, p unsafe.Pointer) Result {
	return Result(C.gocccl_cuMemHostUnregister(C.uintptr_t(ctx), p))
}

func cuPointerGetAttribute(ctx uintptr, attr PointerAttribute, p DevicePtr) (uint64, Result) {
	var v C.ulonglong
	r := C.gocccl_cuPointerGetAttribute(C.uintptr_t(ctx), &v, C.int(attr), C.CUdeviceptr(p))
	return uint64(v), Result(r)
}

func cuCtxSetCurrent(ctx uintptr) Result { return Result(C.gocccl_cuCtxSetCurrent(C.uintptr_t(ctx))) }

func cuCtxGetDevice(ctx uintptr) (Device, Result) {
	var d C.CUdevice
	r := C.gocccl_cuCtxGetDevice(C.uintptr_t(ctx), &d)
	return Device(d), Result(r)
}

func cuStreamWaitEvent(ctx uintptr, s Stream, e Event) Result {
	return Result(C.gocccl_cuStreamWaitEvent(C.uintptr_t(ctx), C.uintptr_t(s), C.uintptr_t(e)))
}

func cuStreamQuery(ctx uintptr, s Stream) Result {
	return Result(C.gocccl_cuStreamQuery(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cuEventQuery(ctx uintptr, e Event) Result {
	return Result(C.gocccl_cuEventQuery(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cuStreamCreate(ctx uintptr, nonBlocking bool) (Stream, Result) {
	var flags C.uint = C.CU_STREAM_DEFAULT
	if nonBlocking {
		flags = C.CU_STREAM_NON_BLOCKING
	}
	var s C.uintptr_t
	r := C.gocccl_cuStreamCreate(C.uintptr_t(ctx), &s, flags)
	return Stream(s), Result(r)
}

func cuStreamDestroy(ctx uintptr, s Stream) Result {
	return Result(C.gocccl_cuStreamDestroy(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cuCtxSynchronize(ctx uintptr) Result {
	return Result(C.gocccl_cuCtxSynchronize(C.uintptr_t(ctx)))
}

func cuStreamSynchronize(ctx uintptr, s Stream) Result {
	return Result(C.gocccl_cuStreamSynchronize(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cuEventCreate(ctx uintptr, flags EventFlags) (Event, Result) {
	var e C.uintptr_t
	r := C.gocccl_cuEventCreate(C.uintptr_t(ctx), &e, C.uint(flags))
	return Event(e), Result(r)
}

func cuEventRecord(ctx uintptr, e Event, s Stream) Result {
	return Result(C.gocccl_cuEventRecord(C.uintptr_t(ctx), C.uintptr_t(e), C.uintptr_t(s)))
}

func cuEventSynchronize(ctx uintptr, e Event) Result {
	return Result(C.gocccl_cuEventSynchronize(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cuEventElapsedTime(ctx uintptr, start, end Event) (float32, Result) {
	var ms C.float
	r := C.gocccl_cuEventElapsedTime(C.uintptr_t(ctx), &ms, C.uintptr_t(start), C.uintptr_t(end))
	return float32(ms), Result(r)
}

func cuEventDestroy(ctx uintptr, e Event) Result {
	return Result(C.gocccl_cuEventDestroy(C.uintptr_t(ctx), C.uintptr_t(e)))
}

// cuModuleLoadDataEx loads image, which must be non-empty, with the JIT logs
// written into errLog and infoLog, which must be non-empty too.
func cuModuleLoadDataEx(ctx uintptr, image, errLog, infoLog []byte) (Module, Result) {
	var m C.uintptr_t
	r := C.gocccl_cuModuleLoadDataEx(C.uintptr_t(ctx), &m, unsafe.Pointer(&image[0]),
		(*C.char)(unsafe.Pointer(&errLog[0])), C.uint(len(errLog)),
		(*C.char)(unsafe.Pointer(&infoLog[0])), C.uint(len(infoLog)))
	return Module(m), Result(r)
}

func cuModuleUnload(ctx uintptr, m Module) Result {
	return Result(C.gocccl_cuModuleUnload(C.uintptr_t(ctx), C.uintptr_t(m)))
}

func cuModuleGetFunction(ctx uintptr, m Module, name string) (Function, Result) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.uintptr_t
	r := C.gocccl_cuModuleGetFunction(C.uintptr_t(ctx), &f, C.uintptr_t(m), cname)
	return Function(f), Result(r)
}

func cuOccupancyMaxActiveBlocksPerMultiprocessor(ctx uintptr, f Function, blockSize, dynamicSmemBytes int) (int, Result) {
	var n C.int
	r := C.gocccl_cuOccupancyMaxActiveBlocksPerMultiprocessor(C.uintptr_t(ctx), &n, C.uintptr_t(f),
		C.int(blockSize), C.size_t(dynamicSmemBytes))
	return int(n), Result(r)
}

// cuLaunchKernel launches f with the parameters in args[0:size]; args may be
// nil when size is 0.
func cuLaunchKernel(ctx uintptr, f Function, grid, block Dim3, sharedMemBytes int, s Stream, args unsafe.Pointer, size int) Result {
	return Result(C.gocccl_cuLaunchKernel(C.uintptr_t(ctx), C.uintptr_t(f),
		C.uint(grid.X), C.uint(grid.Y), C.uint(grid.Z),
		C.uint(block.X), C.uint(block.Y), C.uint(block.Z),
		C.uint(sharedMemBytes), C.uintptr_t(s), args, C.size_t(size)))
}

func cuStreamBeginCapture(ctx uintptr, s Stream, mode int) Result {
	return Result(C.gocccl_cuStreamBeginCapture(C.uintptr_t(ctx), C.uintptr_t(s), C.int(mode)))
}

func cuStreamEndCapture(ctx uintptr, s Stream) (Graph, Result) {
	var g C.uintptr_t
	r := C.gocccl_cuStreamEndCapture(C.uintptr_t(ctx), C.uintptr_t(s), &g)
	return Graph(g), Result(r)
}

func cuGraphInstantiate(ctx uintptr, g Graph) (GraphExec, Result) {
	var e C.uintptr_t
	r := C.gocccl_cuGraphInstantiate(C.uintptr_t(ctx), &e, C.uintptr_t(g))
	return GraphExec(e), Result(r)
}

func cuGraphLaunch(ctx uintptr, e GraphExec, s Stream) Result {
	return Result(C.gocccl_cuGraphLaunch(C.uintptr_t(ctx), C.uintptr_t(e), C.uintptr_t(s)))
}

func cuGraphExecDestroy(ctx uintptr, e GraphExec) Result {
	return Result(C.gocccl_cuGraphExecDestroy(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cuGraphDestroy(ctx uintptr, g Graph) Result {
	return Result(C.gocccl_cuGraphDestroy(C.uintptr_t(ctx), C.uintptr_t(g)))
}
