// shim.h: NCCL opened at run time with dlopen; nothing links -lnccl. This
// version resolves what the group runtime needs to find and identify NCCL;
// the collectives follow with the multi-GPU runs (docs/MULTIGPU.md).
#ifndef GOCCCL_NCCL_SHIM_H
#define GOCCCL_NCCL_SHIM_H

#include <stddef.h>

enum {
	GOCCCL_NCCL_LOAD_OK = 0,
	GOCCCL_NCCL_LOAD_DLOPEN = 1,
	GOCCCL_NCCL_LOAD_DLSYM = 2,
};

// gocccl_nccl_load opens the library at path and resolves its entry points;
// on failure it writes dlerror's text to msg.
int gocccl_nccl_load(const char *path, char *msg, size_t msglen);

// gocccl_ncclGetVersion is ncclGetVersion: 10000*major + 100*minor + patch
// (NCCL 2.9 and later).
int gocccl_ncclGetVersion(int *version);

// gocccl_ncclGetErrorString is ncclGetErrorString.
const char *gocccl_ncclGetErrorString(int result);

#endif
