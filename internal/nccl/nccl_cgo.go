//go:build cgo

package nccl

/*
#cgo LDFLAGS: -ldl
#cgo noescape gocccl_nccl_load
#cgo nocallback gocccl_nccl_load
#cgo noescape gocccl_ncclGetVersion
#cgo nocallback gocccl_ncclGetVersion
#cgo noescape gocccl_ncclGetUniqueId
#cgo nocallback gocccl_ncclGetUniqueId
#cgo noescape gocccl_ncclCommInitRank
#cgo nocallback gocccl_ncclCommInitRank
#cgo noescape gocccl_ncclCommInitAll
#cgo nocallback gocccl_ncclCommInitAll
#cgo noescape gocccl_ncclCommCount
#cgo nocallback gocccl_ncclCommCount
#cgo noescape gocccl_ncclCommUserRank
#cgo nocallback gocccl_ncclCommUserRank
#cgo noescape gocccl_ncclCommCuDevice
#cgo nocallback gocccl_ncclCommCuDevice
#cgo noescape gocccl_ncclCommGetAsyncError
#cgo nocallback gocccl_ncclCommGetAsyncError
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// load opens the library at path; only a successful load changes what the
// other functions call.
func load(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	if C.gocccl_nccl_load(cpath, &msg[0], C.size_t(len(msg))) != C.GOCCCL_NCCL_LOAD_OK {
		return errors.New(C.GoString(&msg[0]))
	}
	return nil
}

func ncclGetVersion() (int, int) {
	var v C.int
	r := C.gocccl_ncclGetVersion(&v)
	return int(v), int(r)
}

func ncclGetErrorString(r int) string { return C.GoString(C.gocccl_ncclGetErrorString(C.int(r))) }

func ncclGetUniqueId(id *UniqueID) int {
	return int(C.gocccl_ncclGetUniqueId((*C.uchar)(unsafe.Pointer(&id[0]))))
}

func ncclCommInitRank(nranks int, id *UniqueID, rank int) (uintptr, int) {
	var c C.uintptr_t
	r := C.gocccl_ncclCommInitRank(&c, C.int(nranks), (*C.uchar)(unsafe.Pointer(&id[0])), C.int(rank))
	return uintptr(c), int(r)
}

func ncclCommInitAll(comms []uintptr, devices []C.int) int {
	return int(C.gocccl_ncclCommInitAll((*C.uintptr_t)(unsafe.Pointer(&comms[0])), C.int(len(comms)), &devices[0]))
}

func cInts(xs []int) []C.int {
	out := make([]C.int, len(xs))
	for i, x := range xs {
		out[i] = C.int(x)
	}
	return out
}

func ncclCommDestroy(c uintptr) int { return int(C.gocccl_ncclCommDestroy(C.uintptr_t(c))) }
func ncclCommAbort(c uintptr) int   { return int(C.gocccl_ncclCommAbort(C.uintptr_t(c))) }

func ncclCommInt(c uintptr, which int) (int, int) {
	var v C.int
	var r C.int
	switch which {
	case 0:
		r = C.gocccl_ncclCommCount(C.uintptr_t(c), &v)
	case 1:
		r = C.gocccl_ncclCommUserRank(C.uintptr_t(c), &v)
	case 2:
		r = C.gocccl_ncclCommCuDevice(C.uintptr_t(c), &v)
	default:
		r = C.gocccl_ncclCommGetAsyncError(C.uintptr_t(c), &v)
	}
	return int(v), int(r)
}

func ncclAllReduce(send, recv uint64, count int, dt DataType, op RedOp, c, s uintptr) int {
	return int(C.gocccl_ncclAllReduce(C.ulonglong(send), C.ulonglong(recv), C.size_t(count), C.int(dt), C.int(op), C.uintptr_t(c), C.uintptr_t(s)))
}

func ncclAllGather(send, recv uint64, count int, dt DataType, c, s uintptr) int {
	return int(C.gocccl_ncclAllGather(C.ulonglong(send), C.ulonglong(recv), C.size_t(count), C.int(dt), C.uintptr_t(c), C.uintptr_t(s)))
}

func ncclBroadcast(send, recv uint64, count int, dt DataType, root int, c, s uintptr) int {
	return int(C.gocccl_ncclBroadcast(C.ulonglong(send), C.ulonglong(recv), C.size_t(count), C.int(dt), C.int(root), C.uintptr_t(c), C.uintptr_t(s)))
}

func ncclSend(buf uint64, count int, dt DataType, peer int, c, s uintptr) int {
	return int(C.gocccl_ncclSend(C.ulonglong(buf), C.size_t(count), C.int(dt), C.int(peer), C.uintptr_t(c), C.uintptr_t(s)))
}

func ncclRecv(buf uint64, count int, dt DataType, peer int, c, s uintptr) int {
	return int(C.gocccl_ncclRecv(C.ulonglong(buf), C.size_t(count), C.int(dt), C.int(peer), C.uintptr_t(c), C.uintptr_t(s)))
}

func ncclGroupStart() int { return int(C.gocccl_ncclGroupStart()) }
func ncclGroupEnd() int   { return int(C.gocccl_ncclGroupEnd()) }

// initAll is ncclCommInitAll over devices.
func initAll(devices []int) ([]uintptr, int) {
	comms := make([]uintptr, len(devices))
	return comms, ncclCommInitAll(comms, cInts(devices))
}
