// dlpack.h: DLPack's C structs (dlpack.h v0.8 and later, ABI-compatible
// since v0.6), declared here so that no DLPack header is needed to build.
#ifndef GOCCCL_DLPACK_H
#define GOCCCL_DLPACK_H

#include <stdint.h>

typedef struct {
	int32_t device_type; // kDLCPU 1, kDLCUDA 2, kDLCUDAHost 3, kDLCUDAManaged 13
	int32_t device_id;
} DLDevice;

typedef struct {
	uint8_t code; // kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBool 6
	uint8_t bits;
	uint16_t lanes;
} DLDataType;

typedef struct {
	void *data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t *shape;
	int64_t *strides; // in elements; NULL: compact, row-major
	uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

// gocccl_dlpack_new allocates a managed tensor of one dimension whose
// deleter releases ctx (a cgo.Handle) through Go, then frees the tensor.
DLManagedTensor *gocccl_dlpack_new(uintptr_t data, int32_t device_type, int32_t device_id, DLDataType dtype, int64_t n, uintptr_t ctx);

// gocccl_dlpack_delete calls t's deleter, if any.
void gocccl_dlpack_delete(DLManagedTensor *t);

#endif
