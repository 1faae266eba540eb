// shim.h declares the C side of package cuda: the few CUDA driver types and
// constants it needs (so that no CUDA toolkit is needed to build it) and the
// gocccl_* wrappers that Go calls.
//
// The driver is opened at run time with dlopen; nothing links -lcuda. Every
// wrapper that needs a context takes it and makes it current on the calling
// thread before the real call, inside the same C call: a goroutine's next cgo
// call may run on another OS thread.
//
// Handles (contexts, modules, functions, streams, events) cross the boundary
// as uintptr_t, so that Go never converts integers to pointers.

#ifndef GOCCCL_CUDA_SHIM_H
#define GOCCCL_CUDA_SHIM_H

#include <stddef.h>
#include <stdint.h>

// Driver types, with the layout of cuda.h.
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUjit_option;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef unsigned long long cuuint64_t;

// CUmemPoolProps as cuda.h declares it (CUDA 11.2 and later; later releases
// carve fields out of reserved without changing the size).
typedef struct {
	int allocType;
	int handleTypes;
	struct {
		int type;
		int id;
	} location;
	void *win32SecurityAttributes;
	unsigned char reserved[64];
} CUmemPoolProps;

enum {
	CU_MEM_ALLOCATION_TYPE_PINNED = 1,
	CU_MEM_HANDLE_TYPE_NONE = 0,
	CU_MEM_LOCATION_TYPE_DEVICE = 1,
	CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
};

// Constants, with their values in cuda.h.
enum {
	CUDA_SUCCESS = 0,

	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,

	CU_STREAM_DEFAULT = 0,
	CU_STREAM_NON_BLOCKING = 1,

	CU_EVENT_DEFAULT = 0,

	CU_MEMHOSTALLOC_PORTABLE = 0x01,
	CU_MEMHOSTREGISTER_PORTABLE = 0x01,

	CU_POINTER_ATTRIBUTE_CONTEXT = 1,
	CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
	CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
	CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
	CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
};

#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

// GOCCCL_MISSING_SYMBOL is returned instead of a CUresult when the driver
// lacks an optional entry point. No CUresult is negative.
#define GOCCCL_MISSING_SYMBOL (-1)

// gocccl_load opens the library at path and resolves every entry point. It
// returns 0 on success, GOCCCL_LOAD_DLOPEN if the library cannot be opened, or
// GOCCCL_LOAD_DLSYM if a required symbol is missing; on failure it writes the
// reason (dlerror's text) into msg and leaves the loaded driver, if any,
// untouched.
enum {
	GOCCCL_LOAD_OK = 0,
	GOCCCL_LOAD_DLOPEN = 1,
	GOCCCL_LOAD_DLSYM = 2,
};
int gocccl_load(const char *path, char *msg, size_t msglen);

// Calls that need no context.
CUresult gocccl_cuInit(void);
CUresult gocccl_cuDriverGetVersion(int *version);
CUresult gocccl_cuGetErrorName(CUresult code, const char **name);
CUresult gocccl_cuGetErrorString(CUresult code, const char **desc);
CUresult gocccl_cuDeviceGetCount(int *count);
CUresult gocccl_cuDeviceGet(CUdevice *dev, int ordinal);
CUresult gocccl_cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult gocccl_cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev);
CUresult gocccl_cuDeviceTotalMem(size_t *bytes, CUdevice dev);
CUresult gocccl_cuDevicePrimaryCtxRetain(uintptr_t *ctx, CUdevice dev);
CUresult gocccl_cuDevicePrimaryCtxRelease(CUdevice dev);

// gocccl_cuCtxSetCurrent makes ctx current on the calling thread and leaves
// it so, for a library (NCCL) that reads the current context.
CUresult gocccl_cuCtxSetCurrent(uintptr_t ctx);

// Calls that make ctx current first.
CUresult gocccl_cuMemAlloc(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes);
CUresult gocccl_cuMemFree(uintptr_t ctx, CUdeviceptr dptr);
CUresult gocccl_cuMemAllocAsync(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes, uintptr_t stream);
CUresult gocccl_cuMemFreeAsync(uintptr_t ctx, CUdeviceptr dptr, uintptr_t stream);
CUresult gocccl_cuMemPoolCreate(uintptr_t ctx, CUdevice dev, unsigned long long release_threshold, uintptr_t *pool);
CUresult gocccl_cuMemPoolDestroy(uintptr_t ctx, uintptr_t pool);
CUresult gocccl_cuMemPoolTrimTo(uintptr_t ctx, uintptr_t pool, size_t keep);
CUresult gocccl_cuMemPoolSetReleaseThreshold(uintptr_t ctx, uintptr_t pool, unsigned long long bytes);
CUresult gocccl_cuMemAllocFromPoolAsync(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes, uintptr_t pool, uintptr_t stream);
CUresult gocccl_cuMemGetInfo(uintptr_t ctx, size_t *free, size_t *total);
CUresult gocccl_cuMemcpyHtoD(uintptr_t ctx, CUdeviceptr dst, const void *src, size_t bytes);
CUresult gocccl_cuMemcpyDtoH(uintptr_t ctx, void *dst, CUdeviceptr src, size_t bytes);
CUresult gocccl_cuMemcpyDtoD(uintptr_t ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes);
CUresult gocccl_cuMemcpyDtoDAsync(uintptr_t ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes, uintptr_t stream);
CUresult gocccl_cuMemsetD8(uintptr_t ctx, CUdeviceptr dst, unsigned char value, size_t n);
CUresult gocccl_cuMemcpyHtoDAsync(uintptr_t ctx, CUdeviceptr dst, const void *src, size_t bytes, uintptr_t stream);
CUresult gocccl_cuMemcpyDtoHAsync(uintptr_t ctx, void *dst, CUdeviceptr src, size_t bytes, uintptr_t stream);
// gocccl_cuMemsetAsync is cuMemsetD8Async, cuMemsetD16Async or
// cuMemsetD32Async by width (1, 2 or 4 bytes): n elements of that width.
CUresult gocccl_cuMemsetAsync(uintptr_t ctx, CUdeviceptr dst, unsigned int value, int width, size_t n, uintptr_t stream);

