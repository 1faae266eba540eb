// shim.c opens NCCL with dlopen and forwards each gocccl_nccl* call to it.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

// ncclUniqueId as nccl.h declares it, passed by value.
typedef struct {
	char internal[GOCCCL_NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

typedef struct ncclComm *ncclComm_t;
typedef struct CUstream_st *cudaStream_t;

// nccl holds the entry points; each field is named for the call and
// resolved from the symbol of that name.
static struct {
	int (*ncclGetVersion)(int *);
	const char *(*ncclGetErrorString)(int);
	int (*ncclGetUniqueId)(ncclUniqueId *);
	int (*ncclCommInitRank)(ncclComm_t *, int, ncclUniqueId, int);
	int (*ncclCommInitAll)(ncclComm_t *, int, const int *);
	int (*ncclCommDestroy)(ncclComm_t);
	int (*ncclCommAbort)(ncclComm_t);
	int (*ncclCommCount)(const ncclComm_t, int *);
	int (*ncclCommUserRank)(const ncclComm_t, int *);
	int (*ncclCommCuDevice)(const ncclComm_t, int *);
	int (*ncclCommGetAsyncError)(ncclComm_t, int *);
	int (*ncclAllReduce)(const void *, void *, size_t, int, int, ncclComm_t, cudaStream_t);
	int (*ncclAllGather)(const void *, void *, size_t, int, ncclComm_t, cudaStream_t);
	int (*ncclBroadcast)(const void *, void *, size_t, int, int, ncclComm_t, cudaStream_t);
	int (*ncclSend)(const void *, size_t, int, int, ncclComm_t, cudaStream_t);
	int (*ncclRecv)(void *, size_t, int, int, ncclComm_t, cudaStream_t);
	int (*ncclGroupStart)(void);
	int (*ncclGroupEnd)(void);
} nccl;

#define SYM(name) {#name, (void **)&loaded.name}

int gocccl_nccl_load(const char *path, char *msg, size_t msglen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(msg, msglen, "%s", dlerror());
		return GOCCCL_NCCL_LOAD_DLOPEN;
	}
	typeof(nccl) loaded;
	memset(&loaded, 0, sizeof loaded);
	const struct {
		const char *name;
		void **slot;
	} symbols[] = {
		SYM(ncclGetVersion), SYM(ncclGetErrorString), SYM(ncclGetUniqueId), SYM(ncclCommInitRank),
		SYM(ncclCommInitAll), SYM(ncclCommDestroy), SYM(ncclCommAbort), SYM(ncclCommCount),
		SYM(ncclCommUserRank), SYM(ncclCommCuDevice), SYM(ncclCommGetAsyncError), SYM(ncclAllReduce),
		SYM(ncclAllGather), SYM(ncclBroadcast), SYM(ncclSend), SYM(ncclRecv), SYM(ncclGroupStart),
		SYM(ncclGroupEnd),
	};
	for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
		void *p = dlsym(lib, symbols[i].name);
		if (p == NULL) {
			snprintf(msg, msglen, "%s: no %s", path, symbols[i].name);
			dlclose(lib);
			return GOCCCL_NCCL_LOAD_DLSYM;
		}
		memcpy(symbols[i].slot, &p, sizeof p);
	}
	nccl = loaded;
	return GOCCCL_NCCL_LOAD_OK; // the library stays open for the life of the process
}

int gocccl_ncclGetVersion(int *version) { return nccl.ncclGetVersion(version); }

const char *gocccl_ncclGetErrorString(int result) { return nccl.ncclGetErrorString(result); }

int gocccl_ncclGetUniqueId(unsigned char *id) {
	ncclUniqueId u;
	int r = nccl.ncclGetUniqueId(&u);
	memcpy(id, u.internal, sizeof u.internal);
	return r;
}

int gocccl_ncclCommInitRank(uintptr_t *comm, int nranks, const unsigned char *id, int rank) {
	ncclUniqueId u;
	memcpy(u.internal, id, sizeof u.internal);
	ncclComm_t c = NULL;
	int r = nccl.ncclCommInitRank(&c, nranks, u, rank);
	*comm = (uintptr_t)c;
	return r;
}

int gocccl_ncclCommInitAll(uintptr_t *comms, int ndev, const int *devlist) {
	// ncclComm_t and uintptr_t have one size; fill a temporary all the same.
	ncclComm_t cs[ndev > 0 ? ndev : 1];
	int r = nccl.ncclCommInitAll(cs, ndev, devlist);
	for (int i = 0; i < ndev; i++) {
		comms[i] = r == 0 ? (uintptr_t)cs[i] : 0;
	}
	return r;
}

int gocccl_ncclCommDestroy(uintptr_t comm) { return nccl.ncclCommDestroy((ncclComm_t)comm); }
int gocccl_ncclCommAbort(uintptr_t comm) { return nccl.ncclCommAbort((ncclComm_t)comm); }
int gocccl_ncclCommCount(uintptr_t comm, int *count) { return nccl.ncclCommCount((ncclComm_t)comm, count); }
int gocccl_ncclCommUserRank(uintptr_t comm, int *rank) { return nccl.ncclCommUserRank((ncclComm_t)comm, rank); }
int gocccl_ncclCommCuDevice(uintptr_t comm, int *device) { return nccl.ncclCommCuDevice((ncclComm_t)comm, device); }
int gocccl_ncclCommGetAsyncError(uintptr_t comm, int *result) { return nccl.ncclCommGetAsyncError((ncclComm_t)comm, result); }

int gocccl_ncclAllReduce(unsigned long long send, unsigned long long recv, size_t count, int datatype, int op, uintptr_t comm, uintptr_t stream) {
	return nccl.ncclAllReduce((const void *)(uintptr_t)send, (void *)(uintptr_t)recv, count, datatype, op, (ncclComm_t)comm, (cudaStream_t)stream);
}

int gocccl_ncclAllGather(unsigned long long send, unsigned long long recv, size_t count, int datatype, uintptr_t comm, uintptr_t stream) {
	return nccl.ncclAllGather((const void *)(uintptr_t)send, (void *)(uintptr_t)recv, count, datatype, (ncclComm_t)comm, (cudaStream_t)stream);
}

int gocccl_ncclBroadcast(unsigned long long send, unsigned long long recv, size_t count, int datatype, int root, uintptr_t comm, uintptr_t stream) {
	return nccl.ncclBroadcast((const void *)(uintptr_t)send, (void *)(uintptr_t)recv, count, datatype, root, (ncclComm_t)comm, (cudaStream_t)stream);
}

int gocccl_ncclSend(unsigned long long buf, size_t count, int datatype, int peer, uintptr_t comm, uintptr_t stream) {
	return nccl.ncclSend((const void *)(uintptr_t)buf, count, datatype, peer, (ncclComm_t)comm, (cudaStream_t)stream);
}

int gocccl_ncclRecv(unsigned long long buf, size_t count, int datatype, int peer, uintptr_t comm, uintptr_t stream) {
	return nccl.ncclRecv((void *)(uintptr_t)buf, count, datatype, peer, (ncclComm_t)comm, (cudaStream_t)stream);
}

int gocccl_ncclGroupStart(void) { return nccl.ncclGroupStart(); }
int gocccl_ncclGroupEnd(void) { return nccl.ncclGroupEnd(); }
