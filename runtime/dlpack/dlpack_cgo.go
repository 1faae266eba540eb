//go:build cgo

package dlpack

/*
#include <stdlib.h>
#include "dlpack.h"
*/
import "C"

import (
	"errors"
	"runtime/cgo"
	"unsafe"
)

// export allocates the managed tensor; its manager_ctx is a cgo.Handle
// that keeps owner reachable until the deleter releases it.
func export(owner any, addr uintptr, typ, id int32, dt dtype, n int) (unsafe.Pointer, error) {
	h := cgo.NewHandle(owner)
	if n == 0 {
		addr = 0
	}
	// A device address, or on the CPU backend the host address of the
	// Slice's Go memory, which the handle keeps reachable (Go's collector
	// does not move it) until the deleter runs.
	t := C.gocccl_dlpack_new(C.uintptr_t(addr), C.int32_t(typ), C.int32_t(id),
		C.DLDataType{code: C.uint8_t(dt.code), bits: C.uint8_t(dt.bits), lanes: C.uint16_t(dt.lanes)},
		C.int64_t(n), C.uintptr_t(h))
	if t == nil {
		h.Delete()
		return nil, errors.New("dlpack: Export: out of host memory for the tensor")
	}
	return unsafe.Pointer(t), nil
}

//export goccclDLPackRelease
func goccclDLPackRelease(h C.uintptr_t) { cgo.Handle(h).Delete() }

func view(p unsafe.Pointer) (tensorView, error) {
	t := &(*C.DLManagedTensor)(p).dl_tensor
	v := tensorView{
		data:       uintptr(t.data),
		deviceType: int32(t.device.device_type),
		deviceID:   int32(t.device.device_id),
		dtype:      dtype{uint8(t.dtype.code), uint8(t.dtype.bits), uint16(t.dtype.lanes)},
		byteOffset: uint64(t.byte_offset),
	}
	nd := int(t.ndim)
	if nd < 0 || nd > 64 {
		return v, errors.New("dlpack: Import: the tensor's ndim is out of range")
	}
	if nd > 0 {
		if t.shape == nil {
			return v, errors.New("dlpack: Import: the tensor has dimensions but no shape")
		}
		v.shape = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), nd)...)
		if t.strides != nil {
			v.strides = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), nd)...)
		}
	}
	return v, nil
}

// hostPointer returns the tensor's data plus off as a pointer, for a CPU
// tensor, whose data is host memory.
func hostPointer(p unsafe.Pointer, off uint64) unsafe.Pointer {
	return unsafe.Add((*C.DLManagedTensor)(p).dl_tensor.data, off)
}

func release(p unsafe.Pointer) error {
	if p == nil {
		return errors.New("dlpack: Release: nil tensor")
	}
	C.gocccl_dlpack_delete((*C.DLManagedTensor)(p))
	return nil
}

// setField changes one field of a tensor, for tests of Import's checks.
func setField(p unsafe.Pointer, field string, v int64) {
	t := &(*C.DLManagedTensor)(p).dl_tensor
	switch field {
	case "device_type":
		t.device.device_type = C.int32_t(v)
	case "device_id":
		t.device.device_id = C.int32_t(v)
	case "bits":
		t.dtype.bits = C.uint8_t(v)
	case "byte_offset":
		t.byte_offset = C.uint64_t(v)
	case "ndim":
		t.ndim = C.int32_t(v)
	}
}
