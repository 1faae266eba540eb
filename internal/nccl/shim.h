// shim.h: NCCL opened at run time with dlopen; nothing links -lnccl. The
// types are NCCL's own layouts (nccl.h), declared here so that no NCCL
// headers are needed to build. Communicators and streams cross to Go as
// uintptr_t, device buffers as unsigned long long (CUdeviceptr).
#ifndef GOCCCL_NCCL_SHIM_H
#define GOCCCL_NCCL_SHIM_H

#include <stddef.h>
#include <stdint.h>

enum {
	GOCCCL_NCCL_LOAD_OK = 0,
	GOCCCL_NCCL_LOAD_DLOPEN = 1,
	GOCCCL_NCCL_LOAD_DLSYM = 2,
};

// GOCCCL_NCCL_UNIQUE_ID_BYTES is NCCL_UNIQUE_ID_BYTES: the size of
// ncclUniqueId, which rank 0 makes and every rank passes to
// ncclCommInitRank.
#define GOCCCL_NCCL_UNIQUE_ID_BYTES 128

// gocccl_nccl_load opens the library at path and resolves its entry points;
// on failure it writes dlerror's text to msg.
int gocccl_nccl_load(const char *path, char *msg, size_t msglen);

// gocccl_ncclGetVersion is ncclGetVersion: 10000*major + 100*minor + patch
// (NCCL 2.9 and later).
int gocccl_ncclGetVersion(int *version);

// gocccl_ncclGetErrorString is ncclGetErrorString.
const char *gocccl_ncclGetErrorString(int result);

// Communicators. id points to GOCCCL_NCCL_UNIQUE_ID_BYTES bytes.
int gocccl_ncclGetUniqueId(unsigned char *id);
int gocccl_ncclCommInitRank(uintptr_t *comm, int nranks, const unsigned char *id, int rank);
int gocccl_ncclCommInitAll(uintptr_t *comms, int ndev, const int *devlist);
int gocccl_ncclCommDestroy(uintptr_t comm);
int gocccl_ncclCommAbort(uintptr_t comm);
int gocccl_ncclCommCount(uintptr_t comm, int *count);
int gocccl_ncclCommUserRank(uintptr_t comm, int *rank);
int gocccl_ncclCommCuDevice(uintptr_t comm, int *device);
int gocccl_ncclCommGetAsyncError(uintptr_t comm, int *result);

// Collectives and point-to-point calls, enqueued on stream.
int gocccl_ncclAllReduce(unsigned long long send, unsigned long long recv, size_t count, int datatype, int op, uintptr_t comm, uintptr_t stream);
int gocccl_ncclAllGather(unsigned long long send, unsigned long long recv, size_t count, int datatype, uintptr_t comm, uintptr_t stream);
int gocccl_ncclBroadcast(unsigned long long send, unsigned long long recv, size_t count, int datatype, int root, uintptr_t comm, uintptr_t stream);
int gocccl_ncclSend(unsigned long long buf, size_t count, int datatype, int peer, uintptr_t comm, uintptr_t stream);
int gocccl_ncclRecv(unsigned long long buf, size_t count, int datatype, int peer, uintptr_t comm, uintptr_t stream);
int gocccl_ncclGroupStart(void);
int gocccl_ncclGroupEnd(void);

#endif