// Page-locked host memory. Pointers are host addresses: memory the driver
// allocated (cuMemHostAlloc) or memory the caller keeps alive (register).
CUresult gocccl_cuMemHostAlloc(uintptr_t ctx, void **p, size_t bytes, unsigned int flags);
CUresult gocccl_cuMemFreeHost(uintptr_t ctx, void *p);
CUresult gocccl_cuMemHostRegister(uintptr_t ctx, void *p, size_t bytes, unsigned int flags);
CUresult gocccl_cuMemHostUnregister(uintptr_t ctx, void *p);

// gocccl_cuPointerGetAttribute reads one attribute of ptr, widened to 64
// bits whatever its size in cuda.h (an int or a pointer).
CUresult gocccl_cuPointerGetAttribute(uintptr_t ctx, unsigned long long *value, int attribute, CUdeviceptr ptr);
// gocccl_cuCtxGetDevice returns the device of ctx.
CUresult gocccl_cuCtxGetDevice(uintptr_t ctx, CUdevice *dev);

CUresult gocccl_cuStreamCreate(uintptr_t ctx, uintptr_t *stream, unsigned int flags);
CUresult gocccl_cuStreamDestroy(uintptr_t ctx, uintptr_t stream);
CUresult gocccl_cuCtxSynchronize(uintptr_t ctx);
CUresult gocccl_cuStreamSynchronize(uintptr_t ctx, uintptr_t stream);
CUresult gocccl_cuStreamWaitEvent(uintptr_t ctx, uintptr_t stream, uintptr_t event);
CUresult gocccl_cuStreamQuery(uintptr_t ctx, uintptr_t stream);
CUresult gocccl_cuEventQuery(uintptr_t ctx, uintptr_t event);

CUresult gocccl_cuEventCreate(uintptr_t ctx, uintptr_t *event, unsigned int flags);
CUresult gocccl_cuEventRecord(uintptr_t ctx, uintptr_t event, uintptr_t stream);
CUresult gocccl_cuEventSynchronize(uintptr_t ctx, uintptr_t event);
CUresult gocccl_cuEventElapsedTime(uintptr_t ctx, float *ms, uintptr_t start, uintptr_t end);
CUresult gocccl_cuEventDestroy(uintptr_t ctx, uintptr_t event);

// gocccl_cuModuleLoadDataEx loads image with the JIT error and info logs
// directed into errlog and infolog, whose sizes must be at least 1; both are
// NUL-terminated on return.
CUresult gocccl_cuModuleLoadDataEx(uintptr_t ctx, uintptr_t *module, const void *image,
	char *errlog, unsigned int errlogsize, char *infolog, unsigned int infologsize);
CUresult gocccl_cuModuleUnload(uintptr_t ctx, uintptr_t module);
CUresult gocccl_cuModuleGetFunction(uintptr_t ctx, uintptr_t *function, uintptr_t module, const char *name);
CUresult gocccl_cuOccupancyMaxActiveBlocksPerMultiprocessor(uintptr_t ctx, int *blocks,
	uintptr_t function, int blockSize, size_t dynamicSmemBytes);

// gocccl_cuLaunchKernel launches function with its parameters packed in
// args[0:size] (C layout, no tail padding); size 0 means no parameters.
CUresult gocccl_cuLaunchKernel(uintptr_t ctx, uintptr_t function,
	unsigned int gridX, unsigned int gridY, unsigned int gridZ,
	unsigned int blockX, unsigned int blockY, unsigned int blockZ,
	unsigned int sharedMemBytes, uintptr_t stream, void *args, size_t size);

// Stream capture (mode: 0 global, 1 thread-local, 2 relaxed) and graphs.
// Each returns GOCCCL_MISSING_SYMBOL when the driver lacks the call.
CUresult gocccl_cuStreamBeginCapture(uintptr_t ctx, uintptr_t stream, int mode);
CUresult gocccl_cuStreamEndCapture(uintptr_t ctx, uintptr_t stream, uintptr_t *graph);
CUresult gocccl_cuGraphInstantiate(uintptr_t ctx, uintptr_t *exec, uintptr_t graph);
CUresult gocccl_cuGraphLaunch(uintptr_t ctx, uintptr_t exec, uintptr_t stream);
CUresult gocccl_cuGraphExecDestroy(uintptr_t ctx, uintptr_t exec);
CUresult gocccl_cuGraphDestroy(uintptr_t ctx, uintptr_t graph);

#endif
