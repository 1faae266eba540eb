//go:build cgo

// shim.c opens the CUDA driver with dlopen and forwards each gocccl_* call
// to it. See shim.h.

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

// driver holds the entry points; each field is named for the API call and
// points at the symbol listed for it in symbols below.
struct driver {
	CUresult (*cuInit)(unsigned int);
	CUresult (*cuDriverGetVersion)(int *);
	CUresult (*cuGetErrorName)(CUresult, const char **);
	CUresult (*cuGetErrorString)(CUresult, const char **);
	CUresult (*cuDeviceGetCount)(int *);
	CUresult (*cuDeviceGet)(CUdevice *, int);
	CUresult (*cuDeviceGetName)(char *, int, CUdevice);
	CUresult (*cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
	CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
	CUresult (*cuCtxSetCurrent)(CUcontext);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
	CUresult (*cuMemFree)(CUdeviceptr);
	CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
	CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
	CUresult (*cuMemPoolCreate)(CUmemoryPool *, const CUmemPoolProps *);
	CUresult (*cuMemPoolDestroy)(CUmemoryPool);
	CUresult (*cuMemPoolTrimTo)(CUmemoryPool, size_t);
	CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
	CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *, size_t, CUmemoryPool, CUstream);
	CUresult (*cuMemGetInfo)(size_t *, size_t *);
	CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
	CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
	CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
	CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
	CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
	CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
	CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream);
	CUresult (*cuMemHostAlloc)(void **, size_t, unsigned int);
	CUresult (*cuMemFreeHost)(void *);
	CUresult (*cuMemHostRegister)(void *, size_t, unsigned int);
	CUresult (*cuMemHostUnregister)(void *);
	CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
	CUresult (*cuCtxGetDevice)(CUdevice *);
	CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned int);
	CUresult (*cuStreamQuery)(CUstream);
	CUresult (*cuEventQuery)(CUevent);
	CUresult (*cuStreamCreate)(CUstream *, unsigned int);
	CUresult (*cuStreamDestroy)(CUstream);
	CUresult (*cuStreamSynchronize)(CUstream);
	CUresult (*cuEventCreate)(CUevent *, unsigned int);
	CUresult (*cuEventRecord)(CUevent, CUstream);
	CUresult (*cuEventSynchronize)(CUevent);
	CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
	CUresult (*cuEventDestroy)(CUevent);
	CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned int, CUjit_option *, void **);
	CUresult (*cuModuleUnload)(CUmodule);
	CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
	CUresult (*cuLaunchKernel)(CUfunction, unsigned int, unsigned int, unsigned int,
		unsigned int, unsigned int, unsigned int, unsigned int, CUstream, void **, void **);
	CUresult (*cuStreamBeginCapture)(CUstream, int);
	CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
	CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long);
	CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
	CUresult (*cuGraphExecDestroy)(CUgraphExec);
	CUresult (*cuGraphDestroy)(CUgraph);
};

