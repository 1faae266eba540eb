//go:build cgo

#include <stdlib.h>

#include "dlpack.h"
#include "_cgo_export.h"

static void gocccl_dlpack_deleter(DLManagedTensor *self) {
	goccclDLPackRelease((uintptr_t)self->manager_ctx);
	free(self);
}

DLManagedTensor *gocccl_dlpack_new(uintptr_t data, int32_t device_type, int32_t device_id, DLDataType dtype, int64_t n, uintptr_t ctx) {
	// The shape lives in the same block, after the tensor.
	DLManagedTensor *t = calloc(1, sizeof(DLManagedTensor) + sizeof(int64_t));
	if (t == NULL) {
		return NULL;
	}
	int64_t *shape = (int64_t *)(t + 1);
	shape[0] = n;
	t->dl_tensor.data = (void *)data;
	t->dl_tensor.device.device_type = device_type;
	t->dl_tensor.device.device_id = device_id;
	t->dl_tensor.ndim = 1;
	t->dl_tensor.dtype = dtype;
	t->dl_tensor.shape = shape;
	t->dl_tensor.strides = NULL;
	t->dl_tensor.byte_offset = 0;
	t->manager_ctx = (void *)ctx;
	t->deleter = gocccl_dlpack_deleter;
	return t;
}

void gocccl_dlpack_delete(DLManagedTensor *t) {
	if (t != NULL && t->deleter != NULL) {
		t->deleter(t);
	}
}
