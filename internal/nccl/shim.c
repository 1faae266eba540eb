// shim.c opens NCCL with dlopen and forwards each gocccl_nccl* call to it.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

static struct {
	int (*ncclGetVersion)(int *);
	const char *(*ncclGetErrorString)(int);
} nccl;

int gocccl_nccl_load(const char *path, char *msg, size_t msglen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(msg, msglen, "%s", dlerror());
		return GOCCCL_NCCL_LOAD_DLOPEN;
	}
	void *v = dlsym(lib, "ncclGetVersion");
	void *e = dlsym(lib, "ncclGetErrorString");
	if (v == NULL || e == NULL) {
		snprintf(msg, msglen, "%s: no %s", path, v == NULL ? "ncclGetVersion" : "ncclGetErrorString");
		dlclose(lib);
		return GOCCCL_NCCL_LOAD_DLSYM;
	}
	memcpy(&nccl.ncclGetVersion, &v, sizeof v);
	memcpy(&nccl.ncclGetErrorString, &e, sizeof e);
	return GOCCCL_NCCL_LOAD_OK; // the library stays open for the life of the process
}

int gocccl_ncclGetVersion(int *version) { return nccl.ncclGetVersion(version); }

const char *gocccl_ncclGetErrorString(int result) { return nccl.ncclGetErrorString(result); }