// symbols maps each field of struct driver to the versioned symbol that
// cuda.h binds the call to (its #define cuX cuX_v2 lines).
static const struct {
	const char *name;
	size_t offset;
	int optional; // absent before CUDA 11.2: reported when called
} symbols[] = {
#define SYM(field, name) {name, offsetof(struct driver, field), 0}
#define OPT(field, name) {name, offsetof(struct driver, field), 1}
	SYM(cuInit, "cuInit"),
	SYM(cuDriverGetVersion, "cuDriverGetVersion"),
	SYM(cuGetErrorName, "cuGetErrorName"),
	SYM(cuGetErrorString, "cuGetErrorString"),
	SYM(cuDeviceGetCount, "cuDeviceGetCount"),
	SYM(cuDeviceGet, "cuDeviceGet"),
	SYM(cuDeviceGetName, "cuDeviceGetName"),
	SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
	SYM(cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
	SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	SYM(cuCtxSetCurrent, "cuCtxSetCurrent"),
	SYM(cuCtxSynchronize, "cuCtxSynchronize"),
	SYM(cuMemAlloc, "cuMemAlloc_v2"),
	SYM(cuMemFree, "cuMemFree_v2"),
	OPT(cuMemAllocAsync, "cuMemAllocAsync"),
	OPT(cuMemFreeAsync, "cuMemFreeAsync"),
	OPT(cuMemPoolCreate, "cuMemPoolCreate"),
	OPT(cuMemPoolDestroy, "cuMemPoolDestroy"),
	OPT(cuMemPoolTrimTo, "cuMemPoolTrimTo"),
	OPT(cuMemPoolSetAttribute, "cuMemPoolSetAttribute"),
	OPT(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync"),
	SYM(cuMemGetInfo, "cuMemGetInfo_v2"),
	SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
	SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
	SYM(cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
	SYM(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
	SYM(cuMemsetD8, "cuMemsetD8_v2"),
	SYM(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
	SYM(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
	SYM(cuMemsetD8Async, "cuMemsetD8Async"),
	SYM(cuMemsetD16Async, "cuMemsetD16Async"),
	SYM(cuMemsetD32Async, "cuMemsetD32Async"),
	SYM(cuMemHostAlloc, "cuMemHostAlloc"),
	SYM(cuMemFreeHost, "cuMemFreeHost"),
	SYM(cuMemHostRegister, "cuMemHostRegister_v2"),
	SYM(cuMemHostUnregister, "cuMemHostUnregister"),
	SYM(cuPointerGetAttribute, "cuPointerGetAttribute"),
	SYM(cuCtxGetDevice, "cuCtxGetDevice"),
	SYM(cuStreamWaitEvent, "cuStreamWaitEvent"),
	SYM(cuStreamQuery, "cuStreamQuery"),
	SYM(cuEventQuery, "cuEventQuery"),
	SYM(cuStreamCreate, "cuStreamCreate"),
	SYM(cuStreamDestroy, "cuStreamDestroy_v2"),
	SYM(cuStreamSynchronize, "cuStreamSynchronize"),
	SYM(cuEventCreate, "cuEventCreate"),
	SYM(cuEventRecord, "cuEventRecord"),
	SYM(cuEventSynchronize, "cuEventSynchronize"),
	SYM(cuEventElapsedTime, "cuEventElapsedTime"),
	SYM(cuEventDestroy, "cuEventDestroy_v2"),
	SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx"),
	SYM(cuModuleUnload, "cuModuleUnload"),
	SYM(cuModuleGetFunction, "cuModuleGetFunction"),
	SYM(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
	SYM(cuLaunchKernel, "cuLaunchKernel"),
	OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2"),
	OPT(cuStreamEndCapture, "cuStreamEndCapture"),
	OPT(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"),
	OPT(cuGraphLaunch, "cuGraphLaunch"),
	OPT(cuGraphExecDestroy, "cuGraphExecDestroy"),
	OPT(cuGraphDestroy, "cuGraphDestroy"),
#undef SYM
#undef OPT
};

// drv is written once, by a successful gocccl_load, before Go makes any other
// call (Go orders them with a sync.Once).
static struct driver drv;

int gocccl_load(const char *path, char *msg, size_t msglen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(msg, msglen, "%s", dlerror());
		return GOCCCL_LOAD_DLOPEN;
	}
	struct driver d;
	memset(&d, 0, sizeof d);
	for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
		dlerror();
		void *p = dlsym(lib, symbols[i].name);
		if (p == NULL && !symbols[i].optional) {
			const char *err = dlerror();
			snprintf(msg, msglen, "%s", err != NULL ? err : symbols[i].name);
			dlclose(lib);
			return GOCCCL_LOAD_DLSYM;
		}
		memcpy((char *)&d + symbols[i].offset, &p, sizeof p);
	}
	drv = d; // the library stays open for the life of the process
	return GOCCCL_LOAD_OK;
}

// current makes ctx current on the calling thread.
static CUresult current(uintptr_t ctx) {
	return drv.cuCtxSetCurrent((CUcontext)ctx);
}

CUresult gocccl_cuCtxSetCurrent(uintptr_t ctx) {
	return current(ctx);
}

CUresult gocccl_cuInit(void) {
	return drv.cuInit(0);
}

CUresult gocccl_cuDriverGetVersion(int *version) {
	return drv.cuDriverGetVersion(version);
}

CUresult gocccl_cuGetErrorName(CUresult code, const char **name) {
	return drv.cuGetErrorName(code, name);
}

CUresult gocccl_cuGetErrorString(CUresult code, const char **desc) {
	return drv.cuGetErrorString(code, desc);
}

CUresult gocccl_cuDeviceGetCount(int *count) {
	return drv.cuDeviceGetCount(count);
}

CUresult gocccl_cuDeviceGet(CUdevice *dev, int ordinal) {
	return drv.cuDeviceGet(dev, ordinal);
}

CUresult gocccl_cuDeviceGetName(char *name, int len, CUdevice dev) {
	return drv.cuDeviceGetName(name, len, dev);
}

CUresult gocccl_cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev) {
	return drv.cuDeviceGetAttribute(value, attr, dev);
}

CUresult gocccl_cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
	return drv.cuDeviceTotalMem(bytes, dev);
}

CUresult gocccl_cuDevicePrimaryCtxRetain(uintptr_t *ctx, CUdevice dev) {
	CUcontext c = NULL;
	CUresult r = drv.cuDevicePrimaryCtxRetain(&c, dev);
	*ctx = (uintptr_t)c;
	return r;
}

CUresult gocccl_cuDevicePrimaryCtxRelease(CUdevice dev) {
	return drv.cuDevicePrimaryCtxRelease(dev);
}

CUresult gocccl_cuMemAlloc(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemAlloc(dptr, bytes);
}

CUresult gocccl_cuMemFree(uintptr_t ctx, CUdeviceptr dptr) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemFree(dptr);
}

CUresult gocccl_cuMemAllocAsync(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes, uintptr_t stream) {
	if (drv.cuMemAllocAsync == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemAllocAsync(dptr, bytes, (CUstream)stream);
}

CUresult gocccl_cuMemFreeAsync(uintptr_t ctx, CUdeviceptr dptr, uintptr_t stream) {
	if (drv.cuMemFreeAsync == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemFreeAsync(dptr, (CUstream)stream);
}

CUresult gocccl_cuMemPoolCreate(uintptr_t ctx, CUdevice dev, unsigned long long release_threshold, uintptr_t *pool) {
	if (drv.cuMemPoolCreate == NULL || drv.cuMemPoolDestroy == NULL || drv.cuMemPoolSetAttribute == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	CUmemPoolProps props;
	memset(&props, 0, sizeof props);
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = dev;
	CUmemoryPool p = NULL;
	r = drv.cuMemPoolCreate(&p, &props);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	cuuint64_t threshold = release_threshold;
	r = drv.cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
	if (r != CUDA_SUCCESS) {
		drv.cuMemPoolDestroy(p);
		return r;
	}
	*pool = (uintptr_t)p;
	return CUDA_SUCCESS;
}

CUresult gocccl_cuMemPoolDestroy(uintptr_t ctx, uintptr_t pool) {
	if (drv.cuMemPoolDestroy == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemPoolDestroy((CUmemoryPool)pool);
}

CUresult gocccl_cuMemPoolSetReleaseThreshold(uintptr_t ctx, uintptr_t pool, unsigned long long bytes) {
	if (drv.cuMemPoolSetAttribute == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	cuuint64_t threshold = bytes;
	return drv.cuMemPoolSetAttribute((CUmemoryPool)pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
}

CUresult gocccl_cuMemPoolTrimTo(uintptr_t ctx, uintptr_t pool, size_t keep) {
	if (drv.cuMemPoolTrimTo == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemPoolTrimTo((CUmemoryPool)pool, keep);
}

CUresult gocccl_cuMemAllocFromPoolAsync(uintptr_t ctx, CUdeviceptr *dptr, size_t bytes, uintptr_t pool, uintptr_t stream) {
	if (drv.cuMemAllocFromPoolAsync == NULL) {
		return GOCCCL_MISSING_SYMBOL;
	}
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemAllocFromPoolAsync(dptr, bytes, (CUmemoryPool)pool, (CUstream)stream);
}

CUresult gocccl_cuMemGetInfo(uintptr_t ctx, size_t *free, size_t *total) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemGetInfo(free, total);
}

CUresult gocccl_cuMemcpyHtoD(uintptr_t ctx, CUdeviceptr dst, const void *src, size_t bytes) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyHtoD(dst, src, bytes);
}

CUresult gocccl_cuMemcpyDtoH(uintptr_t ctx, void *dst, CUdeviceptr src, size_t bytes) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyDtoH(dst, src, bytes);
}

CUresult gocccl_cuMemcpyDtoD(uintptr_t ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyDtoD(dst, src, bytes);
}

CUresult gocccl_cuMemcpyDtoDAsync(uintptr_t ctx, CUdeviceptr dst, CUdeviceptr src, size_t bytes, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyDtoDAsync(dst, src, bytes, (CUstream)stream);
}

CUresult gocccl_cuMemsetD8(uintptr_t ctx, CUdeviceptr dst, unsigned char value, size_t n) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemsetD8(dst, value, n);
}

CUresult gocccl_cuMemcpyHtoDAsync(uintptr_t ctx, CUdeviceptr dst, const void *src, size_t bytes, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyHtoDAsync(dst, src, bytes, (CUstream)stream);
}

CUresult gocccl_cuMemcpyDtoHAsync(uintptr_t ctx, void *dst, CUdeviceptr src, size_t bytes, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemcpyDtoHAsync(dst, src, bytes, (CUstream)stream);
}

CUresult gocccl_cuMemsetAsync(uintptr_t ctx, CUdeviceptr dst, unsigned int value, int width, size_t n, uintptr_t stream) {
	CUresult r = current(ctx);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	switch (width) {
	case 1:
		return drv.cuMemsetD8Async(dst, (unsigned char)value, n, (CUstream)stream);
	case 2:
		return drv.cuMemsetD16Async(dst, (unsigned short)value, n, (CUstream)stream);
	default:
		return drv.cuMemsetD32Async(dst, value, n, (CUstream)stream);
	}
}

CUresult gocccl_cuMemHostAlloc(uintptr_t ctx, void **p, size_t bytes, unsigned int flags) {
	*p = NULL;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemHostAlloc(p, bytes, flags);
}

CUresult gocccl_cuMemFreeHost(uintptr_t ctx, void *p) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemFreeHost(p);
}

CUresult gocccl_cuMemHostRegister(uintptr_t ctx, void *p, size_t bytes, unsigned int flags) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemHostRegister(p, bytes, flags);
}

CUresult gocccl_cuMemHostUnregister(uintptr_t ctx, void *p) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuMemHostUnregister(p);
}

CUresult gocccl_cuPointerGetAttribute(uintptr_t ctx, unsigned long long *value, int attribute, CUdeviceptr ptr) {
	*value = 0;
	CUresult r = current(ctx);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	switch (attribute) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE: { // pointer-sized results
		uintptr_t v = 0;
		r = drv.cuPointerGetAttribute(&v, attribute, ptr);
		*value = v;
		return r;
	}
	default: { // int-sized results (memory type, device ordinal)
		int v = 0;
		r = drv.cuPointerGetAttribute(&v, attribute, ptr);
		*value = (unsigned long long)(unsigned int)v;
		return r;
	}
	}
}

CUresult gocccl_cuCtxGetDevice(uintptr_t ctx, CUdevice *dev) {
	*dev = 0;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuCtxGetDevice(dev);
}

CUresult gocccl_cuStreamWaitEvent(uintptr_t ctx, uintptr_t stream, uintptr_t event) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuStreamWaitEvent((CUstream)stream, (CUevent)event, 0);
}

CUresult gocccl_cuStreamQuery(uintptr_t ctx, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuStreamQuery((CUstream)stream);
}

CUresult gocccl_cuEventQuery(uintptr_t ctx, uintptr_t event) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuEventQuery((CUevent)event);
}

CUresult gocccl_cuStreamCreate(uintptr_t ctx, uintptr_t *stream, unsigned int flags) {
	CUstream s = NULL;
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuStreamCreate(&s, flags);
	}
	*stream = (uintptr_t)s;
	return r;
}

CUresult gocccl_cuStreamDestroy(uintptr_t ctx, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuStreamDestroy((CUstream)stream);
}

CUresult gocccl_cuCtxSynchronize(uintptr_t ctx) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuCtxSynchronize();
}

CUresult gocccl_cuStreamSynchronize(uintptr_t ctx, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuStreamSynchronize((CUstream)stream);
}

CUresult gocccl_cuEventCreate(uintptr_t ctx, uintptr_t *event, unsigned int flags) {
	CUevent e = NULL;
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuEventCreate(&e, flags);
	}
	*event = (uintptr_t)e;
	return r;
}

CUresult gocccl_cuEventRecord(uintptr_t ctx, uintptr_t event, uintptr_t stream) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuEventRecord((CUevent)event, (CUstream)stream);
}

CUresult gocccl_cuEventSynchronize(uintptr_t ctx, uintptr_t event) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuEventSynchronize((CUevent)event);
}

CUresult gocccl_cuEventElapsedTime(uintptr_t ctx, float *ms, uintptr_t start, uintptr_t end) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuEventElapsedTime(ms, (CUevent)start, (CUevent)end);
}

CUresult gocccl_cuEventDestroy(uintptr_t ctx, uintptr_t event) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuEventDestroy((CUevent)event);
}

CUresult gocccl_cuModuleLoadDataEx(uintptr_t ctx, uintptr_t *module, const void *image,
	char *errlog, unsigned int errlogsize, char *infolog, unsigned int infologsize) {
	CUjit_option options[] = {
		CU_JIT_ERROR_LOG_BUFFER,
		CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_INFO_LOG_BUFFER,
		CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
	};
	// Sizes are passed by value, cast to a pointer, as cuda.h specifies.
	void *values[] = {
		errlog,
		(void *)(uintptr_t)errlogsize,
		infolog,
		(void *)(uintptr_t)infologsize,
	};
	CUmodule m = NULL;
	errlog[0] = '\0';
	infolog[0] = '\0';
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuModuleLoadDataEx(&m, image, sizeof options / sizeof options[0], options, values);
	}
	errlog[errlogsize - 1] = '\0';
	infolog[infologsize - 1] = '\0';
	*module = (uintptr_t)m;
	return r;
}

CUresult gocccl_cuModuleUnload(uintptr_t ctx, uintptr_t module) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuModuleUnload((CUmodule)module);
}

CUresult gocccl_cuModuleGetFunction(uintptr_t ctx, uintptr_t *function, uintptr_t module, const char *name) {
	CUfunction f = NULL;
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuModuleGetFunction(&f, (CUmodule)module, name);
	}
	*function = (uintptr_t)f;
	return r;
}

CUresult gocccl_cuOccupancyMaxActiveBlocksPerMultiprocessor(uintptr_t ctx, int *blocks,
	uintptr_t function, int blockSize, size_t dynamicSmemBytes) {
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(
		blocks, (CUfunction)function, blockSize, dynamicSmemBytes);
}

CUresult gocccl_cuLaunchKernel(uintptr_t ctx, uintptr_t function,
	unsigned int gridX, unsigned int gridY, unsigned int gridZ,
	unsigned int blockX, unsigned int blockY, unsigned int blockZ,
	unsigned int sharedMemBytes, uintptr_t stream, void *args, size_t size) {
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, args,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuLaunchKernel((CUfunction)function,
		gridX, gridY, gridZ, blockX, blockY, blockZ,
		sharedMemBytes, (CUstream)stream, NULL, size > 0 ? extra : NULL);
}

// Stream capture and graphs (CUDA 11.4 and newer; optional symbols).

CUresult gocccl_cuStreamBeginCapture(uintptr_t ctx, uintptr_t stream, int mode) {
	if (drv.cuStreamBeginCapture == NULL) return GOCCCL_MISSING_SYMBOL;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuStreamBeginCapture((CUstream)stream, mode);
}

CUresult gocccl_cuStreamEndCapture(uintptr_t ctx, uintptr_t stream, uintptr_t *graph) {
	if (drv.cuStreamEndCapture == NULL) return GOCCCL_MISSING_SYMBOL;
	CUgraph g = NULL;
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuStreamEndCapture((CUstream)stream, &g);
	}
	*graph = (uintptr_t)g;
	return r;
}

CUresult gocccl_cuGraphInstantiate(uintptr_t ctx, uintptr_t *exec, uintptr_t graph) {
	if (drv.cuGraphInstantiateWithFlags == NULL) return GOCCCL_MISSING_SYMBOL;
	CUgraphExec e = NULL;
	CUresult r = current(ctx);
	if (r == CUDA_SUCCESS) {
		r = drv.cuGraphInstantiateWithFlags(&e, (CUgraph)graph, 0);
	}
	*exec = (uintptr_t)e;
	return r;
}

CUresult gocccl_cuGraphLaunch(uintptr_t ctx, uintptr_t exec, uintptr_t stream) {
	if (drv.cuGraphLaunch == NULL) return GOCCCL_MISSING_SYMBOL;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuGraphLaunch((CUgraphExec)exec, (CUstream)stream);
}

CUresult gocccl_cuGraphExecDestroy(uintptr_t ctx, uintptr_t exec) {
	if (drv.cuGraphExecDestroy == NULL) return GOCCCL_MISSING_SYMBOL;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuGraphExecDestroy((CUgraphExec)exec);
}

CUresult gocccl_cuGraphDestroy(uintptr_t ctx, uintptr_t graph) {
	if (drv.cuGraphDestroy == NULL) return GOCCCL_MISSING_SYMBOL;
	CUresult r = current(ctx);
	return r != CUDA_SUCCESS ? r : drv.cuGraphDestroy((CUgraph)graph);
}
